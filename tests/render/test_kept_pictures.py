"""A course's floor and key are drawn once and kept on disk for the next process (issue 46): read back, they
are the same pixels; a change of the course or of the drawing gives another file; the directory stays
bounded; a directory that cannot be written only means drawing again.

Rulings cited (docs/rulings.md): 46.d2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from referee.boards import load_board
from referee.render import kept
from referee.render.board_image import draw_floor_anew
from referee.render.board_memo import forget
from referee.render.legend import legend_png


@pytest.fixture(autouse=True)
def a_new_process():
    """Each test starts as a new process does: nothing kept in memory (only on disk)."""
    for name in ("sprint", "factory"):
        forget(load_board(name))
    yield
    for name in ("sprint", "factory"):
        forget(load_board(name))


def test_the_floor_read_back_from_disk_is_the_floor_drawn_from_nothing(tmp_path: Path):
    board = load_board("sprint")
    drawn: list[int] = []

    def draw() -> Image.Image:
        drawn.append(1)
        return draw_floor_anew(board, 32)

    first = kept.kept_image(board, 32, "floor", draw, tmp_path)
    again = kept.kept_image(board, 32, "floor", draw, tmp_path)   # as the next process would
    assert drawn == [1] and len(list(tmp_path.glob("*-floor-32-*.png"))) == 1
    assert again.mode == first.mode == "RGB" and again.size == first.size
    assert ImageChops.difference(again, first).getbbox() is None


def test_the_key_is_made_once_then_read_from_disk_by_the_next_process(tmp_path: Path):
    board = load_board("sprint")
    made: list[int] = []

    def make() -> bytes:
        made.append(1)
        return legend_png(board, 32)

    data = kept.kept_png(board, 32, "key", make, tmp_path)
    forget(board)   # a new process: nothing kept in memory
    assert kept.kept_png(board, 32, "key", make, tmp_path) == data and made == [1]


def test_another_course_or_cell_size_or_drawing_gets_a_file_of_its_own(tmp_path: Path, monkeypatch):
    sprint, factory = load_board("sprint"), load_board("factory")
    keys = {kept.picture_key(sprint, 32, "floor"), kept.picture_key(factory, 32, "floor"),
            kept.picture_key(sprint, 24, "floor"), kept.picture_key(sprint, 32, "key")}
    assert len(keys) == 4
    before = kept.picture_key(sprint, 32, "floor")
    monkeypatch.setattr(kept, "drawing_digest", lambda: "a renderer that draws otherwise")
    assert kept.picture_key(sprint, 32, "floor") != before


def test_at_most_max_files_pictures_are_kept_the_newest(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(kept, "MAX_FILES", 3)
    board = load_board("sprint")
    for cell in (10, 11, 12, 13, 14):
        kept.kept_png(board, cell, "key", lambda c=cell: f"png {c}".encode(), tmp_path)
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert len(names) == 3 and all("-key-1" in n for n in names)
    assert not any(f"-key-{c}-" in n for n in names for c in (10, 11))


def test_a_directory_that_cannot_be_written_only_means_drawing_again(tmp_path: Path):
    board = load_board("sprint")
    blocked = tmp_path / "a file, not a directory"
    blocked.write_text("")
    assert kept.kept_png(board, 32, "key", lambda: b"drawn", blocked / "pictures") == b"drawn"
    forget(board)
    assert kept.kept_png(board, 32, "key", lambda: b"drawn again", blocked / "pictures") == b"drawn again"
