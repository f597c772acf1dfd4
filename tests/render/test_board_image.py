"""Board pictures: robots where the engine says they are, in their colours, facing their way; sizes that mail."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from referee.engine import Board, Robot, build_board
from referee.engine.geometry import E, N, S, Square, W
from referee.render import fonts, frame, gif_bytes, make_players, png_bytes
from referee.render.board_image import CELL, WRECK, Layout
from referee.render.frames import floor
from referee.render.robots import strip_height

from .conftest import SeededTurn

RGB = tuple[int, int, int]


def _rgb(img: Image.Image) -> Image.Image:
    return img.convert("RGB")


def _square_pixels(img: Image.Image, board: Board, sq: Square) -> list[tuple[int, int, RGB]]:
    lay = Layout(board.width, board.height, CELL)
    x0, y0 = lay.origin(sq)
    rgb = _rgb(img)
    return [(x, y, rgb.getpixel((x, y))) for y in range(y0 + 1, y0 + CELL) for x in range(x0 + 1, x0 + CELL)]


def _near(a: RGB, b: RGB, tol: int = 12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def _count(img: Image.Image, board: Board, sq: Square, colour: RGB) -> int:
    return sum(1 for _, _, px in _square_pixels(img, board, sq) if _near(px, colour))


def _busy_course() -> Board:
    """A 24x16 course crowded with elements: the size the 150 KB target is about."""
    els: list[dict] = []
    for r in range(1, 17, 3):
        els.append({"kind": "belt", "at": f"r{r}c1-r{r}c11", "dir": "E"})
        els.append({"kind": "express", "at": f"r{r}c13-r{r}c24", "dir": "W"})
    for c in range(2, 24, 4):
        els.append({"kind": "wall", "at": f"r2c{c}", "sides": ["N", "E"]})
        els.append({"kind": "gear", "at": f"r{(c % 2) + 8}c{c}", "turn": "left" if c % 8 else "right"})
        els.append({"kind": "pit", "at": f"r{(c % 2) + 5}c{c + 1}"})
        els.append({"kind": "pusher", "at": f"r15c{c}", "dir": "S", "phases": [2, 4]})
    els += [{"kind": "laser", "at": "r5c1", "dir": "E", "count": 3}, {"kind": "laser", "at": "r16c20", "dir": "S"},
            {"kind": "crusher", "at": "r11c11", "phases": [1, 3, 5]}, {"kind": "repair", "at": "r12c12"},
            {"kind": "repair", "at": "r12c14", "wrenches": 2}]
    els += [{"kind": "flag", "at": f"r{2 * n + 3}c{3 * n + 2}", "number": n} for n in range(1, 5)]
    els += [{"kind": "start", "at": f"r1c{n + 8}", "number": n} for n in range(1, 9)]
    return build_board({"width": 24, "height": 16, "elements": els}, "busy")


NAMES = ["Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop"]


def test_a_robot_is_drawn_in_its_colour_on_its_square_and_nowhere_else():
    board = build_board({"width": 6, "height": 5})
    players = make_players(["Twonky"])
    red = players[0].rgb
    img = frame(board, [Robot("Twonky", (2, 5), N)], players)
    assert _count(img, board, (2, 5), red) > CELL * CELL // 5
    assert all(_count(img, board, (r, c), red) == 0
               for r in range(1, 6) for c in range(1, 7) if (r, c) != (2, 5))


def test_row_1_is_at_the_bottom_and_column_1_at_the_left():
    board = build_board({"width": 6, "height": 5})
    players = make_players(["Twonky"])
    img = _rgb(frame(board, [Robot("Twonky", (1, 1), N)], players))
    hits = [(x, y) for y in range(img.height) for x in range(img.width) if _near(img.getpixel((x, y)), players[0].rgb)]
    xs, ys = [x for x, _ in hits], [y for _, y in hits]
    assert max(xs) < img.width / 3 and min(ys) > img.height * 2 / 3


def test_the_nose_points_the_way_the_robot_faces():
    board = build_board({"width": 3, "height": 3})
    players = make_players(["Twonky"])
    lay = Layout(3, 3, CELL)
    cx, cy = lay.centre((2, 2))
    for facing, (dx, dy) in ((N, (0, -1)), (E, (1, 0)), (S, (0, 1)), (W, (-1, 0))):
        img = frame(board, [Robot("Twonky", (2, 2), facing)], players)
        reach = {d: 0.0 for d in ((0, -1), (1, 0), (0, 1), (-1, 0))}
        for x, y, px in _square_pixels(img, board, (2, 2)):
            if _near(px, players[0].rgb):
                for ux, uy in reach:
                    reach[(ux, uy)] = max(reach[(ux, uy)], (x - cx) * ux + (y - cy) * uy)
        ahead = reach[(dx, dy)]
        assert all(ahead > other + 2 for d, other in reach.items() if d != (dx, dy)), (facing, reach)


def test_a_virtual_robot_is_drawn_hollow_and_a_destroyed_one_not_at_all():
    board = build_board({"width": 6, "height": 4})
    players = make_players(["Twonky", "Hammer", "Zoom"])
    twonky, hammer, zoom = (p.rgb for p in players)
    robots = [Robot("Twonky", (2, 2), E), Robot("Hammer", (2, 4), E, virtual=True), Robot("Zoom", None, N, lives=2)]
    img = frame(board, robots, players)
    solid, hollow = _count(img, board, (2, 2), twonky), _count(img, board, (2, 4), hammer)
    assert 0 < hollow < solid / 2
    assert all(_count(img, board, (r, c), zoom) == 0 for r in range(1, 5) for c in range(1, 7))


def test_robots_sharing_a_square_are_all_drawn():
    board = build_board({"width": 4, "height": 4, "elements": [{"kind": "start", "at": "r1c2", "number": 1}]})
    players = make_players(NAMES)
    robots = [Robot(n, (1, 2), N, virtual=True) for n in NAMES]
    img = frame(board, robots, players)
    around = [(r, c) for r in (1, 2, 3) for c in (1, 2, 3)]   # eight of them reach over the squares around
    for p in players:
        assert sum(_count(img, board, sq, p.rgb) for sq in around) > 0, p.robot


def test_the_floor_is_drawn_once_per_board_and_cell_size():
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "belt", "at": "r1c1-r1c5", "dir": "E"}]})
    first = floor(board)
    assert floor(board) is first
    assert floor(board, CELL + 8) is not first
    robots = [Robot("Twonky", (3, 3), N)]
    frame(board, robots, make_players(["Twonky"]))
    assert floor(board).image.tobytes() == first.image.tobytes()


def test_a_frame_of_a_busy_24x16_course_with_eight_robots_is_a_small_png():
    board = _busy_course()
    players = make_players(NAMES)
    robots = [Robot(n, (2 + i, 3 + 2 * i), i % 4, virtual=i % 3 == 0) for i, n in enumerate(NAMES)]
    data = png_bytes(frame(board, robots, players, "RR-7 turn 12: after stage 3"))
    assert data.startswith(b"\x89PNG")
    assert len(data) < 150_000
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.size == Layout(24, 16, CELL, strip_height(board, CELL, len(players))).size


def test_the_seeded_turn_gives_a_picture_per_stage_and_a_gif_of_them(seeded: SeededTurn, rendered):
    result = seeded.result
    assert [p.key for p in rendered.pictures] == (["start"] + [f"stage{k}" for k in range(1, result.phases_run + 1)]
                                                  + (["end"] if result.end_of_turn else []))
    size = floor(seeded.board, CELL, len(seeded.players)).layout.size
    for pic, robots in zip(rendered.pictures, result.frames, strict=True):
        img = Image.open(io.BytesIO(pic.data))
        img.load()
        assert img.size == size
        for p in seeded.players:
            robot = next(r for r in robots if r.name == p.robot)
            if robot.pos is not None:
                assert _count(img, seeded.board, robot.pos, p.rgb) > 0, (pic.key, p.robot)
    gif = Image.open(io.BytesIO(rendered.gif.data))
    assert gif.format == "GIF"
    # every stage picture, and in-between frames of the robots moving
    assert gif.n_frames > len(result.frames)
    assert gif.info.get("loop") == 0
    for i in range(gif.n_frames):
        gif.seek(i)
        assert gif.size == size


def test_a_destroyed_robot_leaves_a_wreck_in_its_stage_and_is_absent_from_the_picture_after(seeded: SeededTurn,
                                                                                             rendered):
    [death] = [e for e in seeded.result.events if e.text == "destroyed"]
    colour = next(p.rgb for p in seeded.players if p.robot == death.robot)
    [wreck] = rendered.frames[int(death.phase)].marks.wrecks
    assert wreck.robot == death.robot
    died = Image.open(io.BytesIO(rendered.pictures[int(death.phase)].data))
    assert _count(died, seeded.board, wreck.at, (24, 24, 24)) > 20  # the black cross
    darkened = tuple(round(c + (w - c) * 0.45) for c, w in zip(colour, WRECK, strict=True))
    assert _count(died, seeded.board, wreck.at, darkened) > 20
    img = _rgb(Image.open(io.BytesIO(rendered.pictures[int(death.phase) + 1].data)))
    board_box = Layout(seeded.board.width, seeded.board.height, CELL)
    x0, y0 = board_box.origin((seeded.board.height, 1))
    x1, y1 = board_box.origin((1, seeded.board.width))
    area = img.crop((x0, y0, x1 + CELL, y1 + CELL))
    assert not any(_near(px, colour, 6) for px in area.get_flattened_data())


def test_the_pictures_use_the_installed_dejavu_font():
    assert str(fonts.font(12).path).startswith(str(fonts.DEJAVU_DIR))


def test_without_dejavu_the_pictures_fall_back_to_pillows_own_font(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "DEJAVU_DIR", tmp_path / "no-fonts-here")
    fonts.font.cache_clear()
    try:
        assert not isinstance(fonts.font(12).path, str)
        board = build_board({"width": 4, "height": 3, "elements": [{"kind": "flag", "at": "r2c2", "number": 1}]})
        img = frame(board, [Robot("Twonky", (1, 1), N)], make_players(["Twonky"]), "caption")
        assert img.size == Layout(4, 3, CELL, strip_height(board, CELL, 1)).size
    finally:
        fonts.font.cache_clear()


def test_a_gif_needs_frames():
    with pytest.raises(ValueError, match="at least one frame"):
        gif_bytes([])
