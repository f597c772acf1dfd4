"""The turn report's tables, built from a resolved turn, and written out as fixed-width text and as HTML.

A stage table has the eight lines of the turn report: players and colours, mode, card, outcome of the
card, board elements, robot lasers, HP, checkpoints (the last only when someone touched one). The end
of turn table has mode, archive, flags, options (when anyone has one), HP and robots left, reboots, and
fused registers (when anyone has one). Each cell is a list of items in the order they happened.

Python builds the tables and lays out the fixed-width grid; the jinja2 templates in ``templates/``
arrange the sections and say the words around them.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..engine import Board, Card, Event, Robot, TurnResult
from ..engine.geometry import square_name
from ..engine.resolve import label as step_label
from ..engine.state import ENERGIZED, FLYING, GASSED, TAMAGOTCHI, VIRTUALIZED
from ..engine.timing import BOARD, CHECKPOINTS, LASERS, MOVE, REVEAL, TIMING
from ..textsafe import strip_bidi
from .board_image import frame_keys
from .causes import Replay, obstruction, position, pushed
from .players import Player

#: which sequence of the timing table each event step label belongs to
SEQUENCE_OF: dict[str, str] = {step_label(s.id): s.sequence for s in TIMING}
SEQUENCE_OF["robots"] = MOVE

STAGE_ROWS: tuple[tuple[str, str], ...] = (
    ("mode", "mode"),
    ("card", "card"),
    ("moves", "moves"),
    ("board", "board"),
    ("lasers", "lasers"),
    ("hp", "HP"),
    ("checkpoints", "checkpoint"),
    ("position", "position"),
)
END_ROWS: tuple[tuple[str, str], ...] = (
    ("mode", "mode"),
    ("archive", "archive"),
    ("flags", "flags"),
    ("options", "options"),
    ("hp", "HP, robots"),
    ("reboot", "reboot"),
    ("fused", "fused"),
    ("position", "position"),
)
#: rows left out of a table when every cell is empty
OPTIONAL_ROWS = frozenset({"checkpoints", "options", "fused"})
EMPTY = "-"

CAUSES = {"pit": "pit", "edge": "off the edge", "crusher": "crusher", "laser": "laser", "fence": "fence",
          "ledge": "ledge"}
#: event kinds that name a register fused or freed (they go in the row of the event before them)
_REGISTER_KINDS = frozenset({"fused", "released"})


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

    @property
    def tables(self) -> list[Table]:
        return [b.table for b in self.blocks if b.table is not None]

    @property
    def images(self) -> list[str]:
        return [b.image for b in self.blocks if b.image is not None]

    def label_of(self, robot: str | None) -> str:
        for c in self.columns:
            if c.robot == robot:
                return c.label
        return robot or ""


# -- describing events --------------------------------------------------------------------------
def describe(ev: Event) -> list[str]:
    """What a table cell says for one event (a robot's laser fire gives two items: squares, then who)."""
    data = ev.data or {}
    args = ev.args or {}
    kind = ev.kind
    text = ev.text
    if kind == "fire":  # only hits: a shot that hit nobody is no news
        return [text, f"hits {data['hit']}"] if data.get("hit") else []
    if kind == "pushed":
        if data.get("priority") is not None:
            return [f"{text} at {data['priority']}"]
        if data.get("by") == "pusher":
            return [f"{text} (pusher)"]
        return [text]
    if kind == "destroyed":
        cause = data.get("cause")
        return [f"destroyed ({CAUSES.get(cause, cause)})" if cause else text]
    if kind == "damage":
        by = str(data.get("by") or "")
        if data.get("cause") == "laser":
            return [f"{text} (board laser)" if by.startswith("board laser") or not by else f"{text} (shot by {by})"]
        cause = data.get("cause")
        return [f"{text} ({CAUSES.get(cause, cause)})" if cause else text]
    if kind == "face" and ev.step in ("gears", "belts", "express", "golden belts"):
        return [f"{text} ({'gear' if ev.step == 'gears' else 'belt'})"]
    if kind == "flag":
        return [f"flag {args['number']} touched"]
    if kind == "wins":
        return ["WINS THE GAME"]
    return [text]


def _row_of(ev: Event, last: str | None) -> str:
    """The stage-table row an event of a register phase belongs in."""
    if ev.kind in _REGISTER_KINDS and last is not None:
        return last
    seq = SEQUENCE_OF.get(ev.step)
    if seq == REVEAL:
        return "card"
    if seq == MOVE:
        return "moves"
    if seq == CHECKPOINTS:
        return "mode" if ev.kind == "real" else "checkpoints"
    if seq == LASERS and ev.step == "lasers":
        data = ev.data or {}
        if ev.kind == "fire":
            return "lasers"
        by = str(data.get("by") or "")
        if ev.kind == "damage" and (by.startswith("board laser") or data.get("cause") != "laser"):
            return "board"
        return "hp"
    if seq in (BOARD, LASERS):
        return "board"
    return "board"


#: events that change a robot's state mid-phase: what its mode becomes
_MODE_EVENTS = {"virtualized": "virtual (virtualizer)", "flies": "flying", "lands": "landed", "energized": "energized"}
_MODE_EVENTS["gassed"] = "asleep (soporific gas)"
_MODE_EVENTS["vanishes"] = "gone (copy machine)"


def _mode(r: Robot, power: bool = True) -> str:
    if r.pos is None:
        return "out of the game" if r.lives <= 0 and not r.destroyed else "destroyed"
    mode = ("virtual (virtualizer)" if VIRTUALIZED in r.statuses else "virtual") if r.virtual else "real"
    mode = "tamagotchi" if TAMAGOTCHI in r.statuses else mode
    if FLYING in r.statuses:
        mode = f"{mode}, flying"
    if ENERGIZED in r.statuses:
        mode = f"{mode}, energized"
    if GASSED in r.statuses:
        mode = f"{mode}, asleep (soporific gas)"
    return f"{mode}, powered down" if r.powered_down and power else mode


def _by_robot(events: Sequence[Event], phase: int | str) -> tuple[dict[str, list[Event]], list[str]]:
    out: dict[str, list[Event]] = {}
    notes: list[str] = []
    for ev in events:
        if ev.phase != phase:
            continue
        if ev.robot is None:
            notes.append(ev.text)
        else:
            out.setdefault(ev.robot, []).append(ev)
    return out, notes


def _finish(key: str, title: str, columns: list[Column], spec: Sequence[tuple[str, str]],
            cells: dict[str, list[list[str]]], notes: list[str]) -> Table:
    rows = []
    for rkey, rlabel in spec:
        col_cells = cells[rkey]
        if rkey in OPTIONAL_ROWS and not any(col_cells):
            continue
        rows.append(Row(rkey, rlabel, [c if c else [EMPTY] for c in col_cells]))
    return Table(key, title, columns, rows, notes)


def stage_table(phase: int, columns: list[Column], before: Sequence[Robot], after: Sequence[Robot],
                events: Sequence[Event], played: Mapping[str, Sequence[Card | None]],
                fused_at_start: Mapping[str, Mapping[int, Card]],
                start_events: Mapping[str, list[Event]] | None = None, board: Board | None = None) -> Table:
    """The table of one register phase (stage). With the ``board``, an obstruction says by what."""
    by_robot, notes = _by_robot(events, phase)
    labels = {c.robot: c.label for c in columns}

    def label(name: str) -> str:
        return labels.get(name, name)

    said = _causes(phase, before, events, played, board, label)
    b4 = {r.name: r for r in before}
    aft = {r.name: r for r in after}
    cells: dict[str, list[list[str]]] = {k: [] for k, _ in STAGE_ROWS}
    for col in columns:
        name = col.robot
        r0, r1 = b4.get(name), aft.get(name)
        evs = by_robot.get(name, [])
        cell: dict[str, list[str]] = {k: [] for k, _ in STAGE_ROWS}
        mode = _mode(r0) if r0 else EMPTY
        if start_events:
            cell["mode"].extend(i for ev in start_events.get(name, []) if ev.kind != "powered down"
                                for i in describe(ev))
        destroyed_here = False
        last: str | None = None
        for ev in evs:
            row = _row_of(ev, last)
            if ev.kind == "real":
                mode = f"{mode} -> real"
            elif ev.kind in _MODE_EVENTS:
                mode = f"{mode} -> {_MODE_EVENTS[ev.kind]}"
            elif ev.kind == "destroyed":
                destroyed_here = True
                cell[row].extend(describe(ev))
            elif id(ev) in said:
                cell[row].append(said[id(ev)])
            else:
                cell[row].extend(describe(ev))
            last = row
        if destroyed_here:
            mode = f"{mode} -> destroyed"
        cell["mode"].insert(0, mode)
        cards = played.get(name) or []
        card = cards[phase - 1] if len(cards) >= phase else None
        if card is not None:
            fused = phase in (fused_at_start.get(name) or {})
            cell["card"].insert(0, f"{card} (fused)" if fused else str(card))
        elif r0 is not None and r0.pos is not None:
            cell["card"].insert(0, "powered down" if r0.powered_down else "no card")
        if r1 is not None and r1.pos is not None:
            cell["hp"].append(f"{r1.hp} HP")
        elif destroyed_here and not any(i.startswith("destroyed") for i in cell["hp"]):
            cell["hp"].append("destroyed")
        cell["position"].append(position(r1))
        for k in cells:
            cells[k].append(cell[k])
    return _finish(f"stage{phase}", f"Stage {phase}", columns, STAGE_ROWS, cells, notes)


def _causes(phase: int, before: Sequence[Robot], events: Sequence[Event],
            played: Mapping[str, Sequence[Card | None]], board: Board | None,
            label: Callable[[str], str]) -> dict[int, str]:
    """The words for the phase's pushes (by whom, with which card) and obstructions (by what), by event id."""
    replay = Replay.start(before)
    out: dict[int, str] = {}
    for ev in events:
        if ev.phase != phase:
            continue
        if ev.kind == "blocked":
            out[id(ev)] = obstruction(board, ev, replay, label)
        elif ev.kind == "pushed":
            out[id(ev)] = pushed(ev, phase, played, label)
        replay.see(ev)
    return out


def end_table(columns: list[Column], before: Sequence[Robot], after: Sequence[Robot], events: Sequence[Event],
              flag_total: int) -> Table:
    """The end-of-turn table: what the robots take into the next turn."""
    by_robot, notes = _by_robot(events, "end")
    b4 = {r.name: r for r in before}
    aft = {r.name: r for r in after}
    cells: dict[str, list[list[str]]] = {k: [] for k, _ in END_ROWS}
    for col in columns:
        name = col.robot
        r0, r1 = b4.get(name), aft.get(name)
        cell: dict[str, list[str]] = {k: [] for k, _ in END_ROWS}
        if r1 is None:
            for k in cells:
                cells[k].append(cell[k])
            continue
        mode = _mode(r0) if r0 else EMPTY
        changed = False
        for ev in by_robot.get(name, []):
            kind = ev.kind
            if kind == "real":
                mode, changed = f"{mode} -> real", True
            elif kind == "re-enter":
                mode, changed = f"{mode} -> virtual", True
                facing = (ev.data or {}).get("facing")
                cell["archive"].append(f"re-enters facing {facing}" if facing else "re-enters")
            elif kind == "out":
                mode, changed = "out of the game", True
            elif kind == "powers down":
                cell["reboot"].append("reboots next turn")
            elif kind in _MODE_EVENTS:
                pass  # the mode line compares the states before and after
            elif kind in _REGISTER_KINDS:
                cell["fused"].append(ev.text)
            else:
                cell["hp"].extend(f"{i} (repair)" if kind == "repair" else i for i in describe(ev))
        # a power down taking effect is the reboot line's news, not a change of mode
        now = _mode(r1, power=not cell["reboot"])
        if not changed and r0 is not None and _mode(r0) != now:
            mode = f"{mode} -> {now}"
        cell["mode"].append(mode)
        if r1.archive is not None:
            cell["archive"].insert(0, square_name(r1.archive))
        cell["flags"].append(f"{r1.flags} of {flag_total}" if flag_total else EMPTY)
        if r1.options:
            cell["options"].append(", ".join(r1.options))
        if r1.pos is not None:
            cell["hp"].append(f"{r1.hp} HP")
        left = max(0, r1.lives)
        cell["hp"].append("no robots left" if left == 0 else f"{left} robot{'s' if left != 1 else ''} left")
        cell["fused"][:0] = [f"register {reg}: {card}" for reg, card in sorted(r1.locked.items())]
        cell["position"].append(position(r1))
        for k in cells:
            cells[k].append(cell[k])
    return _finish("end", "End of turn", columns, END_ROWS, cells, notes)


def columns_for(players: Sequence[Player], robots: Sequence[Robot]) -> list[Column]:
    """A column per player in seat order, then any robot the players did not name."""
    cols = [Column(p.robot, p.label, p.colour, p.hex) for p in players]
    named = {p.robot for p in players}
    cols += [Column(r.name, r.name, "grey", "#7f7f7f") for r in robots if r.name not in named]
    return cols


def build_report(board: Board, result: TurnResult, players: Sequence[Player], game: str, turn: int) -> TurnReport:
    """The whole turn report: pictures and tables in reading order (each table under the board it starts from)."""
    columns = columns_for(players, result.frames[0] if result.frames else result.robots)
    keys = dict(frame_keys(result.phases_run, result.end_of_turn))
    frames = result.frames
    start_events, start_notes = _by_robot(result.events, "start")
    fused_at_start = {r.name: dict(r.locked) for r in frames[0]}
    blocks: list[Block] = []
    for phase in range(1, result.phases_run + 1):
        key = "start" if phase == 1 else f"stage{phase - 1}"
        blocks.append(Block(image=key, caption=keys[key]))
        table = stage_table(phase, columns, frames[phase - 1], frames[phase], result.events, result.played,
                            fused_at_start, start_events if phase == 1 else None, board)
        if phase == 1:
            table.notes[:0] = start_notes
        blocks.append(Block(table=table))
    last = f"stage{result.phases_run}"
    if result.phases_run:
        blocks.append(Block(image=last, caption=keys[last]))
    if result.end_of_turn:
        blocks.append(Block(table=end_table(columns, frames[-2], frames[-1], result.events, board.flag_count)))
        blocks.append(Block(image="end", caption=keys["end"]))
    winner = None
    if result.winner:
        winner = next((c.label for c in columns if c.robot == result.winner), result.winner)
    return TurnReport(game=game, turn=turn, course=board.name, columns=columns, blocks=blocks, winner=winner)


# -- the player's private section -------------------------------------------------------------------
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


def build_private(player: Player, turn: int, hand: Sequence[Card], locked: Mapping[int, Card], order_template: str,
                  robot: Robot | None = None, flag_total: int = 0, deadline: str | None = None) -> PrivateSection:
    """A player's own section: status, next hand (numbered as mailed), fused registers, and the order template."""
    status: list[str] = []
    if robot is not None:
        if robot.pos is None:
            status.append("out of the game" if robot.lives <= 0 else "destroyed")
        else:
            where = square_name(robot.pos)
            status.append(f"{robot.hp} HP at {where} facing {'NESW'[robot.facing]}, "
                          f"{'virtual' if robot.virtual else 'real'}")
        status.append(f"{max(0, robot.lives)} robot{'s' if robot.lives != 1 else ''} left")
        if flag_total:
            status.append(f"flags touched: {robot.flags} of {flag_total}")
        if robot.archive is not None:
            status.append(f"archive: {square_name(robot.archive)}")
        if robot.powered_down:
            status.append("powered down this turn: no program needed")
        if robot.options:
            status.append("options: " + ", ".join(robot.options))
    return PrivateSection(
        robot=player.robot, label=player.label, turn=turn, hand=[str(c) for c in hand],
        locked=[(reg, str(card)) for reg, card in sorted(locked.items())],
        free=[reg for reg in range(1, 6) if reg not in locked], status=status,
        order_template=order_template, deadline=deadline)


# -- fixed-width text -----------------------------------------------------------------------------
WIDTH = 78
COLUMN = 14
#: width of the row labels (the longest, 'checkpoint', and a space)
LABEL = 11
GUTTER = 2


_GLUE = "\x1f"


def _wrap(items: Sequence[str], width: int) -> list[str]:
    """Each item on lines of at most ``width``; a short last word (``at 670``) is not left alone on a line."""
    out: list[str] = []
    for item in items:
        head, sep, last = item.rpartition(" ")
        if sep and len(last) <= 4 and " " in head:
            before, _, word = head.rpartition(" ")
            item = f"{before} {word}{_GLUE}{last}"
        lines = textwrap.wrap(item, width, break_long_words=True, break_on_hyphens=False) or [""]
        out.extend(line.replace(_GLUE, " ") for line in lines)
    return out


def _grid_lines(label: str, cells: list[list[str]], label_w: int, col_w: int) -> list[str]:
    """One table row: the label, then each cell's lines side by side."""
    out = []
    for i in range(max(len(c) for c in cells)):
        parts = [f"{label if i == 0 else '':<{label_w}}"]
        parts += [f"{(c[i] if i < len(c) else ''):<{col_w}}" for c in cells]
        out.append((" " * GUTTER).join(parts).rstrip())
    return out


def text_table(table: Table, width: int = WIDTH) -> str:
    """The table as fixed-width text; players beyond what fits in ``width`` go to a further block below."""
    label_w = LABEL
    ncols = max(1, len(table.columns))
    fit = max(1, (width - label_w) // (COLUMN + GUTTER))
    # as few blocks as fit, shared out evenly; few players get wider columns, which wrap less
    per_block = math.ceil(ncols / math.ceil(ncols / fit))
    col_w = max(COLUMN, min(24, (width - label_w) // per_block - GUTTER))
    blocks = []
    for start in range(0, ncols, per_block):
        idx = list(range(start, min(ncols, start + per_block)))
        lines: list[str] = []
        header = [_wrap([table.columns[i].label], col_w) + _wrap([f"({table.columns[i].colour})"], col_w)
                  for i in idx]
        lines += _grid_lines("", header, label_w, col_w)
        lines.append((" " * GUTTER).join(["-" * label_w] + ["-" * col_w for _ in idx]))
        for row in table.rows:
            lines += _grid_lines(row.label, [_wrap(row.cells[i], col_w) for i in idx], label_w, col_w)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# -- templates ------------------------------------------------------------------------------------
def template_dirs() -> list[Path]:
    """``$REFEREE_TEMPLATES`` (os.pathsep-separated) first, then the shipped templates."""
    dirs = [Path(p) for p in os.environ.get("REFEREE_TEMPLATES", "").split(os.pathsep) if p]
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "templates", here.parent / "templates"):
        if candidate.is_dir():
            dirs.append(candidate)
            break
    return dirs


@lru_cache(maxsize=8)
def _environment(dirs: tuple[Path, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
        autoescape=lambda name: bool(name and name.endswith(".html")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["text_table"] = text_table
    env.finalize = _no_bidi
    return env


def _no_bidi(value: Any) -> Any:
    """Every value a template writes, without bidi controls (a name cannot turn the page's text around)."""
    if isinstance(value, Markup):
        return Markup(strip_bidi(str(value)))
    return strip_bidi(value) if isinstance(value, str) else value


def environment() -> jinja2.Environment:
    return _environment(tuple(template_dirs()))


def render_template(name: str, **context: Any) -> str:
    return environment().get_template(name).render(**context)


def report_text(report: TurnReport, image_files: Mapping[str, str] | None = None, width: int = WIDTH) -> str:
    """The report as plain text; ``image_files`` names the attached picture of each image key."""
    return render_template("report.txt", report=report, image_files=dict(image_files or {}), width=width)


def report_html(report: TurnReport, image_urls: Mapping[str, str], gif_url: str | None = None) -> str:
    """The report as an HTML fragment; ``image_urls`` maps image keys to ``cid:`` (or any) URLs."""
    return render_template("report.html", report=report, image_urls=dict(image_urls), gif_url=gif_url)


def private_text(section: PrivateSection) -> str:
    return render_template("private.txt", private=section)


def private_html(section: PrivateSection) -> str:
    return render_template("private.html", private=section)
