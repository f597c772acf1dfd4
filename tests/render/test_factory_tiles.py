"""Every RoboFactory (and other expansion) element kind has a drawn tile that reads at the mail's scale: each
tile drawn alone matches its golden PNG (``tests/render/golden/tiles/``), direction turns the drawing, the
phases an element acts in show as pips, and no element of the factory course is drawn as letters (by the
fallback that writes a kind's ASCII glyph)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from referee.boards import load_board
from referee.engine import KINDS, Element
from referee.render.board_image import CELL, Layout
from referee.render.colours import FLOOR
from referee.render.factory_tiles import TILES
from referee.render.painters import paint_default, painter_for

from .golden import GOLDEN, UPDATE

TILE_DIR = GOLDEN / "tiles"


def sample_fields(kind: str, **given: object) -> dict[str, object]:
    """Fields for a sample element of ``kind``: facing east, on its north and east sides, phases 1, 3, 5."""
    fields: dict[str, object] = {}
    for f in KINDS[kind].fields:
        if f.name in given:
            fields[f.name] = given[f.name]
        elif f.type == "dir":
            fields[f.name] = 1
        elif f.type == "sides":
            fields[f.name] = (0, 1)
        elif f.type == "phases":
            fields[f.name] = (1, 3, 5)
        elif f.type == "choice":
            fields[f.name] = f.default if f.default is not None else f.choices[0]
        elif f.type == "int":
            fields[f.name] = f.default if f.default is not None else max(1, f.lo)
        elif f.type == "bool":
            fields[f.name] = bool(f.default)
    return fields


def tile(kind: str, **given: object) -> Image.Image:
    """The kind's tile alone on a square of floor, at the mail's scale."""
    lay = Layout.square_at(0, 0, CELL)
    img = Image.new("RGB", (CELL + 1, CELL + 1), FLOOR)
    painter_for(kind)(ImageDraw.Draw(img), lay, Element(kind, (1, 1), sample_fields(kind, **given)))
    return img


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", optimize=False)
    return out.getvalue()


@pytest.mark.parametrize("kind", sorted(TILES))
def test_each_kinds_tile_drawn_alone_matches_its_golden_picture(kind):
    img = tile(kind)
    path: Path = TILE_DIR / f"{kind}.png"
    if UPDATE:
        TILE_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_png(img))
    assert path.is_file(), f"no golden tile {path}; run with REFEREE_UPDATE_GOLDEN=1 to write it"
    with Image.open(path) as golden:
        diff = ImageChops.difference(golden.convert("RGB"), img)
    assert diff.getbbox() is None, f"the {kind} tile differs from {path.name} (REFEREE_UPDATE_GOLDEN=1 to accept)"


@pytest.mark.parametrize("kind", sorted(TILES))
def test_a_tile_is_a_drawing_not_bare_floor(kind):
    blank = Image.new("RGB", (CELL + 1, CELL + 1), FLOOR)
    changed = ImageChops.difference(tile(kind), blank).getbbox()
    assert changed is not None
    x1, y1, x2, y2 = changed
    assert (x2 - x1) * (y2 - y1) >= (CELL // 3) ** 2, f"{kind} is drawn too small to read: {changed}"


@pytest.mark.parametrize("kind", sorted(k for k in TILES if any(f.type == "dir" for f in KINDS[k].fields)))
def test_an_element_with_a_direction_is_drawn_turned_that_way(kind):
    name = next(f.name for f in KINDS[kind].fields if f.type == "dir")
    assert tile(kind, **{name: 1}).tobytes() != tile(kind, **{name: 3}).tobytes()


@pytest.mark.parametrize("kind", sorted(k for k in TILES if any(f.type == "phases" for f in KINDS[k].fields)))
def test_the_phases_an_element_acts_in_are_shown(kind):
    name = next(f.name for f in KINDS[kind].fields if f.type == "phases")
    assert tile(kind, **{name: (1, 3, 5)}).tobytes() != tile(kind, **{name: (2, 4)}).tobytes()


def test_no_element_of_the_factory_course_is_drawn_as_letters():
    board = load_board("factory")
    lettered = [kind for kind in board.layers if painter_for(kind) is paint_default]
    assert lettered == []
    assert len(board.layers) > 60  # the course holds (nearly) every kind: the check covers them
