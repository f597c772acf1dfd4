"""E-fences: electric fences on sides of a square that, in the register phases listed (when they are
active), stop robots crossing those sides either way (card moves, pushes, belts). Inactive, they
are open sides. Lasers pass them.
"""

from __future__ import annotations

from .. import looks
from ..board import Board, Element
from ..context import TurnContext
from ..geometry import opposite, step
from ..kinds import Field, Kind
from ..state import Robot


def _active_sides(ctx: TurnContext) -> frozenset[tuple[int, int, int]]:
    """Every (row, col, side) face an e-fence holds shut in the current phase (built once per phase)."""
    cache = ctx.board.cache
    table = cache.get("efences")
    if table is None:
        by_phase: dict[int, set[tuple[int, int, int]]] = {p: set() for p in range(1, 6)}
        for sq, els in ctx.board.layer("efence").items():
            for el in els:
                for side in el["sides"]:
                    other = step(sq, side)
                    for p in el["phases"]:
                        by_phase[p].update({(sq[0], sq[1], side), (other[0], other[1], opposite(side))})
        table = cache["efences"] = {p: frozenset(s) for p, s in by_phase.items()}
    return table.get(ctx.phase, frozenset())  # type: ignore[no-any-return]


def shut(ctx: TurnContext, robot: Robot, d: int) -> bool:
    pos = robot.pos
    assert pos is not None
    return (pos[0], pos[1], d) not in _active_sides(ctx)


def _install(board: Board, el: Element) -> None:
    for side in el["sides"]:
        board.add_side_hook("move.closed_doors", el.at, side, shut)


def _phases(e: Element) -> str:
    return ",".join(map(str, e["phases"]))


EFENCE = Kind(
    name="efence",
    doc=('an e-fence on the listed `sides` of the square: in the listed register phases it stops robots crossing '
         'those sides either way (card moves, pushes, belts); open otherwise; lasers pass it'),
    key='ef e-fence',
    fields=(Field("sides", "sides"), Field("phases", "phases")),
    summary="an electric fence on sides of the square, closed to robots in the listed register phases",
    install=_install,
    glyph=lambda e: "ef",
    rank=139,
    legend=lambda e: f"e-fence {''.join('NESW'[s] for s in e['sides'])} active in phases {_phases(e)}",
)

# the pictures: live in its phases (:mod:`referee.engine.looks`)
looks.declare("efence", looks.active_in("phases"))
