"""Robots' own lasers, and the beam tracer board lasers (:mod:`.board_lasers`) and turrets share: all hits of
the step land together.

A robot fires forward from its square (not into it), hits the first real robot, and
is stopped by walls and by what it cannot see through (fog, smoke); virtual and powered-down robots,
and robots standing in fog or smoke, do not fire; virtual robots are not hit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import shown
from ..board import Board
from ..context import TurnContext
from ..decisions import FIRE, MAIN_LASER, DecisionKey
from ..geometry import DC, DR, Square, opposite, run_name
from ..hooks import EFFECTS
from ..kinds import KINDS
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("pushed", "weapon", "pushed by {by}'s weapon", step="lasers.option_pushes")

shown.cause("laser", story="shot down", hit="{by}'s laser")
shown.untold("fire", "the hits are told with whom they hit; the stage tables show each shot")


def beam(ctx: TurnContext, start: Square, d: int, board_mounted: bool,
         occupied: dict[Square, list[Robot]] | None = None) -> tuple[list[Square], list[Robot]]:
    """Squares a beam passes and the robots it hits; it stops after the first real robot.

    A board laser covers its mount square and hits virtual robots too (they do not stop it);
    a robot's laser starts on the next square and hits only the first real robot.
    """
    board = ctx.board
    if occupied is None:
        occupied = occupancy(ctx)
    path: list[Square] = []
    hits: list[Robot] = []
    squares = board.ray(start, d, board_mounted)
    if board.phase_walls:
        squares = open_ray(board, start, d, board_mounted, ctx.phase)
    blind = frozenset() if board_mounted else blind_squares(board)
    for sq in squares:
        if blind and sq in blind:
            break
        path.append(sq)
        here = occupied.get(sq)
        if not here:
            continue
        real = [r for r in here if not r.virtual]
        if board_mounted:
            hits.extend(here)
        elif real:
            hits.append(real[0])
        if real:
            break
    return path, hits


def _short_of_closed_doors(board: Board, squares: tuple[Square, ...], start: Square, d: int,
                           phase: int | str) -> tuple[Square, ...]:
    """The squares of a beam up to the first side shut in this phase (a closed door)."""
    shut = board.phase_walls.get(phase) if isinstance(phase, int) else None
    if not shut:
        return squares
    prev = start
    for i, sq in enumerate(squares):
        if sq != start and (prev[0], prev[1], d) in shut:
            return squares[:i]
        prev = sq
    return squares


def open_ray(board: Board, start: Square, d: int, include_start: bool, phase: int | str) -> tuple[Square, ...]:
    """:meth:`Board.ray` up to the first side shut in ``phase`` (a closed door), made once per board, start,
    direction and phase (a beam is traced every register)."""
    table: dict[tuple[Square, int, bool, int | str], tuple[Square, ...]] | None = board.cache.get("open rays")
    if table is None:
        table = board.cache["open rays"] = {}
    key = (start, d, include_start, phase)
    found = table.get(key)
    if found is None:
        found = table[key] = _short_of_closed_doors(board, board.ray(start, d, include_start), start, d, phase)
    return found


def blind_squares(board: Board) -> frozenset[Square]:
    """Squares robots cannot see into or through (fog, smoke: kinds with ``blocks_sight``)."""
    found = board.cache.get("blind")
    if found is None:
        found = board.cache["blind"] = frozenset(
            sq for name, layer in board.layers.items() if KINDS[name].blocks_sight for sq in layer)
    return found


def occupancy(ctx: TurnContext) -> dict[Square, list[Robot]]:
    """Square -> robots on it, for one laser step (nothing moves while lasers fire)."""
    occupied: dict[Square, list[Robot]] = {}
    for r in ctx.robots:
        if r.pos is not None:
            occupied.setdefault(r.pos, []).append(r)
    return occupied


def sight(board: Board, pos: Square, d: int) -> tuple[Square, ...]:
    """The squares a robot's laser fired from ``pos`` toward ``d`` crosses on the empty floor: up to a wall, the edge,
    or a square it cannot see into (made when first asked, once per board, square and direction: a board's every
    square and direction take some milliseconds, and a process may resolve only a few turns)."""
    blind = blind_squares(board)
    ray = board.ray(pos, d, False)
    for i, at in enumerate(ray):
        if at in blind:
            return ray[:i]
    return ray


def sight_names(board: Board, pos: Square, facing: int) -> list[str | None]:
    """The names of the beams a robot's laser fired from ``pos`` toward ``facing`` may cross (index n: the first
    n squares of its :func:`sight`, as :func:`.geometry.run_name` writes them), made once per board, square and
    direction (a stored turn names some 25 beams)."""
    table: dict[tuple[Square, int], list[str | None]] | None = board.cache.get("sight_names")
    if table is None:
        table = board.cache["sight_names"] = {}
    key = (pos, facing)
    names = table.get(key)
    if names is None:
        ray = sight(board, pos, facing)
        names = table[key] = [None]
        if ray:   # one row or column, from the first square on: ``run_name`` of each prefix, from its ends
            (r0, c0), last = ray[0], ray[-1]
            if last[1] == c0:
                names.extend(f"r{min(r0, r)}-{max(r0, r)}c{c0}" if r != r0 else f"r{r0}c{c0}" for r, _ in ray)
            else:
                names.extend(f"r{r0}c{min(c0, c)}-{max(c0, c)}" if c != c0 else f"r{r0}c{c0}" for _, c in ray)
    return names


def beam_names(board: Board) -> dict[Square, list[list[str | None] | None]]:
    """Square -> per direction, its :func:`sight_names` (None until a robot fires that way from there), per board."""
    found: dict[Square, list[list[str | None] | None]] | None = board.cache.get("beam names")
    if found is None:
        found = board.cache["beam names"] = {}
    return found


def robot_lasers(ctx: TurnContext, phase: int) -> None:
    """Every robot on the board fires its main laser forward (its options may change the shot)."""
    robots = ctx.robots
    board = ctx.board
    # closed doors (a side shut in some phases) cut a beam short: its squares up to the first shut side
    doors = bool(board.phase_walls)
    # real robots by column (for beams fired north or south) and by row (east, west), in the robots' order
    by_col: dict[int, list[Robot]] = {}
    by_row: dict[int, list[Robot]] = {}
    for r in robots:
        if r.options:
            _robot_lasers(ctx, phase)
            return
        at = r.pos
        if at is not None and not r.virtual:
            row, col = at
            found = by_col.get(col)
            if found is None:
                by_col[col] = [r]
            else:
                found.append(r)
            found = by_row.get(row)
            if found is None:
                by_row[row] = [r]
            else:
                found.append(r)
    # no robot holds an option: each beam's squares come from the board's table, its target is the nearest real
    # robot in line with the shooter within them (the first in the robots' order when two share a square)
    blind = board.cache.get("blind")
    if blind is None:
        blind = blind_squares(board)
    events = ctx.events if ctx.record else None
    pending, hits = ctx.pending_moves, ctx.pending_hits
    phase_now, step = ctx.phase, ctx.step
    named: dict[Square, list[list[str | None] | None]] | None = board.cache.get("beam names")
    if named is None:
        named = beam_names(board)
    for robot in robots:
        pos = robot.pos
        if pos is None or robot.virtual or robot.powered_down or (blind and pos in blind):
            continue
        facing = robot.facing
        views = named.get(pos)
        if views is None:
            views = named[pos] = [None, None, None, None]
        names = views[facing]
        if names is None:
            names = views[facing] = sight_names(board, pos, facing)
        nearest = len(names) - 1   # the squares the beam crosses on the empty floor
        if doors:
            nearest = min(nearest, len(open_ray(board, pos, facing, False, phase_now)))
        if not nearest:
            continue
        target = None
        # N (0) and S (2) look along the column (the row index changes); E (1) and W (3) along the row
        axis = facing & 1
        line = by_row[pos[0]] if axis else by_col[pos[1]]
        if len(line) > 1:
            here = pos[axis]
            sign = 1 if facing < 2 else -1
            for other in line:
                away = (other.pos[axis] - here) * sign  # type: ignore[index]
                # the beam stops on the nearest robot in line (its square the last); the first of a square's
                if 0 < away <= nearest and (away < nearest or target is None):
                    nearest, target = away, other
        if events is not None:
            if pending and robot.name in pending:
                ctx.flush_move(robot)
            # the beam's squares logged by name (an unmade ``{"path": ...}``: see events.Event)
            events.append((phase_now, step, robot.name, "fire", names[nearest],
                           {"hit": None if target is None else target.name}))
        if target is not None:  # ``ctx.hit_later(target, 1, robot.name, facing)``
            hits.append((target, 1, "laser", robot.name, facing, step))


def _robot_lasers(ctx: TurnContext, phase: int) -> None:
    occupied = occupancy(ctx)
    blind = blind_squares(ctx.board)
    for robot in ctx.robots:
        if robot.pos is None or robot.virtual or robot.powered_down or (blind and robot.pos in blind):
            continue
        if robot.options:
            fire_with_options(ctx, robot, phase, occupied)
            continue
        path, hit = beam(ctx, robot.pos, robot.facing, False, occupied)
        if not path:
            continue
        target = hit[0] if hit else None
        if ctx.record:  # naming the path costs more than the beam when nothing is logged
            ctx.emit(robot, "fire", {"path": run_name(path)}, hit=target.name if target else None)
        if target is not None:
            ctx.hit_later(target, 1, robot.name, robot.facing)


@dataclass(slots=True)
class Shot:
    """A robot's main laser as its options make it (each option's ``aim`` may change it)."""

    #: the beams' directions: the first is the front laser (what a weapon option replaces)
    directions: list[int]
    damage: int = 1
    #: walls or robots the beam may pass through (a robot passed through is hit too)
    pierce: int = 0
    #: ``(ctx, shooter, target, phase) -> bool``: done instead of the damage when it returns True
    strike: Callable[[TurnContext, Robot, Robot, int], bool] | None = None
    #: what options changed, for the log
    by: list[str] = field(default_factory=list)


def fire_with_options(ctx: TurnContext, robot: Robot, phase: int, occupied: dict[Square, list[Robot]]) -> None:
    """The main laser of a robot holding options: its weapons (by FIRE orders) and what its options make
    of the main laser (more damage, a rear laser, piercing, fire control)."""
    shot = Shot([robot.facing])
    for name in robot.options:
        effect = EFFECTS.get(name)
        if effect is not None and effect.aim is not None:
            effect.aim(ctx, robot, shot)
    weapon_fired = _fires_option(ctx, robot, phase)
    assert robot.pos is not None
    for i, d in enumerate(shot.directions):
        if i == 0 and weapon_fired:
            continue
        if shot.pierce:
            path, hit = piercing_beam(ctx, robot.pos, d, shot.pierce, occupied)
        else:
            path, hit = beam(ctx, robot.pos, d, False, occupied)
        if not path:
            continue
        if ctx.record:
            data: dict[str, Any] = {"hit": hit[0].name if hit else None}
            if len(hit) > 1:
                data["also_hit"] = [r.name for r in hit[1:]]
            if shot.by:
                data["options"] = list(shot.by)
            ctx.emit(robot, "fire", {"path": run_name(path)}, **data)
        for target in hit:
            if shot.strike is not None and shot.strike(ctx, robot, target, phase):
                continue
            ctx.hit_later(target, shot.damage, robot.name, d)


def piercing_beam(ctx: TurnContext, start: Square, d: int, pierce: int,
                  occupied: dict[Square, list[Robot]]) -> tuple[list[Square], list[Robot]]:
    """A robot's beam that passes through up to ``pierce`` walls or real robots (each robot passed
    through is hit, and so is the one that stops it)."""
    board = ctx.board
    blind = blind_squares(board)
    path: list[Square] = []
    hits: list[Robot] = []
    cur = start
    while True:
        if (cur[0], cur[1], d) in board.blocked:
            if not pierce:
                break
            pierce -= 1
        cur = (cur[0] + DR[d], cur[1] + DC[d])
        if not board.on_board(cur) or cur in blind:
            break
        path.append(cur)
        real = [r for r in occupied.get(cur, ()) if not r.virtual]
        if real:
            hits.append(real[0])
            if not pierce:
                break
            pierce -= 1
    return path, hits


def weapon_target(ctx: TurnContext, robot: Robot, weapon: str) -> Robot | None:
    """The robot an option weapon fired instead of the main laser hits (the main laser's target), logged."""
    assert robot.pos is not None
    path, hit = beam(ctx, robot.pos, robot.facing, False)
    target = hit[0] if hit else None
    if path and ctx.record:
        ctx.emit(robot, "fire", {"path": run_name(path)}, hit=target.name if target else None, weapon=weapon)
    return target


def push_later(ctx: TurnContext, robot: Robot, d: int, by: str) -> None:
    """An option moves ``robot`` one square toward ``d`` in the last laser step (``lasers.option_pushes``)."""
    ctx.notes.setdefault("option pushes", []).append((robot.name, d, by))


def away(shooter: Robot) -> int:
    """The direction a target in front of ``shooter`` is pushed away in."""
    return shooter.facing


def toward(shooter: Robot) -> int:
    """The direction a target in front of ``shooter`` is pulled toward it in."""
    return opposite(shooter.facing)


def _fires_option(ctx: TurnContext, robot: Robot, phase: int) -> bool:
    """Whether the robot's FIRE orders name one of its option weapons for this register (it fires it). A
    weapon that cannot act this register (its ``unable`` gives a reason) leaves the main laser to fire,
    and the decision's note says so (house rule ``weapon_or_nothing``: nothing fires)."""
    weapons = {name.casefold(): e for name in robot.options if (e := EFFECTS.get(name)) and e.weapon}
    if not weapons:
        return False
    unable: list[str] = []

    def note(answer: str) -> str | None:
        if answer == MAIN_LASER:
            return None
        effect = weapons.get(str(answer).casefold())
        if effect is None:
            return f"no weapon {answer!r}: the main laser fires"
        if effect.unable is not None and not ctx.rules.weapon_or_nothing:
            reason = effect.unable(ctx, robot, phase)
            if reason:
                unable.append(reason)
                return f"{reason}: the main laser fires"
        return None

    weapon = ctx.decide(robot, DecisionKey(FIRE, register=phase), MAIN_LASER, note)
    effect = weapons.get(str(weapon).casefold())
    if effect is None or unable or effect.weapon is None:
        return False
    effect.weapon(ctx, robot, phase)
    return True


def front_target(ctx: TurnContext, robot: Robot) -> Robot | None:
    """The robot the main laser would hit (what a weapon fired instead of it aims at), nothing logged."""
    assert robot.pos is not None
    hit = beam(ctx, robot.pos, robot.facing, False)[1]
    return hit[0] if hit else None
