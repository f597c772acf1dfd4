"""The top of a player's turn mail tells what happened to their own robot this turn, in the text part and in
the HTML part: who pushed it into what, where and with which card; where it stands now and its lives; its
flags and the next one. Checked as golden files for three turns, and in a real browser on a phone."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest

from .browser import chromium_path, measure, screenshot
from .golden import check_golden
from .stories import STORIES, story_mail
from .test_mail_layout import _keep


def _bodies(name: str) -> tuple[str, str]:
    msg = story_mail(STORIES[name])
    text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")  # type: ignore[union-attr]
    html = msg.get_body(("html",)).get_content().replace("\r\n", "\n")  # type: ignore[union-attr]
    return text, html


def test_a_robot_pushed_into_a_pit_is_told_by_whom_with_which_card_where_and_where_it_came_back():
    text, html = _bodies("pushed-into-pit")
    assert text.startswith("Zoom, turn 6: pushed by Twonky (FWD3 790) into the pit at r3c5 in register 3;\n"
                           "re-entered at r5c6 facing W")
    story = " ".join(text.split("\n\n")[0].split("\n"))
    assert "Took 1 damage from Twonky's laser." in story  # (in register 1, before the push: what hit it, by whom)
    assert story.endswith("Now at r5c6 facing W, 8 HP (2 damage), 2 robots left. Flags 0/2. Next flag: 1 at r1c8, "
                          "6 squares away.")
    assert "pushed by Twonky (FWD3 790) into the pit at r3c5 in register 3" in html


def test_a_robot_that_touches_a_flag_is_told_which_and_how_far_the_next_one_is():
    text, _ = _bodies("wins-a-flag")
    assert text.startswith("Zoom, turn 6: moved 2 squares by its cards; touched flag 1 in register 2.\n")
    assert "Flags 1/2. Next flag: 2\nat r6c1, 12 squares away.\n" in text


def test_a_robot_that_draws_an_option_card_is_told_its_name():
    text, _ = _bodies("draws-an-option")
    assert text.startswith("Zoom, turn 6: drew the option card Pressor Beam.\n")


def test_a_powered_down_robot_is_told_it_was_down_and_repaired():
    scenario = {**STORIES["draws-an-option"], "robots": [
        {"name": "Zoom", "at": "r2c2", "facing": "N", "damage": 3, "powered_down": True},
        {"name": "Twonky", "at": "r5c2", "facing": "S"}]}
    scenario["programs"] = {"Twonky": scenario["programs"]["Twonky"]}
    text = story_mail(scenario).get_body(("plain",)).get_content()  # type: ignore[union-attr]
    # repaired as the turn began, then Twonky's laser hit it twice
    assert text.startswith("Zoom, turn 6: powered down; stayed at r2c2.\n"
                           "Repaired 3; took 2 damage from Twonky's laser.\n"
                           "Now at r2c2 facing N, 8 HP (2 damage)")


@pytest.mark.parametrize("name", sorted(STORIES))
def test_the_story_mails_match_their_golden_files(name):
    text, html = _bodies(name)
    check_golden(f"story-{name}.txt", text)
    check_golden(f"story-{name}.html", html)


def test_the_programs_block_lists_every_robots_cards_with_fused_registers_marked():
    text, html = _bodies("pushed-into-pit")
    block = text[text.index("Programs: every robot's cards this turn"):]
    assert "Zoom        RT90 80   LF90 70   FWD1 490  -         -" in block  # destroyed in register 3
    assert "Twonky      LF90 90   RT90 100  FWD3 790  UTRN 10   RVS1 440*" in block  # fused: 5 damage
    assert "Programs: every robot's cards this turn" in html


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_path()


def _page(name: str, out: Path) -> Path:
    msg = email.message_from_bytes(bytes(story_mail(STORIES[name])), policy=policy.default)
    html = msg.get_body(("html",)).get_content()  # type: ignore[union-attr]
    for part in msg.walk():
        if part.get_content_maintype() == "image":
            (out / part.get_filename()).write_bytes(part.get_content())
            html = html.replace(f'cid:{part["Content-ID"].strip("<>")}', part.get_filename())
    page = out / f"story-{name}.html"
    page.write_text(html)
    return page


@pytest.mark.parametrize("width", [360, 1200])
@pytest.mark.parametrize("name", sorted(STORIES))
def test_the_story_is_on_the_first_screen_and_nothing_runs_off_it_sideways(chromium, name, width, tmp_path):
    page = _page(name, tmp_path)
    seen = measure(chromium, page, width, tmp_path)
    assert seen["scrollWidth"] <= width, f"the page is {seen['scrollWidth']} px wide on a {width} px screen"
    story = seen["story"]
    assert story is not None and story["top"] >= 0 and story["bottom"] <= 640, story  # a phone's first screen
    assert story["right"] <= width
    shot = tmp_path / f"story-{name}-{width}.png"
    screenshot(chromium, page, width, 640, shot, tmp_path)
    _keep(shot)
