"""Flags, repair sites and start squares.

At the end of each register phase a robot on a flag or repair site has touched it: its archive
moves there, and a flag numbered one more than its count is counted. At the end of the turn a
robot on a flag or one-wrench site repairs 1 damage, on a two-wrench site 2, or draws an option card
instead when its player's two-wrench choice says so. Powered-down robots touch nothing and are not
repaired (they were fully repaired when the turn began).
"""

from __future__ import annotations

from .. import shown
from ..board import Board, Element
from ..context import TurnContext
from ..decisions import TWO_WRENCHES, DecisionKey
from ..geometry import NotationError, Square, square_name
from ..kinds import Field, Kind
from ..state import Robot

# where a repair came from, as the report and the story tell it (engine/shown.py)
shown.told("repair", "repair site {at}", "at a repair site", on="repair")
shown.told("repair", "flag {number}", "on a flag", on="flag")
shown.said("flag", "touched flag {number}", register=True)
shown.untold("archive", "the Now line says where a destroyed robot re-enters; the stage tables show the archive")


def touch(ctx: TurnContext, phase: int) -> None:
    sites = site_squares(ctx.board)
    for robot in ctx.robots:
        sq = robot.pos
        if sq in sites and not robot.powered_down:  # ``touch_site``, written out from the board's table
            assert sq is not None
            if robot.archive != sq:
                robot.archive = sq
                ctx.emit(robot, "archive", {"at": square_name(sq)})
            number = sites[sq]
            if number is not None and number == robot.flags + 1:
                robot.flags += 1
                ctx.emit(robot, "flag", {"number": number})


def site_squares(board: Board) -> dict[Square, int | None]:
    """Square -> the number of its flag (None for a repair site) for every square a robot may touch, built once
    per board (what :func:`touch_site` looks up)."""
    found: dict[Square, int | None] | None = board.cache.get("checkpoint sites")
    if found is None:
        found = {sq: None for sq in board.layer("repair")}
        for sq, els in board.layer("flag").items():
            found[sq] = els[0]["number"]
        board.cache["checkpoint sites"] = found
    return found


def touch_site(ctx: TurnContext, robot: Robot, sq: Square) -> bool:
    """``robot`` touches the flag or repair site at ``sq`` (its own square, or one a mechanical arm
    reaches): the archive moves there and the next flag counts. False when nothing is there."""
    board = ctx.board
    flag = board.one("flag", sq)
    if flag is None and board.one("repair", sq) is None:
        return False
    if robot.archive != sq:
        robot.archive = sq
        ctx.emit(robot, "archive", {"at": square_name(sq)})
    if flag is not None and flag["number"] == robot.flags + 1:
        robot.flags += 1
        ctx.emit(robot, "flag", {"number": flag["number"]})
    return True


def wrenches_at(board: Board, sq: Square) -> int:
    """What a site repairs at the end of the turn: 1 for a flag or a one-wrench site, 2 for two wrenches."""
    wrenches = 1 if board.one("flag", sq) is not None else 0
    site = board.one("repair", sq)
    if site is not None:
        wrenches = max(wrenches, site["wrenches"])
    return wrenches


def repair(ctx: TurnContext) -> None:
    sites = site_squares(ctx.board)
    # only robots on a flag or repair site repair (or draw): the others have no turn in the order
    on_sites = [r for r in ctx.robots if r.pos in sites and not r.powered_down]
    if not on_sites:
        return
    for robot in ctx.drawing_order(on_sites):  # two-wrench sites may hand out options
        assert robot.pos is not None
        repair_at(ctx, robot, wrenches_at(ctx.board, robot.pos))


def repair_at(ctx: TurnContext, robot: Robot, wrenches: int) -> None:
    """End-of-turn repairs; on two wrenches the player may draw an option instead (the standing
    two-wrench choice); with the option deck empty the robot is repaired."""
    if wrenches == 2:
        choice = ctx.decide(robot, DecisionKey(TWO_WRENCHES), "repair")
        if choice == "option" and ctx.draw_option(robot, "two wrenches") is not None:
            return
    if wrenches and robot.damage:
        ctx.repair(robot, wrenches)


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
    rank=6,
)
