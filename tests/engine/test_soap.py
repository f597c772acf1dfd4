"""Soap: turn cards on soap are doubled; a movement card from soap loses its first square.

Rulings cited (docs/rulings.md): 14.4.
"""

from .scenarios import element, play, robot

SUDS = [element("soap", "r3c3-r3c5")]


def test_a_quarter_turn_on_soap_becomes_a_u_turn():
    p = play(SUDS, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "S"
    p = play(SUDS, [robot("Twonky", "r3c4", "N")], {"Twonky": ["LF90 70"]})
    assert p.facing("Twonky") == "S"


def test_a_u_turn_on_soap_goes_full_circle():
    p = play(SUDS, [robot("Twonky", "r3c4", "E")], {"Twonky": ["UTRN 10"]})
    assert p.facing("Twonky") == "E"


def test_a_movement_card_from_soap_loses_its_first_square():
    p = play(SUDS, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"
    p = play(SUDS, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"


def test_a_robot_moving_onto_soap_is_not_slowed_and_turns_normally_off_it():
    p = play(SUDS, [robot("Twonky", "r1c4", "N")], {"Twonky": ["FWD2 670", "RT90 80"]}, phases=2)
    assert p.at("Twonky") == "r3c4"
    assert p.facing("Twonky") == "S"  # the turn in phase 2 is made on the soap: doubled
    p = play(SUDS, [robot("Twonky", "r2c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "E"
