"""A kind is drawn from its registry metadata: a kind the renderer has never heard of still shows (a tile in a
colour of its own for a floor kind, bars on the sides it sits on, an arrow for its direction, its ASCII glyph),
in the place its rank gives it (floor kinds under the board lasers' beams), and it appears in the key."""

from __future__ import annotations

import pytest

from referee.engine import KINDS, build_board
from referee.engine.kinds import Field, Kind
from referee.render.board_image import (
    BEAM,
    CELL,
    FLOOR,
    PAINTERS,
    Layout,
    draw_floor,
    draw_order,
    paint_default,
    painter_for,
)
from referee.render.legend import legend_entries, legend_image

RGB = tuple[int, int, int]


@pytest.fixture
def new_kinds(monkeypatch):
    """Two kinds registered the way a kind module does, with no painter in the renderer."""
    sludge = Kind(name="sludge", summary="slow floor", group="floor", fields=(Field("dir", "dir"),),
                  glyph=lambda e: "~s~", key="~s~ sludge", rank=160)
    grate = Kind(name="grate", summary="a grate on some sides", fields=(Field("sides", "sides"),),
                 glyph=lambda e: "gr", key="gr grate", rank=161)
    for kind in (sludge, grate):
        monkeypatch.setitem(KINDS, kind.name, kind)
    return sludge, grate


def _square(img, board, sq):
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin(sq)
    return img.crop((x, y, x + CELL + 1, y + CELL + 1)).convert("RGB")


def _colours(img) -> set[RGB]:
    return {c for _, c in img.getcolors(img.width * img.height) or []}


def test_a_kind_without_a_painter_is_drawn_from_its_metadata(new_kinds):
    assert "sludge" not in PAINTERS and painter_for("sludge") is paint_default
    board = build_board({"width": 4, "height": 3, "elements": [
        {"kind": "sludge", "at": "r2c2", "dir": "E"}, {"kind": "grate", "at": "r2c3", "sides": ["N"]}]})
    bare = build_board({"width": 4, "height": 3})
    img, empty = draw_floor(board), draw_floor(bare)
    sludge, plain = _square(img, board, (2, 2)), _square(empty, bare, (2, 2))
    assert sludge.tobytes() != plain.tobytes()
    # a tile in a colour of its own, not the bare floor's
    assert max(sludge.getcolors(CELL * CELL * 2) or [])[1] not in (FLOOR,)
    # the grate: a bar along its north side, and nothing on its south side
    grate = _square(img, board, (2, 3))
    top = [grate.getpixel((x, 3)) for x in range(4, CELL - 4)]
    bottom = [grate.getpixel((x, CELL - 3)) for x in range(4, CELL - 4)]
    assert len(set(top)) == 1 and top[0] != FLOOR
    assert FLOOR in bottom


def test_floor_kinds_lie_under_the_beams_and_high_ranked_kinds_over_them(new_kinds):
    under, over = draw_order(["grate", "laser", "sludge", "belt", "flag", "start"])
    assert under == ["belt", "sludge", "start"]
    assert over == ["laser", "flag", "grate"]
    board = build_board({"width": 4, "height": 1, "elements": [
        {"kind": "laser", "at": "r1c1", "dir": "E"}, {"kind": "sludge", "at": "r1c3", "dir": "N"}]})
    sq = _square(draw_floor(board), board, (1, 3))
    assert BEAM in _colours(sq)  # the beam crosses the sludge


def test_the_key_names_every_kind_on_the_board_and_the_marks(new_kinds):
    board = build_board({"width": 4, "height": 3, "elements": [
        {"kind": "sludge", "at": "r2c2", "dir": "E"}, {"kind": "pit", "at": "r1c1"},
        {"kind": "wall", "at": "r3c3", "sides": ["S"]}]})
    entries = legend_entries(board)
    assert entries[:3] == ["pit", "sludge", "wall"]
    for mark in ("robot (nose: facing)", "virtual robot", "robots sharing a square", "holds option cards",
                 "moved by its card", "pushed or carried", "laser hit a robot", "HP lost", "destroyed here"):
        assert mark in entries
    img = legend_image(board)
    assert img is legend_image(board)  # drawn once per board
    assert img.height > CELL * (len(entries) // 2)
