"""The program deck: 84 cards, their priorities, both spellings, and nothing outside the deck."""

import pytest

from referee.boards.scenario import ScenarioError, simulate
from referee.engine import DECK, CardError, parse_card

from .scenarios import bot, run, scenario

# the deck as the rule texts describe it: type -> (count, first priority, step)
DECK_TABLE = {
    "UTRN": (6, 10, 10),
    "LF90": (18, 70, 20),
    "RT90": (18, 80, 20),
    "RVS1": (6, 430, 10),
    "FWD1": (18, 490, 10),
    "FWD2": (12, 670, 10),
    "FWD3": (6, 790, 10),
}
POSTAL = {"FWD1": "Move-1", "FWD2": "Move-2", "FWD3": "Move-3", "RVS1": "Back", "LF90": "Left",
          "RT90": "Right", "UTRN": "U-Turn"}


def test_the_deck_holds_84_cards_with_84_different_priorities():
    assert len(DECK) == 84
    assert len({c.priority for c in DECK}) == 84


@pytest.mark.parametrize("code", list(DECK_TABLE))
def test_each_card_type_has_its_count_and_priority_run(code):
    count, first, step = DECK_TABLE[code]
    priorities = sorted(c.priority for c in DECK if c.type.code == code)
    assert priorities == [first + i * step for i in range(count)]


@pytest.mark.parametrize("code", list(POSTAL))
def test_the_postal_spelling_names_the_same_card(code):
    _, first, _ = DECK_TABLE[code]
    report = parse_card(f"{code} {first}")
    assert parse_card(f"{POSTAL[code]} P{first}") == report
    assert parse_card(f"{POSTAL[code]} {first}") == report
    assert parse_card(f"{code} P{first}") == report
    assert str(report) == f"{code} {first}"


@pytest.mark.parametrize("text", ["FWD2 675", "FWD1 670", "UTRN 70", "FWD3 850", "LF90 80", "Move-1 P0"])
def test_a_card_that_is_not_in_the_deck_is_refused(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_a_program_in_postal_spelling_plays_exactly_like_the_report_spelling():
    robots = [bot("Twonky", "r3c4", "N")]
    report = run(robots, {"Twonky": ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"]})
    postal = run(robots, {"Twonky": ["Move-2 P670", "Right P80", "Move-1 P490", "Back P430", "U-Turn P10"]})
    assert postal.doc == report.doc
    # N, two up to r5c4; right to E; one east to r5c5; back one to r5c4; about face to W
    assert report.at("Twonky") == "r5c4"
    assert report.facing("Twonky") == "W"


def test_a_scenario_with_a_card_outside_the_deck_is_refused():
    doc = scenario([bot("Twonky", "r3c4")], {"Twonky": ["FWD2 675", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"]})
    with pytest.raises(ScenarioError, match="675"):
        simulate(doc)
