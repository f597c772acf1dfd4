"""The turn mail's HTML on a phone (375 px) and on a desktop (1200 px), in a real browser: nothing runs off
the screen sideways, the board pictures are shown and scaled to fit, a stage's table stands beside its
picture when there is room and under it when not, and the hand's heading reads as one line.

Screenshots are kept in ``REFEREE_SCREENSHOTS`` (a directory) when it is set, to look at."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from .browser import chromium_path, measure, screenshot
from .browser import mail_page as write_page

SMALL_PHONE, PHONE, DESKTOP = 360, 375, 1200


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_path()


@pytest.fixture(scope="module")
def mail_page(my_mail, tmp_path_factory) -> Path:
    """The mail's HTML as a file, its cid: pictures written beside it (what a mail client does)."""
    return write_page(my_mail, tmp_path_factory.mktemp("mail"))


def _keep(shot: Path) -> None:
    keep = os.environ.get("REFEREE_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)


@pytest.mark.parametrize("width", [SMALL_PHONE, PHONE, DESKTOP])
def test_nothing_runs_off_the_screen_and_every_picture_shows_scaled_to_fit(chromium, mail_page, width, tmp_path):
    seen = measure(chromium, mail_page, width, tmp_path)
    assert seen["viewport"] == width
    assert seen["scrollWidth"] <= width, f"the page is {seen['scrollWidth']} px wide on a {width} px screen"
    assert seen["images"]
    for img in seen["images"]:
        assert img["complete"] and img["natural"] > 0, img
        assert 0 < img["box"]["width"] <= width and img["box"]["left"] >= 0 and img["box"]["right"] <= width, img
    boards = [img for img in seen["images"] if re.search(r"-(start|stage\d|end)\.png$", img["src"])]
    if width < DESKTOP:
        # the board is wider than a phone: it is scaled down to the screen, not cut off
        assert all(img["natural"] > width - 16 >= img["box"]["width"] for img in boards), boards
    else:
        assert all(img["box"]["width"] == img["natural"] for img in boards), boards
    # the hand's heading runs across the page, not down a sliver beside the cards
    assert seen["hand"]["width"] > (width - 16) * 0.9, seen["hand"]


def test_a_stages_table_stands_beside_its_picture_on_a_desktop_and_under_it_on_a_phone(chromium, mail_page, tmp_path):
    wide = measure(chromium, mail_page, DESKTOP, tmp_path)["stages"]
    narrow = measure(chromium, mail_page, PHONE, tmp_path)["stages"]
    assert len(wide) == len(narrow) >= 5
    for stage in wide:
        assert stage["table"]["left"] >= stage["board"]["right"] and stage["table"]["top"] < stage["board"]["bottom"]
    for stage in narrow:
        assert stage["table"]["top"] >= stage["board"]["bottom"]


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_screenshot_shows_the_board(chromium, mail_page, rendered, width, tmp_path):
    out = tmp_path / f"turn-mail-{width}.png"
    screen = screenshot(chromium, mail_page, width, 2400, out, tmp_path)
    _keep(out)
    with Image.open(mail_page.parent / rendered.pictures[0].filename) as board:
        _, floor = max(board.convert("RGB").getcolors(board.width * board.height) or [(0, None)])
    share = sum(n for n, c in screen.getcolors(screen.width * screen.height) or [] if c == floor) / (width * 2400)
    assert share > 0.03, f"the floor's colour covers only {share:.1%} of the screenshot"
