"""A game keeps its rules version (issue 44): the GM moves it (``SET RULES 4``), never an upgrade.

A game plays under the rules version it started with. Each turn is dealt under the game's version and
resolved under the version it was dealt under (:func:`.engine_io.turn_rules`), so a GM's move takes effect
from the next turn dealt, and the players are told what changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ..engine.version import KEEPS, RULES_VERSION, changes_between
from ..store.errors import GameStateError
from ..store.models import Game
from .common import audit

#: the rules versions a game may play (those this engine plays exactly, ``Rules.for_version``)
PLAYABLE = tuple(range(2, RULES_VERSION + 1))


@dataclass(frozen=True)
class RulesMove:
    """A game moved from one rules version to another: what changes, from which turn."""

    old: int
    new: int
    from_turn: int
    changes: list[str]

    def announcement(self) -> str:
        """The players' mail: the version, from when, what changes and how to keep an old reading."""
        lines = [f"This game now plays rules version {self.new} (it played version {self.old}), from turn "
                 f"{self.from_turn} on; a turn already dealt is played under the rules it was dealt under.", ""]
        if self.new > self.old:
            lines.append("What changes:")
            lines += [f"- {line}" for line in self.changes]
            kept = [rule for v in range(self.old + 1, self.new + 1) for rule in KEEPS.get(v, ())]
            if kept:
                lines += ["", "Your GM may keep an old reading as a house rule: " + ", ".join(kept) + "."]
        else:
            lines.append("These readings of the newer version no longer apply:")
            lines += [f"- {line}" for line in self.changes]
        return "\n".join(lines)


def set_rules_version(s: Session, game: Game, version: int, *, actor: str, now: datetime) -> RulesMove:
    """Move ``game`` to rules ``version`` from the next turn dealt; refuses a version this engine cannot play."""
    if version not in PLAYABLE:
        raise GameStateError(f"rules version {version} is not one this referee plays "
                             f"({', '.join(map(str, PLAYABLE))})")
    old = game.rules_version
    if old == version:
        raise GameStateError(f"{game.code} already plays rules version {version}")
    game.rules_version = version
    from_turn = game.turn_number + 1 if game.status in ("running", "paused") else max(game.turn_number, 1)
    audit(s, "game.rules_version", actor=actor, game=game, now=now, details={"old": old, "new": version})
    return RulesMove(old, version, from_turn, changes_between(old, version))
