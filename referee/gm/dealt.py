"""What a GM's ``SET <robot>`` tells the players: the robot's line (only what changed, since the mail's first
change of it), each option card given explained in one line to its player (from the card's declaration), and
the new hand with its order form to every player whose hand was dealt again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import games as g
from ..engine import Robot
from ..messages import bulletin as words
from ..reports.mails import order_template
from ..reports.option_help import card_line
from ..store.records import locked_of
from .bulletin import robot_changes
from .context import GmContext, deadline_words, tell_players
from .language import Command

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ..store.models import Game, Turn


def tell_correction(ctx: GmContext, s: Session, game: Game, command: Command, turn: Turn, before: Robot,
                    after: Robot) -> None:
    """The corrected robot's line for every player, and its new option cards explained to its own player."""
    subject = f"{after.name} corrected"
    tell_players(ctx, s, game, command, subject, words.robot_changed(after.name, robot_changes(before, after)),
                 about=f"robot:{after.name}")
    player = g.get_player(s, game, after.name)
    for card in after.options:
        if card not in before.options and player.status == "active":
            tell_players(ctx, s, game, command, subject, words.new_option(card_line(card)),
                         about=f"option:{after.name}:{card}", only=player.id)


def tell_hands(ctx: GmContext, s: Session, game: Game, command: Command, turn: Turn, hands: dict[str, list[str]],
               sent: set[str]) -> None:
    """After the turn's hands were dealt again from ``hands``: the new hand and order form to each player whose
    hand changed; to one whose orders (robots in ``sent``) were voided with an unchanged hand, that they were."""
    if dict(turn.hands) == hands:
        return
    robots = {r.name: r for r in g.robots_of(turn)}
    for p in game.players:
        if p.status != "active" or p.robot not in robots:
            continue
        deadline = deadline_words(turn.deadline, ctx.now, p.timezone)
        new = list(turn.hands.get(p.robot) or [])
        if new != list(hands.get(p.robot) or []):
            locked = sorted(locked_of(turn, p.robot).items())
            text = words.new_hand(turn.number, new, [(reg, str(card)) for reg, card in locked], deadline,
                                  order_template(game, p, turn, robots[p.robot]))
        elif p.robot in sent:
            text = words.orders_void(turn.number, deadline)
        else:
            continue
        tell_players(ctx, s, game, command, f"{p.robot}: your new hand", "", text, about="hand", only=p.id)
