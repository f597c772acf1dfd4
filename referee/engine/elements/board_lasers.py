"""Board lasers: mounted on a square, their beams cover it and run toward ``dir``; all hits of the step land
together (robots' own lasers and the beam tracer: :mod:`.lasers`).

A board laser's beam covers its mount square and runs toward ``dir`` until a wall, the board edge or the first
square holding a real robot. Virtual robots in the beam are hit but do not stop it. The beams a board has are
built once (``_covering``, ``_beams``, ``_cover_at``): a laser step looks only at the beams some robot stands in.
"""

from __future__ import annotations

from .. import reach
from ..board import Board
from ..context import TurnContext
from ..geometry import ARROWS, Square
from ..kinds import Field, Kind
from ..state import Robot
from .lasers import beam, occupancy


def _covering(board: Board) -> tuple[list[tuple[Square, int, int]], dict[Square, list[int]]]:
    """The board lasers as (mount, dir, count) in board order, and square -> the indices of those
    whose beam covers it on the empty floor."""
    cached = board.cache.get("laser_cover")
    if cached is None:
        lasers = [(sq, el["dir"], el["count"]) for sq, els in board.layer("laser").items() for el in els]
        cover: dict[Square, list[int]] = {}
        for i, (sq, d, _) in enumerate(lasers):
            for covered in board.ray(sq, d):
                cover.setdefault(covered, []).append(i)
        cached = board.cache["laser_cover"] = (lasers, cover)
    return cached


def _beams(board: Board) -> list[tuple[Square, int, int, str, tuple[Square, ...]]]:
    """The board lasers of :func:`_covering`, each with the source its hits name and its squares on the empty floor."""
    cached: list[tuple[Square, int, int, str, tuple[Square, ...]]] | None = board.cache.get("laser beams")
    if cached is None:
        cached = board.cache["laser beams"] = [(sq, d, count, f"board laser r{sq[0]}c{sq[1]}", board.ray(sq, d))
                                               for sq, d, count in _covering(board)[0]]
    return cached


def _cover_at(board: Board) -> dict[Square, list[tuple[int, int]]]:
    """Square -> (index of a board laser of :func:`_covering`, how far along its beam the square is) for every
    beam covering it on the empty floor."""
    found: dict[Square, list[tuple[int, int]]] | None = board.cache.get("laser cover at")
    if found is None:
        found = {}
        for i, (sq, d, _) in enumerate(_covering(board)[0]):
            for along, covered in enumerate(board.ray(sq, d)):
                found.setdefault(covered, []).append((i, along))
        board.cache["laser cover at"] = found
    return found


def _along(entry: tuple[int, Robot]) -> int:
    return entry[0]


def board_lasers(ctx: TurnContext, phase: int) -> None:
    board = ctx.board
    if board.phase_walls:
        _board_lasers(ctx, phase)
        return
    cover = _cover_at(board)
    # only the beams a robot stands in fire at anyone: beam -> (how far along it, robot) in the robots' order
    standing: dict[int, list[tuple[int, Robot]]] | None = None
    for r in ctx.robots:
        if r.pos is not None:
            got = cover.get(r.pos)
            if got:
                if standing is None:
                    standing = {}
                for i, along in got:
                    found = standing.get(i)
                    if found is None:
                        standing[i] = [(along, r)]
                    else:
                        found.append((along, r))
    if standing is None:
        return
    beams = _beams(board)
    hits, step = ctx.pending_hits, ctx.step
    for i in sorted(standing):
        _, d, count, source, _ = beams[i]
        entries = standing[i]
        if len(entries) > 1:
            entries.sort(key=_along)  # (stable: robots on one square stay in the robots' order)
        # every robot up to and with the first square where a real one stands (what ``beam`` finds)
        stop = -1
        for along, robot in entries:
            if stop >= 0 and along > stop:
                break
            hits.append((robot, count, "laser", source, d, step))  # ``ctx.hit_later(robot, count, source, d)``
            if stop < 0 and not robot.virtual:
                stop = along


def _board_lasers(ctx: TurnContext, phase: int) -> None:
    """:func:`board_lasers` on a board with doors (sides shut in some phases only)."""
    board = ctx.board
    cover = _covering(board)[1]
    found: set[int] = set()
    for r in ctx.robots:
        if r.pos is not None:
            got = cover.get(r.pos)
            if got:
                found.update(got)
    if not found:
        return
    occupied = occupancy(ctx)
    for i in sorted(found):
        sq, d, count, source, _ = _beams(board)[i]
        for robot in beam(ctx, sq, d, True, occupied)[1]:
            ctx.hit_later(robot, count, source, d)


# how far it reaches (ruling 10)
reach.declare("laser", reach.Reach(reach.LINE_OF_SIGHT, "10",
                                   what="its beam runs along its line to a wall, the edge or the first real robot, "
                                        "across the boards of a course"))


LASER = Kind(
    flat=False,
    name="laser",
    doc=('a board laser mounted on the square; its beam covers the square itself and runs toward `dir` until a'
         ' wall, the edge or the first real robot, doing `count` damage'),
    key='L>1 laser, - : beam',
    fields=(Field("dir", "dir"), Field("count", "int", required=False, default=1, lo=1, hi=3)),
    summary="a board laser mounted on the square, firing count beams toward dir",
    steps={"lasers.fire": board_lasers},
    glyph=lambda e: "L" + ARROWS[e["dir"]] + str(e["count"]),
    rank=30,
    legend=lambda e: f"laser {ARROWS[e['dir']]} x{e['count']}",
)
