"""The rules engine: pure and deterministic. State, programs and a seed in; new state and events out.

No I/O, no clock, no global random state lives here: everything that varies comes in as an
argument, and every random choice is drawn from a generator seeded by the caller's seed.
"""

from . import (
    elements,  # noqa: F401  (registers the element kinds)
    options,  # noqa: F401  (registers the option cards)
)
from .board import Board, BoardError, Element
from .board_spec import build_board
from .cards import DECK, Card, CardError, deal, hand_size, locked_registers, parse_card
from .dealing import Deal, deal_turn, needs_program
from .events import Event
from .geometry import NotationError, Square, dir_name, parse_dir, parse_square, square_name
from .kinds import KINDS
from .resolve import TurnResult, TurnRun, resolve_turn
from .state import BoardState, Robot, Rules
from .version import RULES_VERSION

__all__ = [
    "DECK",
    "KINDS",
    "RULES_VERSION",
    "Board",
    "BoardError",
    "BoardState",
    "Card",
    "CardError",
    "Deal",
    "Element",
    "Event",
    "NotationError",
    "Robot",
    "Rules",
    "Square",
    "TurnResult",
    "TurnRun",
    "build_board",
    "deal",
    "deal_turn",
    "dir_name",
    "hand_size",
    "locked_registers",
    "needs_program",
    "parse_card",
    "parse_dir",
    "parse_square",
    "resolve_turn",
    "square_name",
]
