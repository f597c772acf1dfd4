"""Conveyor belts (1 square a phase), express belts (2) and golden hyper-speed belts (3).

A belt phase has three sub-steps: golden belts move a square; then golden and express belts; then
every belt. Within a sub-step all robots carried move at once (:func:`~referee.engine.movement.convey`).
"""

from __future__ import annotations

from ..board import Board
from ..context import TurnContext
from ..geometry import ARROWS, Square
from ..kinds import Field, Kind
from ..movement import convey


def lanes(board: Board) -> tuple[dict[Square, int], dict[Square, int]]:
    """(every belt square -> direction, squares moving in the express sub-step (express and golden
    belts) -> direction), built once per board."""
    cached = board.cache.get("belts")
    if cached is None:
        golden = hyper_lanes(board)
        express = {sq: els[0]["dir"] for sq, els in board.layer("express").items()}
        express.update(golden)
        every = {sq: els[0]["dir"] for sq, els in board.layer("belt").items()}
        every.update(express)
        cached = board.cache["belts"] = (every, express)
    return cached


def hyper_lanes(board: Board) -> dict[Square, int]:
    """Golden belt squares -> direction."""
    cached = board.cache.get("hyper_belts")
    if cached is None:
        cached = board.cache["hyper_belts"] = {sq: els[0]["dir"] for sq, els in board.layer("hyper").items()}
    return cached


def hyper_first(ctx: TurnContext, phase: int) -> None:
    every, _ = lanes(ctx.board)
    golden = hyper_lanes(ctx.board)
    moves = [(r, golden[r.pos]) for r in ctx.robots if r.pos in golden]
    if moves:
        convey(ctx, moves, every, True, "conveyed")


def express_first(ctx: TurnContext, phase: int) -> None:
    every, express = lanes(ctx.board)
    moves = [(r, express[r.pos]) for r in ctx.robots if r.pos in express]
    if moves:
        convey(ctx, moves, every, True, "conveyed")


def all_belts(ctx: TurnContext, phase: int) -> None:
    every, _ = lanes(ctx.board)
    moves = [(r, every[r.pos]) for r in ctx.robots if r.pos in every]
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
