"""Alternative ground plates are open floor in every way.

Rulings cited (docs/rulings.md): 13.8.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import belt, crusher, element, play, robot


def test_a_plate_is_open_floor_to_move_over_stop_and_turn_on():
    plates = [element("plate", "r3c4-r5c4")]
    p = play(plates, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800", "RT90 80"]}, phases=2)
    assert p.at("Twonky") == "r5c4" and p.facing("Twonky") == "E"
    assert p.damage("Twonky") == 0


def test_a_crusher_on_a_plate_still_crushes():
    p = play([element("plate", "r3c4"), crusher("r3c4", 1)], [robot("Twonky", "r3c4", "N")], {})
    assert p.at("Twonky") is None


def test_a_plate_is_a_floor_so_it_cannot_share_a_square_with_a_belt():
    with pytest.raises(ScenarioError, match="already has a plate"):
        play([element("plate", "r3c4"), belt("r3c4", "N")], [robot("Twonky", "r1c1", "N")], {})
