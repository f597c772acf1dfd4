"""Conveyor belts (1 square a phase) and express belts (2): express move first, then all belts."""

from __future__ import annotations

from ..board import Board
from ..context import TurnContext
from ..geometry import ARROWS, Square
from ..kinds import Field, Kind
from ..movement import convey


def lanes(board: Board) -> tuple[dict[Square, int], dict[Square, int]]:
    """(every belt square -> direction, express squares -> direction), built once per board."""
    cached = board.cache.get("belts")
    if cached is None:
        express = {sq: els[0]["dir"] for sq, els in board.layer("express").items()}
        every = {sq: els[0]["dir"] for sq, els in board.layer("belt").items()}
        every.update(express)
        cached = board.cache["belts"] = (every, express)
    return cached


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
