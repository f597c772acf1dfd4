"""What a turn report is made of: columns (one per robot), rows of cells, tables, the blocks of the report
in reading order, and a player's private section. Built by :mod:`.tables`, written out by the templates
(:mod:`.templates`) and the fixed-width grid (:mod:`.textgrid`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Column:
    robot: str
    label: str
    colour: str
    hex: str


@dataclass(slots=True)
class Row:
    key: str
    label: str
    #: one list of items per column
    cells: list[list[str]]


@dataclass(slots=True)
class Table:
    key: str
    title: str
    columns: list[Column]
    rows: list[Row]
    #: events that belong to no robot
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Block:
    """One piece of the report, in reading order: a picture (``image`` is its key) or a table."""

    image: str | None = None
    caption: str = ""
    table: Table | None = None


@dataclass(slots=True)
class ProgramLine:
    robot: str
    label: str
    hex: str
    #: five cells, one per register: ``FWD2 670``, ``FWD1 510*`` (fused) or ``-``
    cards: list[str]
    #: power down and option orders, in the order they happened
    orders: list[str] = field(default_factory=list)


@dataclass(slots=True)
class TurnReport:
    game: str
    turn: int
    course: str
    columns: list[Column]
    blocks: list[Block]
    winner: str | None = None
    #: who sent no orders and what was played for them (issue 18: told in the results, not apart)
    late: str | None = None
    #: the turn's page in the public archive
    archive_url: str | None = None
    #: every robot's program of the turn (:mod:`.programs`), a line per robot
    programs: list[ProgramLine] = field(default_factory=list)

    @property
    def tables(self) -> list[Table]:
        return [b.table for b in self.blocks if b.table is not None]

    @property
    def images(self) -> list[str]:
        return [b.image for b in self.blocks if b.image is not None]

    def label_of(self, robot: str | None) -> str:
        """A robot's column label (its name and colour), as the stories name robots."""
        for c in self.columns:
            if c.robot == robot:
                return c.label
        return robot or ""


@dataclass(slots=True)
class PrivateSection:
    robot: str
    label: str
    #: the turn the hand is for
    turn: int
    hand: list[str]
    #: (register, card) for every fused register
    locked: list[tuple[int, str]]
    #: registers the player fills from the hand
    free: list[int]
    status: list[str]
    order_template: str
    deadline: str | None = None
    #: the game is over: no more cards, ever
    game_over: bool = False
    #: what happened to the player's robot in the turn just reported, two to four lines (top of the mail)
    story: list[str] = field(default_factory=list)
    #: what is new since the player's last mail (the GM's changes announced while the turn was open)
    news: list[str] = field(default_factory=list)
    #: option cards the robot got since the last mail: (card, what it does, the order lines it takes)
    new_options: list[tuple[str, str, list[str]]] = field(default_factory=list)
