"""Elevators: open floor up or down; coming down (as a phase begins) they crush the robots under them.

Rulings cited (docs/rulings.md): 13.11.
"""

from .scenarios import belt, element, play, robot

LIFT = element("elevator", "r3c4", phases=[1, 2])  # up in 1 and 2, comes down as phase 3 begins


def test_an_elevator_is_open_floor_while_up():
    p = play([LIFT], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670", "BACK 430"]}, phases=2)
    assert p.events("Twonky", phase=1, text="move to r4c4")
    assert p.at("Twonky") == "r3c4" and p.damage("Twonky") == 0


def test_coming_down_it_crushes_a_robot_under_it_before_anyone_moves():
    p = play([LIFT], [robot("Twonky", "r3c4", "E")], {"Twonky": ["LF90 410", "RT90 80", "FWD3 800"]}, phases=3)
    assert p.at("Twonky") is None
    crushed = p.events("Twonky", phase=3)[0]
    assert crushed["text"] == "destroyed" and crushed["cause"] == "elevator"


def test_while_it_stays_down_it_is_open_floor():
    p = play([LIFT], [robot("Twonky", "r2c4", "N")], {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40",
                                                                  "FWD1 490"]}, phases=5)
    assert p.at("Twonky") == "r3c4"  # down in phases 3-5: stepped on in phase 5, no harm
    assert p.damage("Twonky") == 0


def test_an_elevator_up_in_phase_5_comes_down_as_the_next_turn_begins():
    lift = element("elevator", "r3c4", phases=[5])
    p = play([lift], [robot("Twonky", "r3c4", "N", virtual=True)], {})
    assert p.at("Twonky") is None  # phase 1 follows the last turn's phase 5: virtual robots are crushed too


def test_a_robot_a_belt_leaves_under_the_raised_elevator_is_crushed_when_it_comes_down():
    p = play([LIFT, belt("r3c3", "E")], [robot("Twonky", "r3c3", "N")], {}, phases=3)
    assert p.events("Twonky", phase=1, text="conveyed to r3c4")
    assert p.at("Twonky") is None
    assert p.events("Twonky", phase=3, text="destroyed")
