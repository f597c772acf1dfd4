"""Napalm flamers burn like flamers and set robots on fire: a burning robot takes 1 damage per flame in
every later phase when lasers fire, until it enters water.

Rulings cited (docs/rulings.md): 13.16.
"""

from referee.engine import Robot, resolve_turn

from .scenarios import belt, element, engine_board, play, robot

NAPALM = element("napalm", "r3c4", phases=[1])


def test_entering_an_active_napalm_flamer_burns_and_sets_the_robot_on_fire():
    p = play([NAPALM], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert p.events("Twonky", text="on fire")
    assert [e["step"] for e in p.hits("Twonky")] == ["robots", "napalm"]  # entering, then standing on it


def test_the_fire_burns_on_in_every_later_phase():
    p = play([NAPALM], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670", "FWD1 490", "FWD1 500"]}, phases=3)
    assert p.at("Twonky") == "r6c4"
    assert [(e["phase"], e["cause"]) for e in p.hits("Twonky")] == [(1, "napalm"), (2, "burning"), (3, "burning")]


def test_the_fire_goes_out_in_water():
    elements = [NAPALM, element("water", "r5c4")]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800", "FWD1 490"]}, phases=3)
    assert p.events("Twonky", phase=1, text="fire out")
    assert p.damage("Twonky") == 1  # only the flame of passing over it


def test_two_napalm_flamers_make_two_flames():
    elements = [NAPALM, element("napalm", "r4c4", phases=[1])]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800", "FWD1 490"]}, phases=2)
    assert [e["text"] for e in p.hits("Twonky", phase=2)] == ["-2 HP"]


def test_an_inactive_napalm_flamer_does_nothing_and_a_belt_carries_onto_an_active_one():
    p = play([element("napalm", "r3c4", phases=[2])], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.damage("Twonky") == 0
    p = play([NAPALM, belt("r2c4", "N")], [robot("Twonky", "r2c4", "E")], {})
    assert p.events("Twonky", text="on fire") and p.damage("Twonky") == 2


def test_a_burning_robot_keeps_burning_next_turn():
    """The fire is a status the robot keeps between turns (its snapshot): one flame, 1 damage a phase."""
    board = engine_board([NAPALM])
    burning = Robot("Twonky", (6, 6), 0, statuses={"burning"})
    result = resolve_turn(board, [burning], {}, phases=2)
    assert result.robots[0].damage == 2
    assert [e.data["cause"] for e in result.events if e.text == "-1 HP"] == ["burning", "burning"]
