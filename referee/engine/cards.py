"""The 84-card program deck, card notation, and seeded dealing."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class CardType:
    code: str       # report spelling: FWD2
    postal: str     # postal spelling: Move-2
    move: int       # squares forward (negative: backward), 0 for rotations
    turn: int       # quarter turns clockwise


FWD1 = CardType("FWD1", "Move-1", 1, 0)
FWD2 = CardType("FWD2", "Move-2", 2, 0)
FWD3 = CardType("FWD3", "Move-3", 3, 0)
RVS1 = CardType("RVS1", "Back", -1, 0)
LF90 = CardType("LF90", "Left", 0, 3)
RT90 = CardType("RT90", "Right", 0, 1)
UTRN = CardType("UTRN", "U-Turn", 0, 2)
CARD_TYPES = (UTRN, LF90, RT90, RVS1, FWD1, FWD2, FWD3)

# (type, count, first priority, step): the standard deck
DECK_LAYOUT = (
    (UTRN, 6, 10, 10),
    (LF90, 18, 70, 20),
    (RT90, 18, 80, 20),
    (RVS1, 6, 430, 10),
    (FWD1, 18, 490, 10),
    (FWD2, 12, 670, 10),
    (FWD3, 6, 790, 10),
)

_ALIASES: dict[str, CardType] = {}
for _t in CARD_TYPES:
    for _name in (_t.code, _t.postal, _t.postal.replace("-", ""), _t.postal.replace("-", " ")):
        _ALIASES[_name.upper()] = _t
_ALIASES.update({"BACK-UP": RVS1, "BACKUP": RVS1, "UTURN": UTRN, "U TURN": UTRN,
                 "MOVE1": FWD1, "MOVE2": FWD2, "MOVE3": FWD3, "BACK UP": RVS1})


@dataclass(frozen=True, slots=True, order=True)
class Card:
    priority: int
    type: CardType
    #: the card as written in reports and stored (``FWD2 670``): made once (every stored turn names its cards)
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.type.code} {self.priority}")

    def __str__(self) -> str:
        return self.text

    @property
    def postal(self) -> str:
        return f"{self.type.postal} P{self.priority}"


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for ctype, count, first, stride in DECK_LAYOUT:
        cards.extend(Card(first + i * stride, ctype) for i in range(count))
    return tuple(sorted(cards))


DECK: tuple[Card, ...] = _build_deck()
BY_PRIORITY: dict[int, Card] = {c.priority: c for c in DECK}
assert len(DECK) == 84 and len(BY_PRIORITY) == 84


class CardError(ValueError):
    """A card that cannot be read or is not in the deck."""


_CARD = re.compile(r"^\s*([A-Z].*?)(?:\s+P?|P)(\d+)\s*$", re.IGNORECASE)


def card_type(text: str) -> CardType:
    t = _ALIASES.get(text.strip().upper())
    if t is None:
        raise CardError(f"unknown card type {text!r} (expected one of {', '.join(c.code for c in CARD_TYPES)})")
    return t


def parse_card(text: object) -> Card:
    """``FWD2 670``, ``Move-2 P670``, ``fwd2 p670``: a card of the standard deck."""
    if not isinstance(text, str):
        raise CardError(f"bad card {text!r} (expected e.g. 'FWD2 670' or 'Move-2 P670')")
    m = _CARD.match(text)
    if not m:
        raise CardError(f"bad card {text!r} (expected e.g. 'FWD2 670' or 'Move-2 P670')")
    type_text, prio_text = m.group(1), m.group(2)
    ctype = card_type(type_text)
    card = BY_PRIORITY.get(int(prio_text))
    if card is None or card.type is not ctype:
        raise CardError(f"card {text!r} is not in the deck ({ctype.code} priorities: {_range_of(ctype)})")
    return card


def _range_of(ctype: CardType) -> str:
    for t, count, first, stride in DECK_LAYOUT:
        if t is ctype:
            return f"{first}-{first + (count - 1) * stride} step {stride}"
    raise AssertionError(ctype)


def shuffled_deck(seed: int | str, exclude: frozenset[Card] | set[Card] = frozenset()) -> list[Card]:
    """The deck less ``exclude`` (cards locked in registers), shuffled by a local seeded generator."""
    rng = random.Random(f"deck:{seed}")
    cards = [c for c in DECK if c not in exclude]
    rng.shuffle(cards)
    return cards


def hand_size(damage: int) -> int:
    return max(0, 9 - damage)


def locked_registers(damage: int) -> list[int]:
    """Registers (1-5) fused by damage: 5 damage locks register 5, ... 9 locks 1-5."""
    return list(range(max(1, 10 - damage), 6)) if damage >= 5 else []


def deal(hand_sizes: dict[str, int], seed: int | str,
         locked: frozenset[Card] | set[Card] = frozenset()) -> dict[str, list[Card]]:
    """Deal ``hand_sizes[name]`` cards to each robot, one at a time round the table, in the given order."""
    deck = shuffled_deck(seed, locked)
    hands: dict[str, list[Card]] = {name: [] for name in hand_sizes}
    need = dict(hand_sizes)
    pos = 0
    while any(need.values()):
        for name in hand_sizes:
            if need[name] > 0:
                hands[name].append(deck[pos])
                pos += 1
                need[name] -= 1
    return hands
