"""Robots, house rules and events: the values that go in and out of a turn."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, replace
from types import SimpleNamespace
from typing import Any

from .cards import Card
from .geometry import Square
from .version import RULES_VERSION


def _meta(*, key: str = "", gm: str = "", copy: str = "", scenario: bool = True) -> dict[str, Any]:
    """What the other lists of robot fields are made from, for one field of :class:`Robot`: its JSON ``key``
    (snapshots, the scenario contract; default: the field's name), whether a scenario may give it, the
    word a GM's ``SET`` changes it by (none: not by a word of its own), and how :meth:`Robot.copy` copies
    it (``dict``, ``list``, ``set``, ``dicts``: a dict of dicts; none: an immutable value, shared)."""
    return {"key": key, "gm": gm, "copy": copy, "scenario": scenario}


@dataclass(slots=True)
class Robot:
    """One player's robot as it stands between register phases.

    Its fields are the one declaration of a robot's fields: :meth:`copy`, the snapshot codecs
    (``snapshot.CODECS``, checked against :data:`ROBOT_KEYS`), the keys a scenario may give
    (``scenario.ROBOT_KEYS``) and the fields a GM's ``SET`` names (:data:`GM_FIELDS`) are made from them.
    """

    name: str = field(metadata=_meta(key="name"))
    pos: Square | None = field(metadata=_meta(key="at", gm="AT"))
    facing: int = field(metadata=_meta(gm="FACING"))
    damage: int = field(default=0, metadata=_meta(gm="DAMAGE"))
    lives: int = field(default=3, metadata=_meta(gm="LIVES"))
    flags: int = field(default=0, metadata=_meta(gm="FLAGS"))
    virtual: bool = field(default=False, metadata=_meta(gm="VIRTUAL"))
    #: A virtual robot stays virtual through the whole turn after it was placed
    #: (game start or re-entry); afterwards it turns real as soon as it is alone.
    first_turn: bool = field(default=False, metadata=_meta())
    archive: Square | None = field(default=None, metadata=_meta(gm="ARCHIVE"))
    #: (the GM's ``POWERED DOWN yes/no``)
    powered_down: bool = field(default=False, metadata=_meta(gm="POWERED"))
    power_down_next: bool = field(default=False, metadata=_meta())
    #: register number (1-5) -> the card fused in it
    locked: dict[int, Card] = field(default_factory=dict, metadata=_meta(copy="dict"))
    #: option cards, by name, in the order gained
    options: list[str] = field(default_factory=list, metadata=_meta(copy="list"))
    #: destroyed during the current resolution (reset when a turn starts)
    destroyed: bool = field(default=False, metadata=_meta(scenario=False))
    #: statuses the robot is in (flying, energized...): effect names (see ``hooks.EFFECTS``) or markers
    statuses: set[str] = field(default_factory=set, metadata=_meta(copy="set"))
    #: what an option card keeps (charges left, ...), by option name
    option_data: dict[str, dict[str, Any]] = field(default_factory=dict, metadata=_meta(copy="dicts"))

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
        """An independent copy (containers copied, values shared). Written out field by field (it is called for
        every robot of every copied turn); ``tests/engine/test_robot_fields.py`` holds it to the fields' ``copy``."""
        return Robot(self.name, self.pos, self.facing, self.damage, self.lives, self.flags, self.virtual,
                     self.first_turn, self.archive, self.powered_down, self.power_down_next,
                     dict(self.locked) if self.locked else {}, list(self.options) if self.options else [],
                     self.destroyed, set(self.statuses) if self.statuses else set(),
                     {k: dict(v) for k, v in self.option_data.items()} if self.option_data else {})


#: how a field's ``copy`` mode copies a value (what :meth:`Robot.copy`, :func:`record_robots` and
#: :func:`restore_robots` write out for it)
COPY_MODES = ("", "dict", "list", "set", "dicts")


def _check_copy_modes() -> None:
    """Refuse a field without a known ``copy`` mode, or holding a mutable value without one."""
    for f in fields(Robot):
        mode = f.metadata.get("copy")
        if mode is None or mode not in COPY_MODES:
            raise TypeError(f"Robot.{f.name}: declare it with _meta(..., copy=...)")
        if f.default_factory is not MISSING and not mode:
            raise TypeError(f"Robot.{f.name} holds a mutable value: say how it copies (_meta(copy=...))")


_check_copy_modes()

#: a robot as a frame keeps it: its first :data:`FLAT` fields' values (name, square, facing, damage: what a
#: register phase changes), then one tuple of the others' (compared at once when frames are stored, see
#: ``snapshot.frames_to_dicts``), in declaration order, containers copied (None when empty)
RobotRecord = tuple[Any, ...]
FLAT = 4


def record_robots(robots: list[Robot]) -> tuple[RobotRecord, ...]:
    """The robots as a frame keeps them: a tuple of each one's field values (a cheap, independent copy; written
    out field by field, held to the fields' ``copy`` by ``tests/engine/test_robot_fields.py``)."""
    return tuple([(r.name, r.pos, r.facing, r.damage, (r.lives, r.flags, r.virtual, r.first_turn, r.archive,
                   r.powered_down, r.power_down_next, dict(r.locked) if r.locked else None,
                   list(r.options) if r.options else None, r.destroyed, set(r.statuses) if r.statuses else None,
                   {k: dict(v) for k, v in r.option_data.items()} if r.option_data else None)) for r in robots])


def restore_robots(records: tuple[RobotRecord, ...]) -> list[Robot]:
    """Robots from :func:`record_robots` (each call makes new ones, independent of the record)."""
    out: list[Robot] = []
    for t in records:
        o = t[4]
        out.append(Robot(t[0], t[1], t[2], t[3], o[0], o[1], o[2], o[3], o[4], o[5], o[6], dict(o[7]) if o[7] else {},
                         list(o[8]) if o[8] else [], o[9], set(o[10]) if o[10] else set(),
                         {k: dict(v) for k, v in o[11].items()} if o[11] else {}))
    return out

#: Robot field -> its JSON key (snapshots, the scenario contract)
ROBOT_KEYS: dict[str, str] = {f.name: f.metadata["key"] or f.name for f in fields(Robot)}
#: the JSON keys of the fields a scenario may give
SCENARIO_ROBOT_KEYS: frozenset[str] = frozenset(ROBOT_KEYS[f.name] for f in fields(Robot) if f.metadata["scenario"])
#: a GM's ``SET`` word -> the JSON key of the field it changes
GM_FIELDS: dict[str, str] = {f.metadata["gm"]: ROBOT_KEYS[f.name] for f in fields(Robot) if f.metadata["gm"]}


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
#: the names of the option cards registered (by :func:`referee.engine.option_cards.register_card`), which the
#: house rule ``option_cards`` may name
OPTION_CARDS: set[str] = set()


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
    # -- the old readings of rules version 2, kept for a GM who wants them (all off: the texts' reading) --
    #: only a card executed in deep water costs 1 HP; moving into or through it under a card is free
    deep_water_start_only: bool = False
    #: a repeater repeats a card at once, before the robots of lower priority move
    repeat_at_once: bool = False
    #: robots pushed by pushers onto tilted ground, oil or a hydraulic trapdoor are not affected again
    pushed_not_affected: bool = False
    #: a real robot passing over a hydraulic trapdoor under its card sets it off
    trapdoor_on_passing: bool = False
    #: an option weapon ordered where it cannot act fires nothing (the main laser is lost)
    weapon_or_nothing: bool = False
    # -- the old readings of rules version 3, kept for a GM who wants them (all off: the texts' reading) --
    #: robots a pusher pushes onto oil slide on without pushing (a robot on oil in the way holds them)
    pusher_slides_hold: bool = False
    #: a robot pushed across a hydraulic trapdoor by another robot's card sets it off as it passes
    trapdoor_pushed_across: bool = False
    #: a black hole pulls along its whole row and column across the course, not only on its own board
    black_hole_whole_line: bool = False
    #: a magnet pulls along its whole row and column across the course, not only on its own board
    magnet_whole_line: bool = False
    #: a ghost may drift across the whole course (it is not removed when it leaves its board)
    ghost_whole_course: bool = False
    #: a robot on a crater's corner square slips straight, as on any tilted ground (no diagonal slip)
    crater_straight: bool = False
    #: radioactive waste hands a robot its top option card once a turn, without asking
    radioactive_once: bool = False
    #: the rules version the turn is played under (not a house rule: :meth:`for_version` sets it to replay a
    #: turn stored under older rules exactly; never read from or written to a game's house rules)
    version: int = field(default=RULES_VERSION, compare=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)} - {"version"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown house rule {unknown[0]!r} (known: {', '.join(sorted(known))})")
        cards = data.get("option_cards")
        if isinstance(cards, str):   # a GM's RULE option_cards=Shield,"Rocket Boots"
            cards = [c.strip().strip('"') for c in cards.split(",") if c.strip()]
        if isinstance(cards, list):
            data = {**data, "option_cards": tuple(cards)}
        defaults = cls()
        _check_rules(SimpleNamespace(**{**{f.name: getattr(defaults, f.name) for f in fields(cls)}, **data}))
        return cls(**data)

    def validate(self) -> None:
        """Refuse rules a GM or a scenario could not have given (a ``ValueError`` saying which and why)."""
        _check_rules(self)

    def to_dict(self) -> dict[str, Any]:
        """Every rule; the option cards' rules only when they differ from the default (so the rules
        stored before option cards existed read the same)."""
        return {f.name: list(value) if isinstance(value := getattr(self, f.name), tuple) else value
                for f in fields(self)
                if f.name != "version" and (f.name not in WRITTEN_WHEN_SET or getattr(self, f.name) != f.default)}

    def for_version(self, version: int) -> Rules:
        """These rules as a turn stored under rules ``version`` was played: before version 3 the old
        readings (:data:`LEGACY_RULES`) were the only ones, and the order-dependent ways too."""
        changes: dict[str, Any] = {"version": version}
        if version < 3:
            changes.update(dict.fromkeys(LEGACY_RULES, True))
        if version < 4:
            changes.update(dict.fromkeys(LEGACY4_RULES, True))
        return replace(self, **changes)

    @property
    def order_free(self) -> bool:
        """Whether the ways that do not depend on a board's listing or compass order apply (version 3 on);
        a turn stored under version 2 replays the old ways (magnets, black holes, ventilators, hydraulic
        pushers, two pushers on one square, the order of randomizers' and option draws)."""
        return self.version >= 3

    @property
    def seat_free(self) -> bool:
        """Whether no seat, listing or compass order breaks a tie that rules version 3 still left to them
        (version 4 on: particle accelerators' equal speeds, a ghost's equally near graves, Radio Control's
        copied card); a turn stored under an older version replays the old ways."""
        return self.version >= 4

    @property
    def ghost_events(self) -> bool:
        """Whether what a ghost does is logged as the ghost's (version 5 on: its events name no robot and carry
        ``ghost``, its hits say which ghost dealt them from where); a turn stored under an older version replays
        its log as it was written, under the parent robot."""
        return self.version >= 5


def _check_rules(rules: Any) -> None:
    """:meth:`Rules.validate` on anything holding the rules as attributes: ``from_dict`` checks the values given
    before it makes a ``Rules`` of them (a compiled engine would refuse a value of the wrong type unexplained)."""
    if rules.edge not in EDGE_RULES:
        raise ValueError(f"house rule edge must be 'pit' or 'fence', not {rules.edge!r}")
    if not isinstance(rules.lives, int) or isinstance(rules.lives, bool) or not 1 <= rules.lives <= 9:
        raise ValueError(f"house rule lives must be a whole number from 1 to 9, not {rules.lives!r}")
    if rules.start not in ("virtual", "numbered"):
        raise ValueError(f"house rule start must be 'virtual' or 'numbered', not {rules.start!r}")
    if not isinstance(rules.teleport_through_walls, bool):
        raise ValueError("house rule teleport_through_walls must be true or false")
    if not isinstance(rules.option_shield, bool):
        raise ValueError("house rule option_shield must be true or false")
    for name in sorted(LEGACY_RULES | LEGACY4_RULES):
        if not isinstance(getattr(rules, name), bool):
            raise ValueError(f"house rule {name} must be true or false")
    if not isinstance(rules.option_cards, tuple) or not all(isinstance(c, str) for c in rules.option_cards):
        raise ValueError("house rule option_cards must be a list of option card names")
    unknown_cards = [c for c in rules.option_cards if c not in OPTION_CARDS]
    if unknown_cards:
        raise ValueError(f"house rule option_cards: no option card {unknown_cards[0]!r} "
                         f"(cards: {', '.join(sorted(OPTION_CARDS))})")
    for name, allowed in (("dual_processor", ("move first", "turn first")),
                          ("radio_control", ("rest of turn", "next register")),
                          ("fire_control", ("newest", "sacrifice order")),
                          ("radio_beam", ("original", "revised"))):
        if getattr(rules, name) not in allowed:
            raise ValueError(f"house rule {name} must be {' or '.join(repr(a) for a in allowed)}, "
                             f"not {getattr(rules, name)!r}")


#: house rules of the option cards (issue 16), written out only when set
OPTION_RULES = frozenset({"option_shield", "dual_processor", "radio_control", "fire_control", "option_cards"})
#: house rules of board elements added later (issue 15), written out only when set
ELEMENT_RULES = frozenset({"radio_beam"})
#: house rules keeping the readings of rules version 2 (issue 33), written out only when set
LEGACY_RULES = frozenset({"deep_water_start_only", "repeat_at_once", "pushed_not_affected", "trapdoor_on_passing",
                          "weapon_or_nothing"})
#: house rules keeping the readings of rules version 3 (issue 44), written out only when set
LEGACY4_RULES = frozenset({"pusher_slides_hold", "trapdoor_pushed_across", "black_hole_whole_line",
                           "magnet_whole_line", "ghost_whole_course", "crater_straight", "radioactive_once"})
#: house rules a game's rules hold only when they differ from the default
WRITTEN_WHEN_SET = OPTION_RULES | ELEMENT_RULES | LEGACY_RULES | LEGACY4_RULES


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
    if (kind := type(value)) is str or kind is int or value is None or kind is bool or kind is float:  # (usual first)
        return value
    if isinstance(value, dict):
        return {str(k): _json_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_copy(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"board state holds JSON values only, not {type(value).__name__}")
