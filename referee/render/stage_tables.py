"""The tables of a turn, filled from its events: one per register phase (stage) and one for the end of the
turn. Each cell is a list of items in the order they happened; :func:`describe` says what an event reads
as in a cell, and which row it goes in follows the timing table (``SEQUENCE_OF``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from ..engine import Board, Card, Event, Robot, shown
from ..engine.decisions import DECISION
from ..engine.geometry import square_name
from ..engine.resolve import label as step_label
from ..engine.timing import BOARD, CHECKPOINTS, LASERS, MOVE, REVEAL, TIMING
from ..orders.choice_words import choice_items
from .causes import Replay, actor_words, hit_words, obstruction, position, pushed, site, told
from .report_types import Column, Row, Table

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

#: step label -> what a table adds to a robot turned in that step (``face E (gear)``), as the steps' modules declare
TURNED_BY: dict[str, str] = {step_label(sid): words for sid, words in shown.STEPS.items()}
#: event kinds that name a register fused or freed (they go in the row of the event before them)
_REGISTER_KINDS = frozenset({"fused", "released"})


# -- describing events --------------------------------------------------------------------------
def cause_words(cause: str) -> str:
    """A cause as a table says it, as its module declares it (a cause no module declares any more, in a turn
    stored long ago: its own name)."""
    found = shown.CAUSES.get(cause)
    return found.table if found is not None else cause


def describe(ev: Event, robots: Collection[str] = ()) -> list[str]:
    """What a table cell says for one event (a robot's laser fire gives two items: squares, then who); ``robots``:
    the robots' names (a hit by one of them is worded as its cause declares)."""
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
        return [f"destroyed ({cause_words(cause)})" if cause else text]
    if kind == "damage":
        by = str(data.get("by") or "")
        if data.get("cause") == "laser":
            return [f"{text} (board laser)" if by.startswith("board laser") or not by else f"{text} (shot by {by})"]
        cause = data.get("cause")
        if cause and by:  # who or what dealt it, as the cause's module words it: "-1 HP (turret at r6c6)"
            return [f"{text} ({hit_words(str(cause), by, robots, str)})"]
        return [f"{text} ({cause_words(cause)})" if cause else text]
    if kind == "face" and ev.step in TURNED_BY:
        return [f"{text} ({TURNED_BY[ev.step]})"]
    if kind == "flag":
        return [f"flag {args['number']} touched"]
    if kind == "wins":
        return ["WINS THE GAME"]
    if kind == DECISION:
        return choice_items(ev)
    return [text]


def _row_of(ev: Event, last: str | None) -> str:
    """The stage-table row an event of a register phase belongs in."""
    if ev.kind == DECISION:  # a player's choice goes with the card it was made for
        return "card"
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


#: events that change a robot's state mid-phase: what its mode becomes (as the statuses' modules declare it)
_MODE_EVENTS = shown.changes()


def _mode(r: Robot, power: bool = True) -> str:
    if r.pos is None:
        return "out of the game" if r.lives <= 0 and not r.destroyed else "destroyed"
    mode = shown.mode_words(r.statuses, "virtual" if r.virtual else "real")
    return f"{mode}, powered down" if r.powered_down and power else mode


def note(ev: Event, label: Callable[[str], str] = str) -> str:
    """An event of no robot's column, as the table's notes say it: what a robot's ghost did is the ghost's
    (``Zoom's ghost to r5c3``, as its module declares it), the rest in the log's words."""
    words = actor_words(ev, label)
    if words is None:
        return ev.text
    key = shown.ACTORS[ev.kind].key
    return words + ev.text[len(key):] if ev.text.startswith(key) else f"{words}: {ev.text}"


def events_by_robot(events: Sequence[Event], phase: int | str,
                    label: Callable[[str], str] = str) -> tuple[dict[str, list[Event]], list[str]]:
    """The events of a phase by robot, and the notes: events of no robot, and what robots' ghosts did (logged
    under the robot before rules version 5; never in its column)."""
    out: dict[str, list[Event]] = {}
    notes: list[str] = []
    for ev in events:
        if ev.phase != phase:
            continue
        if ev.robot is None or ev.kind in shown.ACTORS:
            notes.append(note(ev, label))
        else:
            out.setdefault(ev.robot, []).append(ev)
    return out, notes


def _named(robots: Sequence[Robot]) -> dict[str, Robot]:
    return {r.name: r for r in robots}


def _blank(spec: Sequence[tuple[str, str]]) -> dict[str, list[Any]]:
    """An empty list for each row of a table."""
    return {key: [] for key, _ in spec}


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
    """The table of one register phase (stage). With the ``board``, an obstruction says by what and a slide
    what slid the robot."""
    labels = {c.robot: c.label for c in columns}

    def label(name: str) -> str:
        return labels.get(name, name)

    by_robot, notes = events_by_robot(events, phase, label)

    said = _causes(phase, before, events, played, board, label)
    b4, aft = _named(before), _named(after)
    cells: dict[str, list[list[str]]] = _blank(STAGE_ROWS)
    for col in columns:
        name = col.robot
        r0, r1 = b4.get(name), aft.get(name)
        evs = by_robot.get(name, [])
        cell: dict[str, list[str]] = _blank(STAGE_ROWS)
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
                cell[row].extend(describe(ev, labels))
            elif id(ev) in said:
                cell[row].append(said[id(ev)])
            else:
                cell[row].extend(describe(ev, labels))
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
    """The words for the phase's pushes (by whom, with which card), obstructions (by what) and moves by the board
    (what moved the robot: ``pulled to r4c5 (magnet)``, as the mover's module declares it), by event id."""
    replay = Replay.start(before)
    robots = set(replay.pos)
    out: dict[int, str] = {}
    for ev in events:
        if ev.phase != phase:
            continue
        if ev.kind == "blocked":
            out[id(ev)] = obstruction(board, ev, replay, label)
        elif ev.kind != "move" and ev.robot is not None and ev.kind in shown.TOLD:
            done = told(ev, board, replay.pos.get(ev.robot))
            by = (ev.data or {}).get("by")
            if ev.kind == "pushed" and by in robots and (done is None or not done.specific):  # by a robot's card
                out[id(ev)] = pushed(ev, phase, played, label)
            elif done is not None and done.moves and done.what:  # ("" when the event's words say it)
                what = site(done, board, replay.pos.get(ev.robot))
                out[id(ev)] = f"{ev.text} ({what})" if not done.specific or by not in robots else (
                    f"{ev.text} ({label(str(by))}'s {what})")
        replay.see(ev)
    return out


def _repaired(ev: Event, board: Board | None, robot: Robot | None) -> str:
    """Where a repair at the end of the turn came from, as the module that repairs declares it (``flag 2``)."""
    at = robot.pos if robot is not None else None
    done = told(ev, board, at)
    return site(done, board, at) if done is not None and done.what else "repair"


def end_table(columns: list[Column], before: Sequence[Robot], after: Sequence[Robot], events: Sequence[Event],
              flag_total: int, board: Board | None = None) -> Table:
    """The end-of-turn table: what the robots take into the next turn; a repair names its site (``+1 HP (repair
    site r4c4)``) when the ``board`` is given."""
    by_robot, notes = events_by_robot(events, "end")
    names = [c.robot for c in columns]
    b4, aft = _named(before), _named(after)
    cells: dict[str, list[list[str]]] = _blank(END_ROWS)
    for col in columns:
        name = col.robot
        r0, r1 = b4.get(name), aft.get(name)
        cell: dict[str, list[str]] = _blank(END_ROWS)
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
                cell["hp"].extend(f"{i} ({_repaired(ev, board, r0)})" if kind == "repair" else i
                                  for i in describe(ev, names))
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
