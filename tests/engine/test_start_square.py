"""The RoboFactory start square (the `start` kind): once the race has started it is plain floor.

Rulings cited (docs/rulings.md): 13.14.
"""

from .scenarios import element, play, robot


def test_robots_move_over_stop_and_turn_on_a_start_square_unharmed():
    starts = [element("start", "r3c4", number=1), element("start", "r4c4", number=2)]
    p = play(starts, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490", "FWD2 670", "RT90 80"]}, phases=3)
    assert p.at("Twonky") == "r5c4" and p.facing("Twonky") == "E"
    assert p.damage("Twonky") == 0


def test_a_start_square_is_no_checkpoint():
    p = play([element("start", "r3c4", number=1)], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.robot("Twonky")["archive"] != "r3c4"


def test_a_start_square_may_lie_on_any_floor():
    starts = [element("start", "r3c4", number=1), element("plate", "r3c4")]
    p = play(starts, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "E"
