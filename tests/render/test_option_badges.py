"""A robot's option cards show in the pictures: under the board, beside the robot in the status strip, a gold
chip for each card with the badge the card declares (``CARD = OptionCard(..., badge=...)``), legible at the
mail's scale; cards past the room left are counted in a last ``+n`` chip. The strip matches its golden PNG."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from referee.boards import load_board
from referee.engine import Robot, resolve_turn
from referee.engine.geometry import N
from referee.engine.option_cards import CARDS
from referee.render import make_players, render_turn
from referee.render.colours import OPTION
from referee.render.layout import CELL
from referee.render.robots import option_badges, strip_geometry, strip_height

from .golden import GOLDEN, UPDATE

NAMES = ["Twonky", "Hammer", "Zoom", "Spin"]
OPTIONS = {"Twonky": ["Brakes", "Pressor Beam"], "Hammer": ["Fourth Gear"],
           "Zoom": ["Brakes", "Crab Legs", "Dual Processor", "Extra Memory", "Fire Control", "Flywheel", "Recompile",
                    "Scrambler", "Tractor Beam", "Shield", "Radio Control", "Mini Howitzer"]}


def strip_of(options: dict[str, list[str]], course: str = "sprint") -> Image.Image:
    """The status strip of the start picture of a turn on ``course`` where the robots hold ``options``."""
    board = load_board(course)
    starts = [board.starts[k] for k in sorted(board.starts)]
    robots = [Robot(name, starts[i], N, options=list(options.get(name, []))) for i, name in enumerate(NAMES)]
    result = resolve_turn(board, robots, {})
    rendered = render_turn(board, result, make_players(NAMES), "RR-9", 1)
    img = Image.open(io.BytesIO(rendered.pictures[0].data)).convert("RGB")
    return img.crop((0, img.height - strip_height(board, CELL, len(NAMES)), img.width, img.height))


def test_each_card_is_drawn_with_the_badge_it_declares():
    assert option_badges(["Brakes", "Pressor Beam"]) == (CARDS["Brakes"].badge, CARDS["Pressor Beam"].badge)
    assert all(1 <= len(b) <= 3 for b in option_badges(list(CARDS)))
    assert len(set(option_badges(list(CARDS)))) == len(CARDS)  # every card told apart


def test_the_strip_with_option_chips_matches_its_golden_picture():
    img = strip_of(OPTIONS)
    path = GOLDEN / "strip-options.png"
    if UPDATE:
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=False)
        path.write_bytes(buf.getvalue())
    assert path.is_file(), f"no golden picture {path}; run with REFEREE_UPDATE_GOLDEN=1 to write it"
    with Image.open(path) as golden:
        assert ImageChops.difference(golden.convert("RGB"), img).getbbox() is None


def _gold(img: Image.Image, row: int) -> int:
    """Gold pixels in the strip row of the ``row``-th robot (one robot a row on sprint)."""
    _, _, row_h = strip_geometry(img.width, CELL, len(NAMES))
    part = img.crop((0, 4 + row * row_h, img.width, 4 + (row + 1) * row_h))
    return dict((c, n) for n, c in part.getcolors(1 << 16)).get(OPTION, 0)


def test_a_robot_without_cards_has_no_chips_and_more_cards_more_chips():
    img = strip_of(OPTIONS)
    assert _gold(img, 3) == 0  # Spin holds none
    assert 0 < _gold(img, 1) < _gold(img, 0) < _gold(img, 2)


@pytest.mark.parametrize("course", ["sprint", "grand-prix"])
def test_the_strip_of_robots_without_cards_is_as_before(course):
    assert strip_of({}, course).tobytes() == strip_of({"Spin": []}, course).tobytes()
    assert strip_of({}, course).tobytes() != strip_of({"Twonky": ["Brakes"]}, course).tobytes()
