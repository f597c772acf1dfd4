"""Padded walls: a robot on padding that runs or bounces into one comes back and moves on the other way.

Rulings cited (docs/rulings.md): 13.26.
"""

from .scenarios import element, laser, play, robot

PADDING = element("padded", "r3c4-r7c4")
RUBBER = element("padded_wall", "r7c4", sides=["N"])  # the north side of the padded strip's end


def test_running_into_a_padded_wall_counts_one_square_and_the_rest_goes_backwards():
    # Move 3 from r6c4: one square to r7c4, one into the rubber and back, one backwards to r6c4;
    # the card ended on padding after three squares, so it bounces three more squares south.
    p = play([PADDING, RUBBER], [robot("Twonky", "r6c4", "N")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r3c4"
    assert p.facing("Twonky") == "N"  # bouncing never turns the robot


def test_a_move_1_against_the_padded_wall_leaves_the_robot_on_its_square_and_bounces_it_off():
    # The rebound is the card's one square; ending on padding, the robot bounces one square, away from the wall.
    p = play([PADDING, RUBBER], [robot("Twonky", "r7c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r6c4"


def test_a_bounce_into_a_padded_wall_turns_back_too():
    # Move 1 ends on r7c4 (padding): the bounce of one square goes into the rubber and back.
    p = play([PADDING, RUBBER], [robot("Twonky", "r6c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r7c4"


def test_off_padding_a_padded_wall_is_a_plain_wall():
    p = play([element("padded_wall", "r2c4", sides=["N"])], [robot("Twonky", "r1c4", "N")],
             {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r2c4"


def test_a_robot_pushed_against_a_padded_wall_is_stopped_as_by_a_wall():
    robots = [robot("Twonky", "r5c4", "N"), robot("Box", "r7c4", "E")]
    p = play([PADDING, RUBBER], robots, {"Twonky": ["FWD3 790"]})
    # Twonky reaches r6c4 (padding), cannot push Box through the rubber, and is blocked there;
    # its card moved it one square and ended on padding, so it bounces one more: still blocked by Box.
    assert (p.at("Twonky"), p.at("Box")) == ("r6c4", "r7c4")


def test_a_padded_wall_stops_lasers():
    robots = [robot("Twonky", "r8c4", "S")]
    p = play([RUBBER, laser("r1c4", "N")], robots, {})
    assert p.damage("Twonky") == 0
