"""Padded squares: a robot whose card ends on one bounces on as far again, while it stays on padding.

Rulings cited (docs/rulings.md): 13.21.
"""

from .scenarios import belt, element, play, robot, wall

PADDING = element("padded", "r3c4-r7c4")


def test_a_move_2_ending_on_padding_moves_4():
    p = play([PADDING], [robot("Twonky", "r1c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r5c4"
    assert p.texts("Twonky") == ["move to r5c4"]  # one move, at the card's priority


def test_the_bounce_ends_on_the_first_square_that_is_not_padded():
    p = play([PADDING], [robot("Twonky", "r5c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r8c4"  # two squares to r7c4, then bounced one square onto plain floor


def test_a_wall_stops_the_bounce():
    p = play([PADDING, wall("r4c4", "N")], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"


def test_robots_on_the_padding_are_pushed_along_by_the_bounce():
    robots = [robot("Twonky", "r1c4", "N"), robot("Box", "r5c4", "E")]
    p = play([PADDING], robots, {"Twonky": ["FWD2 670"]})
    assert (p.at("Twonky"), p.at("Box")) == ("r5c4", "r6c4")
    assert p.events("Box", text="pushed to r6c4")[0]["priority"] == 670


def test_robots_carried_onto_padding_or_turning_on_it_do_not_bounce():
    p = play([PADDING, belt("r2c4", "N")], [robot("Twonky", "r2c4", "E")], {})
    assert p.at("Twonky") == "r3c4"
    p = play([PADDING], [robot("Twonky", "r4c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.at("Twonky") == "r4c4"


def test_a_back_up_onto_padding_bounces_backwards():
    p = play([PADDING], [robot("Twonky", "r8c4", "N")], {"Twonky": ["BACK 430"]})
    assert p.at("Twonky") == "r6c4"
