"""Flags, repair sites and start squares.

At the end of each register phase a robot on a flag or repair site has touched it: its archive
moves there, and a flag numbered one more than its count is counted. At the end of the turn a
robot on a flag or one-wrench site repairs 1 damage, on a two-wrench site 2. Powered-down robots
touch nothing and are not repaired (they were fully repaired when the turn began).
"""

from __future__ import annotations

from ..board import Board, Element
from ..context import TurnContext
from ..decisions import TWO_WRENCHES, DecisionKey
from ..geometry import NotationError, square_name
from ..kinds import Field, Kind


def touch(ctx: TurnContext, phase: int) -> None:
    board = ctx.board
    for robot in ctx.robots:
        if robot.pos is None or robot.powered_down:
            continue
        flag = board.one("flag", robot.pos)
        repair = board.one("repair", robot.pos)
        if flag is None and repair is None:
            continue
        if robot.archive != robot.pos:
            robot.archive = robot.pos
            ctx.emit(robot, "archive", {"at": square_name(robot.pos)})
        if flag is not None and flag["number"] == robot.flags + 1:
            robot.flags += 1
            ctx.emit(robot, "flag", {"number": flag["number"]})


def repair(ctx: TurnContext) -> None:
    board = ctx.board
    for robot in ctx.robots:
        if robot.pos is None or robot.powered_down or robot.damage == 0:
            continue
        wrenches = 0
        if board.one("flag", robot.pos) is not None:
            wrenches = 1
        site = board.one("repair", robot.pos)
        if site is not None:
            wrenches = max(wrenches, site["wrenches"])
        if wrenches == 2:
            ctx.decide(robot, DecisionKey(TWO_WRENCHES), "repair", _no_option_deck)
        if wrenches:
            ctx.repair(robot, wrenches)


def _no_option_deck(answer: str) -> str | None:
    return "no option deck exists yet: the robot is repaired" if answer == "option" else None


def _install_flag(board: Board, el: Element) -> None:
    if el.at in board.flags.values():
        raise NotationError(f"{square_name(el.at)} already has a flag")
    if el["number"] in board.flags:
        raise NotationError(f"flag {el['number']} is already at {square_name(board.flags[el['number']])}")
    board.flags[el["number"]] = el.at


def _install_start(board: Board, el: Element) -> None:
    if el.at in board.starts.values():
        raise NotationError(f"{square_name(el.at)} already has a start square")
    if el["number"] in board.starts:
        raise NotationError(f"start {el['number']} is already at {square_name(board.starts[el['number']])}")
    board.starts[el["number"]] = el.at


FLAG = Kind(
    name="flag",
    doc='a checkpoint flag; flags are touched in number order',
    key='F1 flag',
    fields=(Field("number", "int", lo=1, hi=99),),
    summary="a checkpoint flag; flags must be touched in number order",
    install=_install_flag,
    steps={"checkpoints.touch": touch, "end.repairs": repair},
    glyph=lambda e: f"F{e['number']}",
    rank=100,
)

REPAIR = Kind(
    name="repair",
    doc='a repair site: updates the archive when touched, repairs at the end of the turn',
    key='W/WW repair',
    fields=(Field("wrenches", "int", required=False, default=1, lo=1, hi=2),),
    summary="a repair site with 1 or 2 wrenches; also a checkpoint for the archive",
    group="floor",
    install=None,
    steps={"checkpoints.touch": touch, "end.repairs": repair},
    glyph=lambda e: "W" * e["wrenches"],
    rank=95,
)

START = Kind(
    name="start",
    doc='a numbered start square',
    key='S1 start',
    fields=(Field("number", "int", lo=1, hi=99),),
    summary="a numbered start square",
    install=_install_start,
    glyph=lambda e: f"S{e['number']}",
    rank=5,
)
