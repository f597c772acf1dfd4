"""Conveyor belts (1 square a phase), express belts (2) and golden hyper-speed belts (3).

A belt phase has three sub-steps: golden belts move a square; then golden and express belts; then
every belt. Within a sub-step all robots carried move at once (:func:`~referee.engine.conveying.convey`).
"""

from __future__ import annotations

from .. import shown
from ..board import Board, Element
from ..context import TurnContext
from ..conveying import convey
from ..geometry import ARROWS, Square
from ..kinds import Field, Kind
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("conveyed", "", "carried by a belt")  # (the table's "conveyed to" says it)

shown.step("board.belts", "belt")
shown.step("board.express_1", "belt")
shown.step("board.hyper_belts_1", "belt")


def lanes(board: Board, phase: int = 1) -> tuple[dict[Square, int], dict[Square, int]]:
    """(every belt square -> direction, squares moving in the express sub-step (express and golden
    belts) -> direction) in a register phase, built once per board (per phase with rotating belts)."""
    # boards without rotating belts: the same lanes in every phase
    cached: tuple[dict[Square, int], dict[Square, int]] | None = board.cache.get("belts")
    if cached is not None:
        return cached
    rotating = board.layer("rotating_belt")
    key = f"belts {phase}" if rotating else "belts"
    cached = board.cache.get(key)
    if cached is None:
        golden = hyper_lanes(board)
        express = {sq: els[0]["dir"] for sq, els in board.layer("express").items()}
        express.update({sq: els[0]["dir"] for sq, els in board.layer("fast_ramp").items()})  # express ramps
        express.update(golden)
        every = {sq: els[0]["dir"] for sq, els in board.layer("belt").items()}
        for sq, els in rotating.items():
            d = rotating_dir(els[0], phase)
            (express if els[0]["express"] else every)[sq] = d
        every.update(express)
        cached = board.cache[key] = (every, express)
    return cached


def rotating_dir(el: Element, phase: int) -> int:
    """The direction a rotating belt points in a register phase: ``dir`` in phase 1, a quarter turn on
    each phase after."""
    first: int = el["dir"]
    return (first + (phase - 1) * (1 if el["turn"] == "right" else 3)) % 4


def hyper_lanes(board: Board) -> dict[Square, int]:
    """Golden belt squares -> direction."""
    cached = board.cache.get("hyper_belts")
    if cached is None:
        cached = board.cache["hyper_belts"] = {sq: els[0]["dir"] for sq, els in board.layer("hyper").items()}
    return cached


def hyper_first(ctx: TurnContext, phase: int) -> None:
    every, _ = lanes(ctx.board, phase)
    golden = hyper_lanes(ctx.board)
    moves = [(r, golden[r.pos]) for r in ctx.robots if r.pos in golden]
    if moves:
        convey(ctx, moves, every, True, "conveyed")


def express_first(ctx: TurnContext, phase: int) -> None:
    every, express = lanes(ctx.board, phase)
    moves: list[tuple[Robot, int]] = []
    for r in ctx.robots:  # (a robot off the board, at None, is on no lane)
        d = express.get(r.pos)  # type: ignore[arg-type]
        if d is not None:
            moves.append((r, d))
    if moves:
        convey(ctx, moves, every, True, "conveyed")


def all_belts(ctx: TurnContext, phase: int) -> None:
    every, _ = lanes(ctx.board, phase)
    moves: list[tuple[Robot, int]] = []
    for r in ctx.robots:  # (a robot off the board, at None, is on no lane)
        d = every.get(r.pos)  # type: ignore[arg-type]
        if d is not None:
            moves.append((r, d))
    if moves:
        convey(ctx, moves, every, True, "conveyed")


BELT = Kind(
    name="belt",
    doc='a conveyor belt carrying a robot one square toward `dir` in every register phase',
    key='^>v< belt',
    fields=(Field("dir", "dir"),),
    summary="a conveyor belt carrying robots one square toward dir each register phase",
    group="floor",
    steps={"board.belts": all_belts},
    glyph=lambda e: f" {ARROWS[e['dir']]} ",
    rank=10,
)

EXPRESS = Kind(
    name="express",
    doc='an express belt: one square before the ordinary belts move, then one more together with them',
    key='^^ express',
    fields=(Field("dir", "dir"),),
    summary="an express belt: one square before the other belts move, one more with them",
    group="floor",
    steps={"board.express_1": express_first, "board.belts": all_belts},
    glyph=lambda e: f" {ARROWS[e['dir']] * 2}",
    rank=11,
)

HYPER = Kind(
    name="hyper",
    doc=('a golden hyper-speed belt carrying a robot three squares toward `dir` in every register phase: one '
         'before the other belts, one with the express belts, one with all belts'),
    key='^^^ golden belt',
    fields=(Field("dir", "dir"),),
    summary="a golden (hyper-speed) belt: three squares toward dir each register phase, in the three belt sub-steps",
    group="floor",
    steps={"board.hyper_belts_1": hyper_first, "board.express_1": express_first, "board.belts": all_belts},
    glyph=lambda e: ARROWS[e["dir"]] * 3,
    rank=17,
)

ROTATING_BELT = Kind(
    name="rotating_belt",
    doc=('a rotating conveyor belt: points toward `dir` in register phase 1 and a quarter turn further `turn` '
         '(left or right) in each phase after (phase 5 as phase 1), then carries robots as a belt (`express`: '
         'as an express belt); the robot on it is not turned when it turns'),
    key='@>r rotating belt',
    fields=(Field("dir", "dir"), Field("turn", "choice", choices=("left", "right")),
            Field("express", "bool", required=False, default=False)),
    summary="a belt that points a quarter turn further each register phase, then carries robots as a belt",
    group="floor",
    steps={"board.express_1": express_first, "board.belts": all_belts},
    glyph=lambda e: f"@{ARROWS[e['dir']]}{'r' if e['turn'] == 'right' else 'l'}",
    rank=16,
    legend=lambda e: (f"{'express ' if e['express'] else ''}rotating belt: {ARROWS[e['dir']]} in phase 1, "
                      f"turning {e['turn']}"),
)
