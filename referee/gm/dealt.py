"""What a GM's ``SET <robot>`` tells the players: the robot's line (only what changed, since the mail's first
change of it), each option card given explained in one line to its player (from the card's declaration), and
the new hand with its order form to every player whose hand was dealt again (written when the notice is, so
it shows the hand, the cards and the deadline the whole mail left)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import games as g
from ..engine import Robot
from ..messages import bulletin as words
from ..reports.option_help import card_line
from .bulletin import Tail, robot_changes
from .context import GmContext, tell_players
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


def cards_given(before: Robot, after: Robot) -> str:
    """For the GM's answer: each option card the SET gave, in the line its player reads (with its order)."""
    return "".join(f"\n      new option card {card_line(card)}" for card in after.options if card not in before.options)


def tell_hands(ctx: GmContext, s: Session, game: Game, command: Command, turn: Turn, hands: dict[str, list[str]],
               sent: set[str]) -> None:
    """After the turn's hands were dealt again from ``hands``: the new hand and order form to each player whose
    hand changed; to one whose orders (robots in ``sent``) were voided with an unchanged hand, that they were."""
    if dict(turn.hands) == hands:
        return
    robots = {r.name for r in g.robots_of(turn)}
    for p in game.players:
        if p.status != "active" or p.robot not in robots:
            continue
        if list(turn.hands.get(p.robot) or []) != list(hands.get(p.robot) or []):
            kind = "new"
        elif p.robot in sent:
            kind = "void"
        else:
            continue
        ctx.news.stage(game.code, Tail("hand", kind, p.id, dealt=kind))
