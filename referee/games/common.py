"""What the use cases share: the audit log, names and addresses as a game accepts them, turn seeds.

Every use case takes a SQLAlchemy ``Session`` (from :meth:`Store.write` or :meth:`Store.read`) so a
caller can do several things in one transaction; one that changes a game locks it first
(:func:`referee.store.queries.locked_game`) and re-checks its state under the lock. ``now`` is a
parameter (aware UTC; default the wall clock) and ``actor`` names who did it, for the audit log.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..engine import Board
from ..mailparse.senders import address_list, sender_address
from ..store.errors import InvalidValue
from ..store.models import AuditEntry, Game
from ..store.types import utcnow

#: the board pictures' palette (chosen to stand out on the floor), in the order seats get them
PALETTE = ("red", "blue", "green", "orange", "purple", "cyan", "pink", "brown")
MAX_PLAYERS = 8
CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,31}$")
ROBOT_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")
COLOUR_RE = re.compile(r"^(#[0-9a-fA-F]{6}|[a-z]{3,16})$")
EMAIL_RE = re.compile(r"^[^@\s<>(),;:\"\[\]]+@[^@\s<>(),;:\"\[\]]+\.[^@\s<>(),;:\"\[\]]+$")
#: secrets are typed by players into a BEGIN line: lower case, no look-alike characters; 16 of the 31
#: give 79 bits (the 8 of the first games gave 40, and those keys keep working)
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
SECRET_LENGTH = 16
#: words the order language (issue 4) reads after ``BEGIN <game>``: not allowed as robot names
RESERVED_ROBOT_NAMES = frozenset({"turn", "gm", "all", "end", "begin", "help", "status", "cards"})


def audit(s: Session, action: str, *, actor: str, game: Game | None = None, turn_number: int | None = None,
          details: dict[str, Any] | None = None, now: datetime | None = None) -> AuditEntry:
    """Write one audit log line (``action`` dotted, e.g. ``turn.rerun``; old values in ``details``)."""
    entry = AuditEntry(at=now or utcnow(), actor=actor, action=action, game_id=game.id if game else None,
                       turn_number=turn_number, details=details or {})
    s.add(entry)
    return entry


def new_secret() -> str:
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def turn_seed(game: Game, number: int) -> str:
    return f"{game.seed}:{number}"


def normalize_email(address: str) -> str:
    """``Alice <Alice@Example.org>`` -> ``alice@example.org``; :class:`InvalidValue` if it is not exactly one
    plain address (a list, a header fragment, a line break or control character is refused, never cut)."""
    text = address.strip()
    if any(unicodedata.category(c) == "Cc" for c in text) or "\\" in text:
        raise InvalidValue(f"bad e-mail address {text!r}: it holds a line break or a control character; "
                           "give one plain address")
    found = address_list(text)
    if len(found) > 1 or ";" in text or (":" in text and "<" not in text):
        raise InvalidValue(f"bad e-mail address {text!r}: give one address, not a list or header lines")
    addr = sender_address(text)
    if not addr or not EMAIL_RE.match(addr) or len(addr) > 320:
        raise InvalidValue(f"bad e-mail address {text!r}")
    return addr


def course_players(board: Board) -> tuple[int, int]:
    """(fewest, most) players the course is made for (its ``players``; any number up to 8 if unsaid)."""
    spec = board.spec.get("players")
    if isinstance(spec, list) and len(spec) == 2 and all(isinstance(n, int) for n in spec):
        return spec[0], spec[1]
    return 1, MAX_PLAYERS
