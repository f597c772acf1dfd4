"""One special side element a side: spiky walls, barricades, force fields and loopholes each decide alone
what a robot trying to cross a side meets (damage, a hit on the barricade, nothing). Two of them on one side
would leave it to the board file's order which acts, so a board holding two (of different kinds, or two
barricades from the side's two faces) is refused when it is built.
"""

from __future__ import annotations

from ..board import Board
from ..geometry import NotationError, Square, opposite, square_name, step

#: the kinds acting on a robot crossing a side in the walls' step
SPECIAL_SIDES = ("spiky_wall", "barricade", "force_field", "loophole")


def one_special_per_side(board: Board) -> None:
    """Refuse a board with two special side elements on one side (a ``Kind.finish``)."""
    found: dict[tuple[Square, int], str] = {}
    for kind in SPECIAL_SIDES:
        for sq, els in sorted(board.layer(kind).items()):
            for el in els:
                for side in el["sides"]:
                    face = (sq, side) if side in (0, 1) else (step(sq, side), opposite(side))
                    other = found.get(face)
                    if other is not None and (other != kind or kind == "barricade"):
                        name = f"{square_name(face[0])} {'NESW'[face[1]]}"
                        raise NotationError(f"side {name} holds both a {other} and a {kind}: a side holds one "
                                            "special side element (spiky wall, barricade, force field, loophole)")
                    found[face] = kind
