"""Eight robots on the widest course (factory, 24 squares), read on a 360 px phone and a 1200 px desktop in
a real browser: nothing scrolls sideways, neither the page nor a table inside it; on the phone each stage
shows the board cut around the reader's robot at its drawn size, with the whole board one link away and
in full after the stages; on the desktop the whole boards; the key comes after the stages. The pieces
are cut from the one picture every player gets, never drawn again.

Screenshots are kept in ``REFEREE_SCREENSHOTS`` (a directory) when it is set, to look at."""

from __future__ import annotations

import email
import io
import re
from email import policy
from pathlib import Path

import pytest
from PIL import Image

from referee.render.crops import COLUMNS, ROWS, crop_around, crop_box, followed
from referee.render.layout import Layout

from .big_game import ME, BigTurn, mail_of, play
from .browser import chromium_path, mail_page, measure, screenshot
from .test_mail_layout import _keep

PHONE, DESKTOP = 360, 1200
GMAIL_CLIPS = 102 * 1024


@pytest.fixture(scope="module")
def big() -> BigTurn:
    return play(3)


@pytest.fixture(scope="module")
def page(big: BigTurn, tmp_path_factory) -> Path:
    return mail_page(mail_of(big), tmp_path_factory.mktemp("big-mail"))


@pytest.fixture(scope="module")
def plain_page(page: Path, tmp_path_factory) -> Path:
    """The same mail as a client that drops style sheets shows it."""
    out = tmp_path_factory.mktemp("big-mail-plain")
    for f in page.parent.glob("*.png"):
        (out / f.name).write_bytes(f.read_bytes())
    for f in page.parent.glob("*.gif"):
        (out / f.name).write_bytes(f.read_bytes())
    plain = out / "mail.html"
    plain.write_text(re.sub(r"<style>.*?</style>", "", page.read_text(), flags=re.S))
    return plain


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_path()


def _crop_file(name: str) -> bool:
    return name.endswith(f"-{ME.lower()}.png")


def test_the_course_is_the_widest_and_eight_robots_play(big: BigTurn):
    assert big.board.width == 24 and len(big.players) == 8
    assert any(r.pos is not None for r in big.robots if r.name == ME)


def test_each_stage_table_has_a_row_per_robot_and_the_html_is_not_clipped_by_gmail(big: BigTurn, page: Path):
    html = page.read_text()
    assert len(html.encode()) < GMAIL_CLIPS
    tables = re.findall(r"<table.*?</table>", html, re.S)
    stage_tables = [t for t in tables if "data-robot" in t]
    assert len(stage_tables) == len(big.rendered.report.tables) >= 6  # five stages and the end of turn
    for table in stage_tables:
        assert len(re.findall(r'<tr data-robot="[^"]+"', table)) == 8
        assert table.count('class="mine"') == 1 and f'<tr data-robot="{ME}" class="mine"' in table


@pytest.mark.parametrize("styled", [True, False], ids=["style-sheet", "no-style-sheet"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_nothing_scrolls_sideways(chromium, page, plain_page, width, styled, tmp_path):
    seen = measure(chromium, page if styled else plain_page, width, tmp_path)
    assert seen["viewport"] == width
    assert seen["scrollingWidth"] <= width, f"the page is {seen['scrollingWidth']} px wide on a {width} px screen"
    assert seen["scrollers"] == [], "boxes that scroll sideways inside the page"
    for img in seen["images"]:
        assert img["complete"] and img["natural"] > 0, img
        assert img["box"]["right"] <= width, img


@pytest.mark.parametrize("styled", [True, False], ids=["style-sheet", "no-style-sheet"])
def test_on_a_phone_each_stage_shows_the_board_around_my_robot_at_its_drawn_size(chromium, page, plain_page,
                                                                                  styled, tmp_path):
    seen = measure(chromium, page if styled else plain_page, PHONE, tmp_path)
    assert len(seen["stages"]) >= 6
    for stage in seen["stages"]:
        assert stage["table"]["top"] >= stage["board"]["bottom"]  # the table under the piece, the page's width
        assert stage["table"]["width"] > PHONE * 0.9
    pieces = [img for img in seen["images"] if _crop_file(img["src"]) and img["box"]["width"] > 0]
    assert len(pieces) == len(seen["stages"]) + 1  # the start and each stage's picture
    for img in pieces:
        assert img["box"]["width"] == img["natural"] == COLUMNS * 32, img  # not scaled down: as drawn
    # the whole boards are not shown beside the pieces, only after the stages (and in the animation)
    whole = [img for img in seen["images"] if not _crop_file(img["src"]) and img["box"]["width"] > 0
             and re.search(r"-(start|stage\d|end)\.png$", img["src"])]
    assert [img["src"] for img in whole] == [f"{Path(pieces[-1]['src']).name.rsplit('-', 1)[0]}.png"]
    assert whole[0]["box"]["top"] > seen["stages"][-1]["table"]["bottom"]


def test_on_a_desktop_each_stage_shows_the_whole_board_beside_its_table(chromium, page, tmp_path):
    seen = measure(chromium, page, DESKTOP, tmp_path)
    for stage in seen["stages"]:
        assert stage["board"]["width"] == 24 * 32 + 2 * Layout(24, 28, 32).left  # the whole board, as drawn
        assert stage["table"]["left"] >= stage["board"]["right"] and stage["table"]["top"] < stage["board"]["bottom"]
    assert not [img for img in seen["images"] if _crop_file(img["src"]) and img["box"]["width"] > 0]


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_key_comes_after_the_stages(chromium, page, width, tmp_path):
    seen = measure(chromium, page, width, tmp_path)
    [key] = [img for img in seen["images"] if img["src"].endswith("-key.png")]
    assert key["box"]["top"] > seen["stages"][-1]["table"]["bottom"]


def test_each_piece_links_to_its_whole_board(page: Path):
    html = page.read_text()
    links = re.findall(r'<a class="crop" href="([^"]+)"[^>]*><img src="([^"]+)"', html)
    assert len(links) >= 7
    for whole, piece in links:
        assert _crop_file(piece) and whole == piece.replace(f"-{ME.lower()}.png", ".png")
        assert f'<a href="{whole}">The whole board</a>' in html


def test_a_piece_is_cut_from_the_picture_every_player_gets(big: BigTurn):
    msg = email.message_from_bytes(bytes(mail_of(big)), policy=policy.default)
    images = {p.get_filename(): Image.open(io.BytesIO(p.get_content())) for p in msg.walk()
              if p.get_content_maintype() == "image"}
    lay = Layout(big.board.width, big.board.height, 32)
    where = followed(big.rendered.squares, ME)
    for fr, sq in zip(big.rendered.frames, where, strict=True):
        whole = images[f"{big.rendered.pictures[0].filename.rsplit('-', 1)[0]}-{fr.key}.png"]
        piece = images[f"{big.rendered.pictures[0].filename.rsplit('-', 1)[0]}-{fr.key}-{ME.lower()}.png"]
        assert sq is not None
        box = crop_box(lay, sq)
        assert box is not None
        assert piece.convert("RGB").tobytes() == whole.convert("RGB").crop(box).tobytes()


def test_the_piece_has_the_robot_in_the_middle_and_stays_on_the_board_at_an_edge():
    lay = Layout(24, 28, 32)
    image = Image.new("RGB", lay.size)
    middle = crop_box(lay, (14, 12))
    assert middle is not None
    cx, cy = lay.centre((14, 12))
    left, top, right, bottom = middle
    assert (right - left, bottom - top) == (COLUMNS * 32, ROWS * 32)
    assert abs((left + right) / 2 - cx) <= 16 and abs((top + bottom) / 2 - cy) <= 16
    corner = crop_box(lay, (1, 1))  # bottom left: the labels of row 1 and column 1 are in the piece
    assert corner is not None and corner[0] == 0 and corner[3] == lay.top + 28 * 32 + lay.band[0]
    piece = crop_around(image, lay, (28, 24))
    assert piece is not None and piece.size == (COLUMNS * 32, ROWS * 32)
    assert crop_box(Layout(12, 28, 32), (4, 4)) is None  # a 12-wide board is read whole, however tall


def test_a_destroyed_robot_is_followed_to_where_it_was_last_seen():
    squares = [{"Zoom": (3, 3)}, {"Zoom": (3, 4)}, {}, {}, {"Zoom": (1, 2)}]
    assert followed(squares, "Zoom") == [(3, 3), (3, 4), (3, 4), (3, 4), (1, 2)]
    assert followed([{}, {"Zoom": (5, 5)}], "Zoom") == [(5, 5), (5, 5)]
    assert followed([{}, {}], "Zoom") == [None, None]


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_screen_shows_the_first_picture_as_drawn(chromium, page, width, tmp_path):
    """On the phone the piece around my robot, on the desktop the whole board: pixel for pixel."""
    seen = measure(chromium, page, width, tmp_path)
    first = next(img for img in seen["images"] if img["box"]["width"] > 0 and ".png" in img["src"])
    assert _crop_file(first["src"]) == (width == PHONE)
    out = tmp_path / f"big-turn-mail-{width}.png"
    screen = screenshot(chromium, page, width, int(first["box"]["bottom"]) + 10, out, tmp_path)
    _keep(out)
    box = tuple(round(first["box"][k]) for k in ("left", "top", "right", "bottom"))
    with Image.open(page.parent / first["src"]) as drawn:
        shown = screen.crop(box)
        assert shown.size == drawn.size
        diff = sum(abs(a - b) for a, b in zip(shown.tobytes(), drawn.convert("RGB").tobytes(), strict=True))
        assert diff / len(shown.tobytes()) < 4, "the screen does not show the picture as drawn"


def test_a_piece_whose_whole_board_the_mail_leaves_out_is_shown_on_every_screen(big: BigTurn):
    """A mail kept light may carry the pieces without some whole boards: those pieces are not hidden on a
    wide screen (there is nothing to show instead) and link nowhere."""
    from referee.render.mail import turn_mail

    r = big.rendered
    kept = [p for p in r.pictures if p.key in ("start", "end")]
    msg = turn_mail(report=r.report, pictures=kept, gif=None, legend=r.legend, sender="referee@example.test",
                    recipient="p@example.test", subject="s", domain="example.test", crops=r.crops(ME))
    html = msg.get_body(("html",)).get_content()  # type: ignore[union-attr]
    pieces = re.findall(r'(<a class="crop" href="[^"]+" style="display:block">)?<img src="cid:[^"]*around[^"]*"', html)
    assert len(pieces) == len(r.pictures)
    assert [bool(link) for link in pieces] == [p.key in ("start", "end") for p in r.pictures]
