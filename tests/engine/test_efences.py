"""E-fences: in their active phases they stop robots crossing their sides either way; lasers pass.

Rulings cited (docs/rulings.md): 13.3.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import belt, element, laser, play, pusher, robot

FENCE = element("efence", "r3c4", sides=["N"], phases=[1, 3, 5])


def test_an_active_e_fence_stops_a_robot_either_way():
    p = play([FENCE], [robot("Up", "r3c4", "N")], {"Up": ["FWD2 670"]})
    assert p.at("Up") == "r3c4"
    p = play([FENCE], [robot("Down", "r4c4", "S")], {"Down": ["BACK 430"]})
    assert p.at("Down") == "r5c4"
    p = play([FENCE], [robot("Down", "r4c4", "S")], {"Down": ["FWD1 490"]})
    assert p.at("Down") == "r4c4"


def test_in_an_inactive_phase_the_fence_is_an_open_side():
    """Phase 1 the fence stops the Move 1; phase 2 it is off and the robot walks through."""
    p = play([FENCE], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert p.events("Twonky", phase=1, text="obstruction encountered")
    assert p.at("Twonky") == "r4c4"


def test_an_active_fence_stops_pushers_and_belts_too():
    p = play([FENCE, pusher("r3c4", "N", 1)], [robot("Twonky", "r3c4", "E")], {})
    assert p.at("Twonky") == "r3c4"
    p = play([FENCE, belt("r4c4", "S")], [robot("Twonky", "r4c4", "E")], {}, phases=2)
    assert p.at("Twonky") == "r3c4"  # held in phase 1, carried through in phase 2


def test_lasers_pass_an_e_fence():
    p = play([FENCE, laser("r6c4", "S")], [robot("Twonky", "r3c4", "E")], {})
    assert p.damage("Twonky") == 1


def test_an_e_fence_needs_its_phases():
    with pytest.raises(ScenarioError, match="efence needs field 'phases'"):
        play([element("efence", "r3c4", sides=["N"])], [robot("Twonky", "r1c1", "N")], {})
