"""Repeaters: a robot whose movement card moves it onto a repeater executes the card once more.

Rulings cited (docs/rulings.md): 15.11.
"""

from __future__ import annotations

from .scenarios import belt, element, laser, play, robot, wall


def repeater(at: str) -> dict[str, str]:
    return element("repeater", at)


def test_a_movement_card_ending_on_a_repeater_is_executed_again():
    p = play([repeater("r3c3")], [robot("Twonky", "r1c3", "N")], {"Twonky": ["FWD2 670"]}, phases=1)
    assert p.texts("Twonky", 1, step="robots") == ["move to r3c3", "repeats FWD2 670", "move to r5c3"]
    assert p.at("Twonky") == "r5c3"


def test_a_repetition_ending_on_another_repeater_repeats_again_and_back_ups_repeat_too():
    p = play([repeater("r5c3"), repeater("r4c3")], [robot("Twonky", "r6c3", "N")], {"Twonky": ["RVS1 430"]},
             phases=1)
    assert p.texts("Twonky", 1, step="robots") == ["move to r5c3", "repeats RVS1 430", "move to r4c3",
                                                    "repeats RVS1 430", "move to r3c3"]


def test_a_repeated_card_pushes_and_is_blocked_as_any_card():
    elements = [repeater("r2c3"), wall("r4c3", "N")]
    robots = [robot("Twonky", "r1c3", "N"), robot("Hulk", "r3c3", "E")]
    p = play(elements, robots, {"Twonky": ["FWD1 490"]}, phases=1)
    assert p.at("Twonky") == "r3c3" and p.at("Hulk") == "r4c3"  # the repeat pushes Hulk on
    p = play([repeater("r2c3"), wall("r2c3", "N")], [robot("Twonky", "r1c3", "N")], {"Twonky": ["FWD2 670"]},
             phases=1)
    # repeated once against the wall; the repeat leaves it where it was, so it is not repeated again
    assert p.texts("Twonky", 1, step="robots") == ["move to r2c3", "obstruction encountered", "repeats FWD2 670",
                                                    "obstruction encountered"]


def test_turn_cards_belts_and_virtual_robots():
    p = play([repeater("r3c3"), belt("r2c3", "N")], [robot("Twonky", "r2c3", "N")], {"Twonky": ["RT90 80"]},
             phases=1)
    assert p.at("Twonky") == "r3c3" and not p.events("Twonky", text="repeats RT90 80")
    robots = [robot("Ghost", "r1c3", "N", virtual=True), robot("Hulk", "r4c3", "N")]
    p = play([repeater("r2c3"), laser("r3c8", "W")], robots, {"Ghost": ["FWD1 490"]}, phases=1)
    assert p.at("Ghost") == "r3c3"  # repeated, and in the board laser's beam
    assert p.damage("Ghost") == 1


# -- rules version 3 (issue 33): "Occurs after the Robots Move segment ... If several robots are repeating
# their movement cards, they are executed in normal priority order."
#: Hulk's registers 2-5 (phase 1 only runs; the filler cards go to Twonky)
SPARE = ["LF90 70", "LF90 90", "RT90 80", "RT90 100"]


def test_the_repeat_comes_after_every_robot_has_moved():
    """Twonky (490) steps onto the repeater; Hulk (450) then backs into the square ahead of it; only then
    does Twonky repeat its Move 1, pushing Hulk on."""
    robots = [robot("Twonky", "r1c3", "N"), robot("Hulk", "r3c4", "E")]
    p = play([repeater("r2c3")], robots, {"Twonky": ["FWD1 490"], "Hulk": ["RVS1 450", *SPARE]}, phases=1)
    assert p.texts("Twonky", 1, step="robots") == ["move to r2c3", "repeats FWD1 490", "move to r3c3"]
    assert p.at("Twonky") == "r3c3" and p.at("Hulk") == "r4c3"


def test_house_rule_repeat_at_once_repeats_before_the_next_robot_moves():
    robots = [robot("Twonky", "r1c3", "N"), robot("Hulk", "r3c4", "E")]
    p = play([repeater("r2c3")], robots, {"Twonky": ["FWD1 490"], "Hulk": ["RVS1 450", *SPARE]}, phases=1,
             rules={"repeat_at_once": True})
    assert p.at("Twonky") == "r3c2" and p.at("Hulk") == "r3c3"  # Hulk came later and pushed Twonky aside


def test_several_repeating_robots_repeat_in_priority_order():
    """Both back onto repeaters; the higher priority repeats first, and the other's repeat pushes it."""
    elements = [repeater("r2c3"), repeater("r3c2")]
    robots = [robot("Twonky", "r1c3", "S"), robot("Hulk", "r3c1", "W")]
    p = play(elements, robots, {"Twonky": ["RVS1 460"], "Hulk": ["RVS1 440", *SPARE]}, phases=1)
    assert p.at("Twonky") == "r3c4" and p.at("Hulk") == "r3c3"
    p = play(elements, robots, {"Twonky": ["RVS1 440"], "Hulk": ["RVS1 460", *SPARE]}, phases=1)
    assert p.at("Twonky") == "r3c3" and p.at("Hulk") == "r4c3"


def test_a_robot_pushed_off_its_repeater_before_the_repeats_does_not_repeat():
    """Hulk (450) backs onto the repeater Twonky's card ended on, pushing it off: only Hulk repeats."""
    robots = [robot("Twonky", "r1c3", "N"), robot("Hulk", "r2c2", "W")]
    p = play([repeater("r2c3")], robots, {"Twonky": ["FWD1 490"], "Hulk": ["RVS1 450", *SPARE]}, phases=1)
    assert not p.events("Twonky", text="repeats FWD1 490")
    assert p.at("Hulk") == "r2c4" and p.at("Twonky") == "r2c5"
