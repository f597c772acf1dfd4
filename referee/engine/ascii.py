"""The ASCII view of a board or course, with robots: each kind draws its own glyph."""

from __future__ import annotations

from .board import Board
from .geometry import ARROWS, E, N, S, Square, square_name
from .kinds import KINDS
from .state import Robot


def _beams(board: Board) -> dict[Square, str]:
    marks: dict[Square, str] = {}
    for sq, els in board.layer("laser").items():
        for el in els:
            d = el["dir"]
            for cur in board.ray(sq, d):
                marks.setdefault(cur, " : " if d in (N, S) else " - ")
    return marks


def cell(board: Board, sq: Square, robots: list[Robot], beams: dict[Square, str]) -> str:
    here = [r for r in robots if r.pos == sq]
    if len(here) == 1:
        r = here[0]
        initial = r.name[:1].upper() if not r.virtual else r.name[:1].lower()
        return f"{initial}{ARROWS[r.facing]} "
    if len(here) > 1:
        return f"*{len(here)} "[:3]
    if sq in board.void:
        return ":::"
    glyphs = sorted(((KINDS[el.kind].rank, KINDS[el.kind].glyph(el)) for el in board.elements_at(sq)),
                    reverse=True)
    shown = [g for _, g in glyphs if g]
    # a second element's glyph is added when it fits (a crusher on a belt: X>); heights (rank 1) only alone
    extras = [g.strip() for rank, g in glyphs[1:] if g and rank > 1]
    if shown:
        text = shown[0] if not extras else shown[0].strip()
        for extra in extras:
            if len(text) + len(extra) <= 3:
                text += extra
        return f"{text:<3}"[:3]
    return beams.get(sq, "   ")


def render(board: Board, robots: list[Robot] | None = None, legend: bool = True) -> str:
    """The board as text: row 1 at the bottom, column 1 at the left, walls as | and ---."""
    robots = [r for r in (robots or []) if r.pos is not None]
    beams = _beams(board)
    lines = ["    " + "".join(f"{c:^4}" for c in range(1, board.width + 1))]

    def h_line(r: int) -> str:
        """The line between row r and row r+1 (r = 0 and r = height are the edges)."""
        out = "   +"
        for c in range(1, board.width + 1):
            edge = r in (0, board.height) or (r, c, N) in board.blocked
            out += ("---" if edge else "   ") + "+"
        return out

    lines.append(h_line(board.height))
    for r in range(board.height, 0, -1):
        row = f"{r:>2} |"
        for c in range(1, board.width + 1):
            row += cell(board, (r, c), robots, beams)
            east = c == board.width or (r, c, E) in board.blocked
            row += "|" if east else " "
        lines.append(row + f" {r}")
        lines.append(h_line(r - 1))
    lines.append("    " + "".join(f"{c:^4}" for c in range(1, board.width + 1)))
    if legend:
        lines.extend(_legend(board, robots))
    return "\n".join(lines)


def _legend(board: Board, robots: list[Robot]) -> list[str]:
    notes = []
    for kind_name, layer in board.layers.items():
        kind = KINDS[kind_name]
        if kind.legend is None:
            continue
        for sq, els in sorted(layer.items()):
            for el in els:
                notes.append(f"  {square_name(sq)}: {kind.legend(el)}")
    for r in robots:
        mode = "virtual" if r.virtual else "real"
        notes.append(f"  {square_name(r.pos) if r.pos else '-'}: {r.name} facing {'NESW'[r.facing]}, "
                     f"{r.hp} HP, {mode}")
    key = "key: " + ", ".join([*(k.key for k in KINDS.values() if k.key), "::: off the course"])
    return [key, *notes] if notes else [key]


