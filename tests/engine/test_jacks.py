"""Jacks in the box: in phases 1-4 a robot on the jack is slung six squares, a quarter turn further each
phase; in phase 5 it goes straight up and lands on the jack again.

Rulings cited (docs/rulings.md): 15.13.
"""

from .scenarios import element, pit, play, robot, wall

JACK = element("jack", "r2c2", dir="N")


def test_phase_one_slings_six_squares_the_first_way_over_walls_and_keeps_the_facing():
    p = play([JACK, wall("r4c2", "N")], [robot("Twonky", "r2c2", "E")], {}, width=8, height=8)
    assert p.at("Twonky") == "r8c2"
    assert p.facing("Twonky") == "E"
    assert p.events("Twonky", phase=1, step="jacks", text="slung to r8c2")


def test_each_phase_turns_the_sling_a_quarter_further():
    """A robot stepping onto the jack in phase 2 is slung the phase-2 way: a quarter turn from ``dir``."""
    walk = {"Twonky": ["RT90 80", "FWD1 490"]}  # phase 1 turn east, phase 2 onto the jack
    start = [robot("Twonky", "r6c5", "N")]
    right = play([element("jack", "r6c6", dir="N", turn="right")], start, walk, width=12, height=12, phases=2)
    assert right.at("Twonky") == "r6c12"
    left = play([element("jack", "r6c6", dir="S", turn="left")], start, walk, width=12, height=12, phases=2)
    assert left.at("Twonky") == "r6c12"
    back = play([element("jack", "r6c6", dir="S", turn="right")], start, walk, width=12, height=12, phases=2)
    assert back.at("Twonky") is None  # south, then a quarter right: west, six squares off the board


def test_landing_on_a_robot_lands_short_and_landing_in_a_pit_falls():
    p = play([JACK], [robot("Twonky", "r2c2", "N"), robot("Hulk", "r8c2", "W")], {}, width=8, height=8)
    assert p.at("Twonky") == "r7c2" and p.at("Hulk") == "r8c2"
    p = play([JACK, pit("r8c2")], [robot("Twonky", "r2c2", "N")], {}, width=8, height=8)
    assert p.at("Twonky") is None


def test_phase_five_throws_the_robot_up_to_land_on_the_jack_with_the_boxs_damage():
    jack = element("jack", "r2c2", dir="N", damage=2)
    walk = ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "FWD1 490"]  # steps onto the jack in phase 5
    p = play([jack], [robot("Twonky", "r1c2", "N")], {"Twonky": walk}, width=8, height=8, phases=5)
    assert p.at("Twonky") == "r2c2"
    assert [e["step"] for e in p.hits("Twonky")] == ["jacks"] and p.damage("Twonky") == 2


def test_the_fence_holds_a_robot_slung_off_the_board_at_the_jack():
    jack = element("jack", "r2c2", dir="W")
    p = play([jack], [robot("Twonky", "r2c2", "N")], {}, width=8, height=8, rules={"edge": "fence"})
    assert p.at("Twonky") == "r2c2" and p.damage("Twonky") == 2


def test_a_robot_slung_onto_another_jack_is_not_slung_again_in_the_same_phase():
    jacks = [element("jack", "r1c2", dir="N"), element("jack", "r7c2", dir="E")]
    p = play(jacks, [robot("Twonky", "r1c2", "N")], {}, width=8, height=8)
    assert p.at("Twonky") == "r7c2"
    assert len(p.events("Twonky", phase=1, step="jacks")) == 1
