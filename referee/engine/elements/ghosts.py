"""Ghosts: they rise from graves, drift by their parent robot's spare cards and hurt robots they touch.

A ghost is not a robot: it lives in the board state (table ``ghost``: parent robot -> ``{"at", "facing",
"cards"}``). As the first cards of a turn are revealed, every robot that has just entered the board (game
start or re-entry: ``Robot.first_turn``) raises a ghost on the grave nearest to it, replacing the one it had
(between graves equally near: the nearer as the crow flies, then the first clockwise from the robot's facing,
never listing order or the board's orientation; rules version 3: row, then column); a ghost whose parent is
off the board fades. Each ghost is then dealt its parent's discards: as many cards as a robot with the
parent's damage discards, at most three (4 - damage),
drawn at random from the cards nobody holds (unless the board state already gives it its cards for the
turn; they are forgotten at the end of the turn); it plays them in registers 1-3, among the robots' cards in
priority order, and stands still in 4 and 5. A ghost hovers (belts, gears, pits... ignore it), passes
through robots without pushing them, is never pushed or shot, and is stopped by walls and closed doors;
driven off its board (of a course: rules version 4, house rule ``ghost_whole_course`` keeps version 3's
whole course) it is gone. A robot it moves through or onto, or that moves through or onto it, takes
1 damage; when lasers fire, robots in its square and the first robot in its line of sight take 1 more.

What a ghost does is logged as the ghost's (rules version 5): its events (``ghost rises``, ``ghost moves``,
``ghost turns``, ``ghost gone``) name no robot and carry ``ghost``: the parent's name, and a hit it deals is
``by`` ``"<parent>'s ghost <square>"``, the square the ghost stands on. Turns played under version 4 and before
logged them under the parent robot, and the hits by nobody (``Rules.ghost_events``); the report reads those as
the ghost's too (``shown.actor``).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from .. import reach, shown, timing
from ..board import Board, Element
from ..cards import BY_PRIORITY, Card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import DC, DR, Square, dir_name, opposite, parse_square, square_name
from ..movement import add_mover
from ..state import Robot
from ..timing import ENTER

shown.cause("ghost", story="destroyed by a ghost")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.ghosts", timing.ENTER, "robots moving through a ghost or onto it take 1 HP",
               after="move.dual_processor")


GHOST = "ghost"
#: what a ghost does, logged as the ghost's (data ``ghost``: its parent; before rules version 5 under the parent)
register_wording("ghost rises", "ghost rises at {at}")
register_wording("ghost moves", "ghost to {to}")
register_wording("ghost turns", "ghost faces {dir}")
register_wording("ghost gone", "ghost gone")
# the report and the story tell them as "Zoom's ghost to r5c3", never as Zoom's own moves
shown.actor(GHOST, "{owner}'s ghost", kinds=("ghost rises", "ghost moves", "ghost turns", "ghost gone"))


# "when a ghost passes the thick walls and leaves the dark area of the board, it is removed" (ruling 13.28):
# a ghost drifts on its own board of a course (rules version 3, house rule ``ghost_whole_course``: anywhere)
reach.declare("grave", reach.Reach(reach.OWN_BOARD, "13.28", wider="ghost_whole_course",
                                   what="its ghost drifts and hurts robots on the grave's board"))


def ghosts(ctx: TurnContext) -> dict[str, dict[str, Any]]:
    """The ghosts on the board: parent name -> its entry (read-write, part of the board state)."""
    return ctx.board_state.values.setdefault(GHOST, {})


def nearest_grave(board: Board, sq: Square, facing: int | None = None) -> Square:
    """The grave closest to ``sq`` (fewest squares across). Between graves equally near, the nearer as the crow
    flies, then the first met turning clockwise from the robot's ``facing`` (rules version 4: never the board's
    listing order or orientation; ``facing`` None, version 3: row then column)."""
    graves = sorted(board.layer("grave"))
    if facing is None:
        return min(graves, key=lambda g: abs(g[0] - sq[0]) + abs(g[1] - sq[1]))

    def key(g: Square) -> tuple[int, int, float]:
        dr, dc = g[0] - sq[0], g[1] - sq[1]
        for _ in range(facing):  # into the robot's frame: its facing becomes north
            dr, dc = dc, -dr
        return abs(dr) + abs(dc), dr * dr + dc * dc, math.atan2(dc, dr) % math.tau
    return min(graves, key=key)


def discards(robot: Robot) -> int:
    """How many spare cards a robot with this damage hands its ghost (9 - damage dealt, 5 programmed)."""
    if robot.powered_down:
        return 0
    return max(0, min(3, 4 - robot.damage))


def rise(ctx: TurnContext, phase: int) -> None:
    """As cards are revealed: in phase 1 ghosts rise, fade and are dealt; each phase, a ghost with a card
    for it moves among the robots' cards."""
    table = ghosts(ctx)
    if phase == 1:
        for robot in ctx.robots:
            if robot.pos is None:
                if table.pop(robot.name, None) is not None:
                    _log(ctx, robot, "ghost gone")
            elif robot.first_turn:
                at = nearest_grave(ctx.board, robot.pos, robot.facing if ctx.rules.seat_free else None)
                table[robot.name] = {"at": square_name(at), "facing": dir_name(robot.facing)}
                _log(ctx, robot, "ghost rises", {"at": square_name(at)})
        for name in sorted(table):
            if "cards" in table[name]:
                continue  # dealt already (a scenario may give the ghost its cards)
            parent = ctx.by_name.get(name)
            count = discards(parent) if parent is not None else 0
            cards = ctx.rng.sample(sorted(ctx.undealt), min(count, len(ctx.undealt))) if count else []
            for card in cards:
                ctx.undealt.remove(card)
            table[name]["cards"] = [str(c) for c in cards]
    for name in sorted(table):
        cards = table[name].get("cards", [])
        if len(cards) >= phase:
            card = BY_PRIORITY[int(cards[phase - 1].split()[1])]
            add_mover(ctx, card.priority, partial(drift, name=name, card=card))


def _log(ctx: TurnContext, parent: Robot, kind: str, args: dict[str, Any] | None = None, **data: Any) -> None:
    """Log what the ghost of ``parent`` does as the ghost's (rules version 4 and before: under its parent)."""
    if ctx.rules.ghost_events:
        ctx.emit(None, kind, args, ghost=parent.name, **data)
    else:
        ctx.emit(parent, kind, args, **data)


def _source(ctx: TurnContext, name: str, at: str) -> str | None:
    """Who a ghost's hit is by: ``Zoom's ghost r5c3`` (rules version 4 and before: the log named nobody)."""
    return f"{name}'s ghost {at}" if ctx.rules.ghost_events else None


def forget(ctx: TurnContext) -> None:
    """At the end of the turn the ghosts' cards go back: the next turn deals them afresh."""
    for entry in ghosts(ctx).values():
        entry.pop("cards", None)


def drift(ctx: TurnContext, name: str, card: Card) -> None:
    """The ghost of ``name`` plays ``card``: it turns, or moves square by square until a wall stops it."""
    entry = ghosts(ctx).get(name)
    parent = ctx.by_name.get(name)
    if entry is None or parent is None:
        return
    facing = "NESW".index(entry["facing"])
    ctype = card.type
    if ctype.turn:
        entry["facing"] = dir_name((facing + ctype.turn) % 4)
        _log(ctx, parent, "ghost turns", {"dir": entry["facing"]}, card=str(card))
        return
    d = facing if ctype.move >= 0 else opposite(facing)
    at = parse_square(entry["at"])
    closed = ctx.board.phase_walls.get(ctx.phase, set()) if isinstance(ctx.phase, int) else set()
    hurt: set[str] = set()
    for _ in range(abs(ctype.move)):
        side = (at[0], at[1], d)
        if side in ctx.board.blocked or side in closed:
            break
        came = at
        at = (at[0] + DR[d], at[1] + DC[d])
        if not ctx.board.on_board(at) or (not ctx.rules.ghost_whole_course
                                          and ctx.board.part(at) != ctx.board.part(came)):
            del ghosts(ctx)[name]
            _log(ctx, parent, "ghost gone", card=str(card))
            return
        for robot in ctx.robots:
            if robot.pos == at and robot.name not in hurt:
                hurt.add(robot.name)
                ctx.damage(robot, 1, "ghost", _source(ctx, name, square_name(at)))
    entry["at"] = square_name(at)
    _log(ctx, parent, "ghost moves", {"to": entry["at"]}, card=str(card))


def touch(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    """A robot moving into a ghost's square takes 1 damage (once per ghost there)."""
    table = ctx.board_state.values.get(GHOST)
    if not table:
        return
    if robot.pos is None:
        return
    here = square_name(robot.pos)
    for name, entry in table.items():
        if entry["at"] == here:
            ctx.damage(robot, 1, "ghost", _source(ctx, name, here))
            if robot.pos is None:
                return


def glare(ctx: TurnContext, phase: int) -> None:
    """When lasers fire: robots in a ghost's square, and the first robot in its line of sight, take 1."""
    for name, entry in list(ghosts(ctx).items()):
        at = parse_square(entry["at"])
        facing = "NESW".index(entry["facing"])
        source = _source(ctx, name, entry["at"]) or GHOST
        for robot in ctx.robots:
            if robot.pos == at:
                ctx.hit_later(robot, 1, source, cause="ghost")
        taken = {r.pos for r in ctx.robots}
        for sq in ctx.board.ray(at, facing, include_start=False):
            if sq not in taken:  # (most squares of the line are empty)
                continue
            seen = [r for r in ctx.robots if r.pos == sq]
            if seen:
                for robot in seen:
                    ctx.hit_later(robot, 1, source, opposite(facing), cause="ghost")
                break


def install(board: Board, el: Element) -> None:
    """Once per board with graves: every square watches for robots moving into a ghost."""
    if board.cache.get("ghost hooks"):
        return
    board.cache["ghost hooks"] = True
    for r in range(1, board.height + 1):
        for c in range(1, board.width + 1):
            board.add_hook("move.ghosts", (r, c), touch, ENTER)
