"""The requests a player's mail may carry besides orders, each a use case answered in the same mail: HELP,
STATUS (the game's state and who has sent orders), CARDS (the hand), PREVIEW and HINT (:mod:`.previews`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from ..engine import Robot
from ..messages import players as words
from ..orders import OrderContext, replies
from ..store.models import Game, Player, Turn
from . import previews
from .on_file import on_file
from .views import game_view

if TYPE_CHECKING:
    from ..render.mail import Picture


@dataclass
class Answers:
    """The answers to a mail's requests, in the order asked, and the pictures that go with them."""

    texts: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)


def answer_requests(s: Session, commands: list[str], game: Game, player: Player, turn: Turn | None,
                    robots: list[Robot], ctx: OrderContext, vocabulary: str, now: datetime) -> Answers:
    """The answers to ``commands`` (``help``, ``status``, ``cards``, ``preview``, ``hint``) for the player's
    robot, as things stand now (after the mail's orders were taken)."""
    out = Answers()
    for command in commands:
        if command == "help":
            out.texts.append(replies.help_text())
        elif command == "status":
            view = game_view(s, game)
            by_robot = {p["robot"]: p["orders"] for p in view["players"]}
            orders = {p.id: by_robot.get(p.robot, "") for p in game.players}
            out.texts.append(words.status_text(game, player, turn, robots, orders=orders, now=now))
        elif command == "cards":
            if turn is None:
                out.texts.append(words.no_cards(game.code))
            else:
                out.texts.append(replies.render_cards(game=game.code, robot=player.robot, turn=turn.number,
                                                      hand=ctx.hand, locked=ctx.locked, vocabulary=vocabulary))
        elif command == "preview":
            text, picture = previews.preview_answer(s, game, player, turn, on_file(s, turn, player)[0], vocabulary)
            out.texts.append(text)
            if picture is not None:
                out.pictures.append(picture)
        elif command == "hint":
            out.texts.append(previews.hint_text(s, game, player, turn, list(ctx.hand), dict(ctx.locked), vocabulary))
    return out
