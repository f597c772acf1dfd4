"""Robots, house rules and events: the values that go in and out of a turn."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .cards import Card
from .geometry import Square


@dataclass(slots=True)
class Robot:
    """One player's robot as it stands between register phases."""

    name: str
    pos: Square | None
    facing: int
    damage: int = 0
    lives: int = 3
    flags: int = 0
    virtual: bool = False
    #: A virtual robot stays virtual through the whole turn after it was placed
    #: (game start or re-entry); afterwards it turns real as soon as it is alone.
    first_turn: bool = False
    archive: Square | None = None
    powered_down: bool = False
    power_down_next: bool = False
    #: register number (1-5) -> the card fused in it
    locked: dict[int, Card] = field(default_factory=dict)
    #: option cards, by name, in the order gained
    options: list[str] = field(default_factory=list)
    #: destroyed during the current resolution (reset when a turn starts)
    destroyed: bool = False
    #: statuses the robot is in (flying, energized...): effect names (see ``hooks.EFFECTS``) or markers
    statuses: set[str] = field(default_factory=set)
    #: what an option card keeps (charges left, ...), by option name
    option_data: dict[str, dict[str, Any]] = field(default_factory=dict)

    def effects(self) -> list[str]:
        """The names of everything the robot carries that may act: its options, then its statuses."""
        return [*self.options, *sorted(self.statuses)]

    @property
    def on_board(self) -> bool:
        return self.pos is not None

    @property
    def out_of_game(self) -> bool:
        return self.pos is None and self.lives <= 0

    @property
    def hp(self) -> int:
        return 10 - self.damage

    def copy(self) -> Robot:
        return Robot(self.name, self.pos, self.facing, self.damage, self.lives, self.flags, self.virtual,
                     self.first_turn, self.archive, self.powered_down, self.power_down_next, dict(self.locked),
                     list(self.options), self.destroyed, set(self.statuses),
                     {k: dict(v) for k, v in self.option_data.items()})


#: status of a robot made virtual by a board element for a while (virtualizers): it does not turn real
#: when alone until the element's time is over
VIRTUALIZED = "virtualized"

#: status of a flying robot (antigravity fields): floor elements (kinds of group "floor": pits, belts,
#: gears, water...) do not act on it
FLYING = "flying"

#: status of an energized robot (energizers): it executes two registers a phase
ENERGIZED = "energized"

#: ``Robot.option_data`` key of registers a board element holds locked into the next turn (melting beams):
#: register number (a string) -> turn ends it still holds through (2: this one and the next). The end of
#: turn keeps such a register's card locked while the count is above 1, and dealing keeps it out of the
#: hand; each end of turn counts down.
HELD = "held registers"

#: status of a robot asleep in soporific gas: powered down for five register phases, then it plays the
#: cards it kept; ``option_data["gassed"]`` holds ``asleep`` (phases still to sleep) and ``cards``
#: (register -> card text), which dealing keeps out of every hand
GASSED = "gassed"

#: ``Robot.option_data`` key of a reset site's end-of-turn choice for the next deal: ``{"card": "FWD2 700"}``
#: (in the next hand) or ``{"random": true}`` (five random cards make the next program)
RESET_CHOICE = "reset site"

#: status of a tamagotchi (copy machines): a virtual copy of a robot, moving by its robot's cards; it never turns
#: real. ``option_data["tamagotchi"]`` holds ``of`` (its robot) and ``arose`` (the square it appeared on); its
#: robot carries the status ``copied`` and ``option_data["tamagotchi"] = {"copy": <the copy's name>}``
TAMAGOTCHI = "tamagotchi"
COPIED = "copied"

EDGE_RULES = ("pit", "fence")


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules. Every field has the default written in docs/rulings.md."""

    #: what lies beyond an open board edge: ``pit`` destroys, ``fence`` costs 2 HP and blocks
    edge: str = "pit"
    #: robots each player has at the start of a game
    lives: int = 3
    #: how robots enter the game: ``virtual`` (all on start square 1, virtual) or ``numbered``
    start: str = "virtual"
    #: whether a teleporter jump may pass a wall (issue 8's teleporters)
    teleport_through_walls: bool = False
    #: whether Shield (a card of later editions) is in the option deck (issue 16: out, the classic 26)
    option_shield: bool = False
    #: Dual Processor: ``move first`` then turn (default), or ``turn first``
    dual_processor: str = "move first"
    #: Radio Control: the target plays the shooter's cards for the ``rest of turn`` (default), or only in
    #: the ``next register``
    radio_control: str = "rest of turn"
    #: Fire Control: which of the target's options is destroyed: its ``newest`` (default), or the
    #: first named by the target's player's ``sacrifice order``
    fire_control: str = "newest"
    #: radio beams: the ``original`` rule (random cards locked into next turn's program) or the ``revised`` one
    #: (the beam's three cards replace the rest of this turn's program, registers 6-8 if needed)
    radio_beam: str = "original"
    #: option cards put in the deck by name besides the classic 26 (cards added later join only this way,
    #: so a new card never changes the shuffle of a game that does not name it)
    option_cards: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown house rule {unknown[0]!r} (known: {', '.join(sorted(known))})")
        cards = data.get("option_cards")
        if isinstance(cards, str):   # a GM's RULE option_cards=Shield,"Rocket Boots"
            cards = [c.strip().strip('"') for c in cards.split(",") if c.strip()]
        if isinstance(cards, list):
            data = {**data, "option_cards": tuple(cards)}
        rules = cls(**data)
        rules.validate()
        return rules

    def validate(self) -> None:
        if self.edge not in EDGE_RULES:
            raise ValueError(f"house rule edge must be 'pit' or 'fence', not {self.edge!r}")
        if not isinstance(self.lives, int) or isinstance(self.lives, bool) or not 1 <= self.lives <= 9:
            raise ValueError(f"house rule lives must be a whole number from 1 to 9, not {self.lives!r}")
        if self.start not in ("virtual", "numbered"):
            raise ValueError(f"house rule start must be 'virtual' or 'numbered', not {self.start!r}")
        if not isinstance(self.teleport_through_walls, bool):
            raise ValueError("house rule teleport_through_walls must be true or false")
        if not isinstance(self.option_shield, bool):
            raise ValueError("house rule option_shield must be true or false")
        if not isinstance(self.option_cards, tuple) or not all(isinstance(c, str) for c in self.option_cards):
            raise ValueError("house rule option_cards must be a list of option card names")
        from .option_cards import CARDS  # the registered cards (no import cycle: looked up when checked)

        unknown_cards = [c for c in self.option_cards if c not in CARDS]
        if unknown_cards:
            raise ValueError(f"house rule option_cards: no option card {unknown_cards[0]!r} "
                             f"(cards: {', '.join(sorted(CARDS))})")
        for name, allowed in (("dual_processor", ("move first", "turn first")),
                              ("radio_control", ("rest of turn", "next register")),
                              ("fire_control", ("newest", "sacrifice order")),
                              ("radio_beam", ("original", "revised"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"house rule {name} must be {' or '.join(repr(a) for a in allowed)}, "
                                 f"not {getattr(self, name)!r}")

    def to_dict(self) -> dict[str, Any]:
        """Every rule; the option cards' rules only when they differ from the default (so the rules
        stored before option cards existed read the same)."""
        return {f.name: list(value) if isinstance(value := getattr(self, f.name), tuple) else value
                for f in fields(self)
                if f.name not in OPTION_RULES | ELEMENT_RULES or getattr(self, f.name) != f.default}


#: house rules of the option cards (issue 16), written out only when set
OPTION_RULES = frozenset({"option_shield", "dual_processor", "radio_control", "fire_control", "option_cards"})
#: house rules of board elements added later (issue 15), written out only when set
ELEMENT_RULES = frozenset({"radio_beam"})


# Phase labels outside the five register phases.
START = "start"
END = "end"


@dataclass(slots=True)
class BoardState:
    """What board elements remember between register phases and from turn to turn (a piston's
    position, a turret's facing, a barricade's hits), as plain JSON values.

    ``values`` maps a kind's name to that kind's own table: key (usually a square name such as
    ``"r3c4"``, or a group name) -> value. A kind reads with :meth:`get`, giving the value it starts
    from when nothing is stored, and writes with :meth:`set`; it never keeps state elsewhere. The
    whole state goes into a turn (``TurnRun(board_state=...)``) and comes out of it
    (``TurnResult.board_state``), and the store keeps it with the turn's snapshot.
    """

    values: dict[str, dict[str, Any]] = field(default_factory=dict)

    def get(self, kind: str, key: str, default: Any = None) -> Any:
        """The value ``kind`` stored under ``key``, or ``default`` (nothing stored yet)."""
        table = self.values.get(kind)
        if table is None:
            return default
        return table.get(key, default)

    def set(self, kind: str, key: str, value: Any) -> None:
        """Store a JSON value (numbers, strings, booleans, lists and dicts of them)."""
        self.values.setdefault(kind, {})[key] = _json_copy(value)

    def copy(self) -> BoardState:
        return BoardState({kind: {k: _json_copy(v) for k, v in table.items()} for kind, table in self.values.items()})

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """The state as JSON (kinds and keys sorted, so equal states give equal documents)."""
        return {kind: {k: _json_copy(table[k]) for k in sorted(table)} for kind, table in sorted(self.values.items())
                if table}

    @classmethod
    def from_dict(cls, data: Any) -> BoardState:
        if data is None:
            return cls()
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise ValueError("board state must map element kinds to objects")
        return cls({str(kind): {str(k): _json_copy(v) for k, v in table.items()} for kind, table in data.items()})

    def __bool__(self) -> bool:
        return any(self.values.values())


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_copy(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"board state holds JSON values only, not {type(value).__name__}")
