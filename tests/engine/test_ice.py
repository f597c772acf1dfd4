"""Ice: a robot on ice plays its cards on the spin chart; the momentum carries it until it leaves the ice.

Rulings cited (docs/rulings.md): 14.1.
"""

from .scenarios import element, play, robot, wall

RINK = [element("ice", "r2c1-r2c8"), element("ice", "r3c1-r3c8"), element("ice", "r4c1-r4c8")]


def test_the_card_that_brings_a_robot_onto_ice_is_executed_normally():
    p = play(RINK, [robot("Twonky", "r1c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r2c4"


def test_momentum_adds_up_card_after_card_while_the_robot_stays_on_ice():
    """Move 1 east, then a right turn: the robot still glides one east, and turns; then a Move 1
    (now facing south) adds one south: it glides one east and one south, and turns right again."""
    p = play(RINK, [robot("Twonky", "r3c2", "E")], {"Twonky": ["FWD1 490", "RT90 80", "FWD1 500"]}, phases=3)
    assert p.texts("Twonky", 1) == ["move to r3c3"]
    assert p.texts("Twonky", 2) == ["move to r3c4", "face S"]
    assert p.at("Twonky") == "r2c5"
    assert p.facing("Twonky") == "W"


def test_a_turn_on_ice_keeps_spinning_the_robot():
    p = play(RINK, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80", "UTRN 10", "LF90 70"]}, phases=3)
    assert p.at("Twonky") == "r3c4"
    # spin 1, then 1 + 2 = 3, then 3 + 3 = 2 (mod 4): E, then E + 3 = N, then N + 2 = S
    assert [p.texts("Twonky", ph) for ph in (1, 2, 3)] == [["face E"], ["face N"],
                                                          ["face S"]]


def test_leaving_the_ice_ends_the_move_and_loses_the_momentum():
    p = play(RINK, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD3 800", "FWD1 490"]}, phases=2)
    assert p.texts("Twonky", 1) == ["move to r5c4"]  # off the ice at r5c4: the third square is lost
    assert p.at("Twonky") == "r6c4"  # then a normal card from dry floor


def test_a_wall_cancels_that_part_of_the_momentum():
    walls = [*RINK, wall("r3c5", "E")]
    p = play(walls, [robot("Twonky", "r3c4", "E")], {"Twonky": ["FWD2 670", "FWD1 490"]}, phases=2)
    assert p.texts("Twonky", 1) == ["move to r3c5", "obstruction encountered"]
    assert p.texts("Twonky", 2) == ["obstruction encountered"]  # momentum 0 + 1 east: still the wall
    assert p.at("Twonky") == "r3c5"


def test_a_robot_gliding_on_ice_pushes_as_a_card_does():
    p = play(RINK, [robot("Twonky", "r3c2", "E"), robot("Hulk", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c4" and p.at("Hulk") == "r3c5"
