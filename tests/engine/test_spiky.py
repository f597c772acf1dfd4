"""Spiky walls: walls that do 1 damage to a robot running, pushed or carried against them.

Rulings cited (docs/rulings.md): 13.9.
"""

import pytest

from referee.engine import BoardError

from .scenarios import belt, element, engine_board, laser, play, pusher, robot

SPIKES = element("spiky_wall", "r3c4", sides=["N"])


def test_running_against_a_spiky_wall_costs_one_and_stops_the_robot():
    p = play([SPIKES], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800"]})
    assert p.at("Twonky") == "r3c4"
    assert [e["cause"] for e in p.hits("Twonky")] == ["spiky wall"]


def test_both_faces_are_spiky_and_a_back_up_hurts_too():
    p = play([SPIKES], [robot("Twonky", "r4c4", "N")], {"Twonky": ["BACK 430"]})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 1


def test_a_robot_pushed_against_it_is_hurt_and_its_pusher_is_not():
    robots = [robot("Shover", "r2c4", "N"), robot("Box", "r3c4", "E")]
    p = play([SPIKES], robots, {"Shover": ["FWD1 490"]})
    assert (p.at("Shover"), p.at("Box")) == ("r2c4", "r3c4")
    assert [e["cause"] for e in p.hits("Box", step="robots")] == ["spiky wall"]  # Shover's laser adds one later
    assert p.damage("Shover") == 0


def test_a_pusher_or_a_belt_pressing_a_robot_against_it_hurts():
    p = play([SPIKES, pusher("r3c4", "N", 1)], [robot("Twonky", "r3c4", "E")], {})
    assert p.damage("Twonky") == 1
    p = play([SPIKES, belt("r3c4", "N")], [robot("Twonky", "r3c4", "E")], {}, phases=2)
    assert p.damage("Twonky") == 2


def test_a_spiky_wall_stops_lasers_like_a_wall():
    p = play([SPIKES, laser("r6c4", "S")], [robot("Twonky", "r2c4", "E")], {})
    assert p.damage("Twonky") == 0


def test_walking_along_a_spiky_wall_is_safe():
    p = play([SPIKES], [robot("Twonky", "r3c3", "E")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c5" and p.damage("Twonky") == 0


# -- rules version 3 (issue 33): the board file's order must never decide what a side does
@pytest.mark.parametrize("other", [
    {"kind": "force_field", "at": "r3c4", "sides": ["N"]},
    {"kind": "barricade", "at": "r4c4", "sides": ["S"]},  # the same side, seen from the square beyond
    {"kind": "loophole", "at": "r3c4", "sides": ["N"]},
])
def test_a_spiky_wall_sharing_its_side_with_another_special_side_element_is_refused_in_either_order(other):
    spiky = {"kind": "spiky_wall", "at": "r3c4", "sides": ["N"]}
    for elements in ([spiky, other], [other, spiky]):
        with pytest.raises(BoardError, match="side r3c4 N holds both"):
            engine_board(elements, 8, 8)


def test_two_barricades_on_one_side_are_refused_and_one_on_each_side_is_fine():
    with pytest.raises(BoardError, match="holds both a barricade and a barricade"):
        engine_board([{"kind": "barricade", "at": "r3c4", "sides": ["E"], "strength": 1},
                      {"kind": "barricade", "at": "r3c5", "sides": ["W"], "strength": 3}], 8, 8)
    engine_board([{"kind": "barricade", "at": "r3c4", "sides": ["E", "N"]},
                  {"kind": "spiky_wall", "at": "r3c4", "sides": ["S", "W"]}], 8, 8)
