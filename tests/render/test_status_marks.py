"""A lasting status a player can see is drawn on the robot that carries it, as the module that gives it declares
(``shown.status(..., mark="Z", kinds=("soporific_gas",))``): a white chip with the mark's letters up the robot's
right side; and the key of a course lists the marks of the statuses a robot can come to carry there (those its
elements give, and those of the option cards). A new element's status is drawn and keyed with no edit in
``render/``."""

from __future__ import annotations

import ast
import io
from importlib import import_module
from pathlib import Path

import pytest
from PIL import Image

import referee.engine
from referee.boards import load_board
from referee.engine import Robot, build_board, resolve_turn, shown
from referee.engine.geometry import N
from referee.engine.kinds import KINDS, Kind
from referee.render import make_players, render_turn
from referee.render.colours import WHITE
from referee.render.layout import CELL, Layout
from referee.render.legend import legend_entries
from referee.render.status_marks import keyed_marks, status_marks

from .golden import check_golden_png

ELEMENTS = Path(referee.engine.__file__).parent / "elements"
FLYING, ENERGIZED, GASSED = "flying", "energized", "gassed"


def _given_by_elements() -> dict[str, set[str]]:
    """Status -> the element kinds of the modules that put it on a robot (``robot.statuses.add(X)``,
    ``Robot(..., statuses={X})``), read from the element modules' source."""
    given: dict[str, set[str]] = {}
    for path in sorted(ELEMENTS.glob("[!_]*.py")):
        module = import_module(f"referee.engine.elements.{path.stem}")
        names = vars(module)
        kinds = {k.name for k in names.values() if isinstance(k, Kind)}
        for node in ast.walk(ast.parse(path.read_text())):
            put: list[ast.expr] = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add" \
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "statuses":
                put += node.args[:1]
            if isinstance(node, ast.keyword) and node.arg == "statuses" and isinstance(node.value, ast.Set):
                put += node.value.elts
            for expr in put:
                name = expr.value if isinstance(expr, ast.Constant) else names.get(getattr(expr, "id", ""))
                assert isinstance(name, str), f"{path.name}: a status the walk cannot read: {ast.unparse(expr)}"
                given.setdefault(name, set()).update(kinds)
    return given


def test_every_status_players_are_shown_declares_a_mark_and_the_kinds_that_give_it():
    visible = [s for s in shown.STATUSES.values() if s.words]
    assert len(visible) >= 8  # napalm, virtualizers, gas, copy machines, energizers, antigravity, two cards
    for status in visible:
        assert 1 <= len(status.mark) <= 2, f"status {status.name!r} is shown but has no mark for the pictures"
        assert all(kind in KINDS for kind in status.kinds), status
    assert len({s.mark for s in visible}) == len(visible)  # each told apart on the robot and in the key
    given = _given_by_elements()
    assert {FLYING, ENERGIZED, GASSED} <= set(given)
    for name, kinds in given.items():
        status = shown.STATUSES[name]
        if status.mark:  # keyed on every course that has an element that gives it
            assert kinds <= set(status.kinds), f"status {name!r} is given by {kinds}, keyed for {status.kinds}"


@pytest.mark.parametrize(("words", "mark", "why"), [
    ("marked", "ABC", "one or two characters"), ("marked", " ", "one or two characters"),
    ("", "U", "nothing shows")])
def test_a_mark_is_one_or_two_characters_and_only_for_a_status_players_see(words, mark, why):
    with pytest.raises(shown.ShownError, match=why):
        shown.status("test status", words, mark=mark)
    assert "test status" not in shown.STATUSES


def test_two_statuses_cannot_share_a_mark():
    with pytest.raises(shown.ShownError, match="already 'flying'"):
        shown.status("test status", "hovering", mark=shown.STATUSES[FLYING].mark)


def _start_picture(board, robots) -> Image.Image:
    result = resolve_turn(board, robots, {})
    rendered = render_turn(board, result, make_players([r.name for r in robots]), "RR-9", 1)
    return Image.open(io.BytesIO(rendered.pictures[0].data)).convert("RGB")


def _chip_pixels(img: Image.Image) -> int:
    """Pixels of a chip's white (as the picture's palette keeps it: near white)."""
    return sum(n for n, c in img.getcolors(CELL * CELL) or [] if min(c) >= min(WHITE) - 12)


def test_a_robot_flying_and_energized_carries_both_marks_in_the_picture():
    board = build_board({"width": 3, "height": 3, "elements": [
        {"kind": "antigravity", "at": "r1c1"}, {"kind": "energizer", "at": "r3c3"}]})
    twonky = Robot("Twonky", (2, 2), N, statuses={FLYING, ENERGIZED})
    marks = status_marks(twonky.statuses)
    assert sorted(marks) == sorted(shown.STATUSES[s].mark for s in (FLYING, ENERGIZED))
    assert list(marks) == [s.mark for s in shown.STATUSES.values() if s.name in twonky.statuses]  # order declared
    img = _start_picture(board, [twonky, Robot("Zoom", (1, 3), N)])
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin((2, 2))
    square = img.crop((x, y, x + CELL, y + CELL))
    assert _chip_pixels(square.crop((CELL * 2 // 3, 0, CELL, CELL))) > 20
    assert _chip_pixels(square.crop((0, 0, CELL // 3, CELL))) == 0  # the chips are on its right side only
    x, y = lay.origin((1, 3))
    assert _chip_pixels(img.crop((x + CELL * 2 // 3, y, x + CELL, y + CELL))) == 0  # Zoom: no status, no chip
    check_golden_png("status-marks.png", img.crop((0, 0, img.width, lay.oy + lay.top + 3 * CELL + 22)))


def test_the_key_lists_the_marks_of_the_statuses_that_can_occur_on_the_course():
    gas = build_board({"width": 3, "height": 1, "elements": [{"kind": "soporific_gas", "at": "r1c2"}]})
    entries = legend_entries(gas)
    asleep = shown.STATUSES[GASSED].words
    assert asleep in entries and shown.STATUSES[FLYING].words not in entries
    assert entries.index(asleep) > entries.index("destroyed here")  # after the marks every picture uses
    cards = [s.words for s in shown.STATUSES.values() if s.mark and not s.kinds]
    assert cards and all(words in legend_entries(load_board("sprint")) for words in cards)  # options: any course
    assert asleep not in [words for _, words in keyed_marks(load_board("sprint"))]


def test_a_new_elements_status_is_drawn_and_keyed_with_no_edit_in_render(monkeypatch):
    """The recipe's tar pit, declared as its module would (here on the pit kind, in a fresh board)."""
    monkeypatch.setitem(shown.STATUSES, "stuck in tar", shown.Status(
        "stuck in tar", "stuck in tar", given_by="stuck", mark="T~", kinds=("pit",)))
    board = build_board({"width": 3, "height": 2, "elements": [{"kind": "pit", "at": "r1c1"}]})
    assert "stuck in tar" in legend_entries(board)
    assert "stuck in tar" not in legend_entries(build_board({"width": 3, "height": 2, "elements": []}))
    plain = _start_picture(board, [Robot("Twonky", (2, 2), N)])
    stuck = _start_picture(board, [Robot("Twonky", (2, 2), N, statuses={"stuck in tar"})])
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin((2, 2))
    box = (x + CELL // 2, y, x + CELL, y + CELL)
    assert plain.crop(box).tobytes() != stuck.crop(box).tobytes()
