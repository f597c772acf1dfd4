"""Each stage picture shows the elements as they are at that stage: a piston up or down, a door open or
shut in the register phase, a barricade's crates knocked off hit by hit, a flamer lit in its phases. The
element modules declare what their look reads (:mod:`referee.engine.looks`); each look's tile matches its
golden PNG (``tests/render/golden/states/``), and a square drawn again at rest is the floor's own square."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from referee.boards import load_board
from referee.engine import KINDS, Element, Robot, build_board, parse_card, resolve_turn
from referee.engine.geometry import E, N, Square
from referee.engine.looks import LOOKS, states
from referee.engine.state import BoardState
from referee.render import make_players, render_turn
from referee.render.board_image import CELL, Layout
from referee.render.colours import FLOOR
from referee.render.frames import floor, frame_keys, frame_phase
from referee.render.legend import legend_entries
from referee.render.painters import ACTIVE, LOOK_PAINTERS
from referee.render.states import _stateful, patch

from .golden import GOLDEN, UPDATE
from .test_factory_tiles import sample_fields

STATE_DIR = GOLDEN / "states"
BOARDS = sorted(p.stem for p in (Path(__file__).parents[2] / "boards").glob("*.toml"))

#: kind -> the looks drawn as golden tiles (and the fields of the sample element)
STATES: dict[str, tuple[dict[str, object], tuple[object, ...]]] = {
    "piston": ({"colour": "red"}, ("up", "down")),
    "door": ({}, ("rest", "open", "shut")),
    "barricade": ({"sides": (0, 1), "strength": 2}, ((0, 0), (1, 0), (2, 1), (2, 2))),
    "turret": ({}, (1, 2)),
    "flip_belt": ({}, (False, True)),
    "flamer": ({}, (False, True)),
    "trapdoor": ({}, (False, True)),
}


def state_tile(kind: str, look: object, **given: object) -> Image.Image:
    lay = Layout.square_at(0, 0, CELL)
    img = Image.new("RGB", (CELL + 1, CELL + 1), FLOOR)
    LOOK_PAINTERS[kind](ImageDraw.Draw(img), lay, Element(kind, (1, 1), sample_fields(kind, **given)), look)
    return img


def _name(kind: str, look: object) -> str:
    text = "-".join(map(str, look)) if isinstance(look, tuple) else str(look)
    return f"{kind}-{text.lower()}.png"


@pytest.mark.parametrize(("kind", "look"), [(k, look) for k, (_, looks) in STATES.items() for look in looks])
def test_each_look_of_an_element_matches_its_golden_tile(kind, look):
    fields, _ = STATES[kind]
    img = state_tile(kind, look, **fields)
    path = STATE_DIR / _name(kind, look)
    if UPDATE:
        STATE_DIR.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=False)
        path.write_bytes(buf.getvalue())
    assert path.is_file(), f"no golden tile {path}; run with REFEREE_UPDATE_GOLDEN=1 to write it"
    with Image.open(path) as golden:
        assert ImageChops.difference(golden.convert("RGB"), img).getbbox() is None, f"{path.name} differs"


@pytest.mark.parametrize("kind", sorted(STATES))
def test_the_looks_of_an_element_are_told_apart(kind):
    fields, looks = STATES[kind]
    drawn = [state_tile(kind, look, **fields).tobytes() for look in looks]
    assert len(set(drawn)) == len(drawn)


def test_every_kind_that_acts_in_some_register_phases_declares_its_look():
    phased = {name for name, kind in KINDS.items() if any(f.type == "phases" for f in kind.fields)}
    assert phased
    assert phased - set(LOOKS) == set()
    assert {"piston", "barricade", "turret", "flip_belt"} <= set(LOOKS)  # the kinds with board state
    assert set(LOOKS) <= set(LOOK_PAINTERS)


@pytest.mark.parametrize("name", BOARDS)
def test_a_square_drawn_again_at_rest_is_the_floors_own_square(name):
    board = load_board(name)
    st = _stateful(board)
    lay = Layout(board.width, board.height, CELL)
    image = floor(board, CELL).image
    for sq, rest in st.rest.items():
        x, y = lay.origin(sq)
        own = image.crop((x, y, x + CELL + 1, y + CELL + 1))
        assert ImageChops.difference(own, patch(board, CELL, sq, rest)).getbbox() is None, (name, sq)


# -- a turn: Twonky drives onto the red piston (red down, blue up: Spin slides off it); Zoom breaks the
# barricade in two registers; the door on r1c2 is open in registers 2 and 4; the flamer burns in 1, 3, 5
BOARD = {"width": 7, "height": 3, "elements": [
    {"kind": "piston", "at": "r2c3", "colour": "red", "dir": "N"},
    {"kind": "piston", "at": "r2c5", "colour": "blue", "dir": "S"},
    {"kind": "door", "at": "r1c2", "sides": "E", "open": [2, 4]},
    {"kind": "barricade", "at": "r3c4", "sides": "W", "strength": 2},
    {"kind": "flamer", "at": "r1c6", "phases": [1, 3, 5]},
]}
PROGRAMS = {"Twonky": ["FWD2 780", "RT90 80", "LF90 70", "RT90 100", "LF90 90"],
            "Zoom": ["FWD2 700", "FWD1 490", "FWD1 500", "RT90 120", "LF90 110"],
            "Spin": ["RT90 140", "LF90 130", "RT90 160", "LF90 150", "RT90 180"]}


@pytest.fixture(scope="module")
def turn():
    board = build_board(BOARD)
    robots = [Robot("Twonky", (2, 1), E), Robot("Zoom", (3, 2), E), Robot("Spin", (2, 5), N)]
    programs = {name: [parse_card(c) for c in cards] for name, cards in PROGRAMS.items()}
    result = resolve_turn(board, robots, programs)
    rendered = render_turn(board, result, make_players(list(PROGRAMS)), "RR-9", 1)
    pictures = {p.key: Image.open(io.BytesIO(p.data)).convert("RGB") for p in rendered.pictures}
    return board, result, pictures


def _square(img: Image.Image, board, sq: Square) -> bytes:
    x, y = Layout(board.width, board.height, CELL).origin(sq)
    return img.crop((x + 2, y + 2, x + CELL - 1, y + CELL - 1)).tobytes()


def test_the_state_replayed_from_the_events_is_the_state_the_turn_left(turn):
    _, result, _ = turn
    phases = [frame_phase(k) for k, _ in frame_keys(result.phases_run, result.end_of_turn)]
    replayed = states(BoardState(), result.events, phases)
    assert replayed[-1].to_dict() == result.board_state.to_dict()
    assert replayed[0].to_dict() == {}  # nothing happened before register 1
    assert replayed[1].get("piston", "blue") == "up"
    assert replayed[1].get("barricade", "r3c4 W") == 1 and replayed[2].get("barricade", "r3c4 W") == 2


def test_a_piston_is_drawn_up_then_down_when_a_robot_pushed_it(turn):
    board, _, pics = turn
    red, blue = (2, 3), (2, 5)
    assert _square(pics["start"], board, red) != _square(pics["stage1"], board, red)
    # the blue piston rose in register 1 and stays up: drawn the same after stages 1 to 5
    assert len({_square(pics[f"stage{k}"], board, blue) for k in (2, 3, 4, 5)}) == 1
    assert _square(pics["start"], board, blue) != _square(pics["stage2"], board, blue)


def test_a_barricade_loses_a_crate_a_hit(turn):
    board, _, pics = turn
    sq = (3, 4)
    seen = [_square(pics[k], board, sq) for k in ("start", "stage1", "stage2")]
    assert len(set(seen)) == 3  # whole, one crate off, broken down


def test_a_door_is_open_in_its_registers_and_shut_in_the_others(turn):
    board, _, pics = turn
    sq = (1, 2)
    looks = {k: _square(pics[f"stage{k}"], board, sq) for k in range(1, 6)}
    assert looks[2] == looks[4] != looks[1]
    assert looks[1] == looks[3] == looks[5]
    assert _square(pics["start"], board, sq) not in (looks[1], looks[2])


def test_a_flamer_is_framed_lit_in_the_registers_it_burns(turn):
    board, _, pics = turn
    x, y = Layout(board.width, board.height, CELL).origin((1, 6))

    def framed(key: str) -> bool:
        return pics[key].getpixel((x + 2, y + CELL // 2)) == ACTIVE

    assert [framed(f"stage{k}") for k in range(1, 6)] == [True, False, True, False, True]
    assert not framed("start") and not framed("end")


def test_the_turn_begins_from_the_state_the_board_was_left_in():
    board = build_board(BOARD)
    robots = [Robot("Twonky", (1, 1), N)]
    programs = {"Twonky": [parse_card(c) for c in ("RT90 80", "LF90 70", "RT90 100", "LF90 90", "RT90 120")]}
    before = BoardState({"piston": {"red": "down", "blue": "up"}})
    result = resolve_turn(board, robots, programs, board_state=before)
    players = make_players(["Twonky"])
    blue_up = render_turn(board, result, players, "RR-9", 2, board_before=before)
    at_rest = render_turn(board, result, players, "RR-9", 2)
    first = {p.key: Image.open(io.BytesIO(p.data)).convert("RGB") for p in blue_up.pictures}["start"]
    other = {p.key: Image.open(io.BytesIO(p.data)).convert("RGB") for p in at_rest.pictures}["start"]
    assert _square(first, board, (2, 5)) != _square(other, board, (2, 5))
    assert _square(first, board, (2, 3)) != _square(other, board, (2, 3))
    assert _square(first, board, (2, 1)) == _square(other, board, (2, 1))


def test_the_key_says_what_the_orange_frame_means_where_the_course_has_elements_acting_in_registers():
    assert "acting in the register shown" in legend_entries(load_board("grand-prix"))  # pushers, crushers
    assert "acting in the register shown" not in legend_entries(load_board("sprint"))
