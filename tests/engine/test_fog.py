"""Fog, smoke and smokestacks: robots cannot see into or through them; movement and board lasers go on.

Rulings cited (docs/rulings.md): 14.10.
"""

import pytest

from .scenarios import element, laser, play, robot

DUEL = [robot("Twonky", "r2c4", "N"), robot("Hulk", "r6c4", "S")]


@pytest.mark.parametrize("kind", ["fog", "smoke"])
def test_robots_cannot_shoot_through_fog_or_smoke(kind):
    p = play([element(kind, "r4c4")], DUEL, {})
    assert p.damage("Twonky") == 0 and p.damage("Hulk") == 0
    p = play([], DUEL, {})  # the same duel in clear air
    assert p.damage("Twonky") == 1 and p.damage("Hulk") == 1


def test_a_robot_in_the_fog_is_not_seen_and_sees_nothing():
    p = play([element("fog", "r6c4")], DUEL, {})
    assert p.damage("Hulk") == 0  # Twonky cannot see into the fog
    assert p.damage("Twonky") == 0  # Hulk, in it, never fires
    assert p.events("Hulk", phase=1, step="lasers") == []


def test_fog_does_not_hinder_movement_and_board_lasers_shine_through_it():
    p = play([element("fog", "r3c4-r4c4")], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800"]})
    assert p.at("Twonky") == "r5c4"
    p = play([element("fog", "r3c4"), laser("r3c1", "E")], [robot("Twonky", "r3c4", "N")], {})
    assert p.damage("Twonky") == 1


def test_a_smokestack_is_a_pit_that_hides_what_is_behind_it():
    p = play([element("smokestack", "r4c4")], DUEL, {})
    assert p.damage("Hulk") == 0 and p.damage("Twonky") == 0
    p = play([element("smokestack", "r4c4")], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None


def test_fog_hides_a_mirror():
    elements = [element("mirror", "r6c4", sides=["N"]), element("fog", "r5c4")]
    p = play(elements, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4"  # not mirrored
    assert p.damage("Twonky") == 0
