"""Sluices: lower-level floor that closes level with the upper level in the phases printed on it.

The upper level is rows 4-8 (height 1) with the sluice let into it at r4c4; rows 1-3 are the ground.
The sluice is closed in register phase 2 only.

Rulings cited (docs/rulings.md): 13.27.
"""

from .scenarios import element, play, robot, rows

UPPER = [element("level", "r4c1-r4c3", height=1), element("level", "r4c5-r4c8", height=1),
         *rows("level", 5, 8, height=1)]
SLUICE = element("sluice", "r4c4", closed=[2], upper=1)
BOARD = [*UPPER, SLUICE]


def test_a_robot_driving_onto_an_open_sluice_from_the_upper_level_falls_in():
    p = play(BOARD, [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD1 500"]})
    assert p.at("Twonky") == "r4c4"
    assert [(h["text"], h["cause"]) for h in p.hits("Twonky")] == [("-2 HP", "sluice")]


def test_a_closed_sluice_is_driven_across_like_the_upper_level():
    p = play(BOARD, [robot("Twonky", "r5c4", "W")], {"Twonky": ["LF90 410", "FWD1 500"]}, phases=2)
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 0


def test_a_closed_sluice_is_a_wall_for_the_lower_level():
    p = play(BOARD, [robot("Twonky", "r3c4", "E")], {"Twonky": ["LF90 410", "FWD2 700"]}, phases=2)
    assert p.at("Twonky") == "r3c4"
    assert p.events("Twonky", phase=2, text="obstruction encountered")


def test_an_open_sluice_is_open_ground_for_the_lower_level():
    # From the ground onto the open sluice is free; on, it is below the upper level and cannot climb out.
    p = play(BOARD, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 700"]})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 0


def test_a_robot_on_the_sluice_when_it_closes_is_crushed_virtual_or_not():
    robots = [robot("Twonky", "r4c4", "N"), robot("Ghosty", "r4c4", "N", virtual=True)]
    p = play(BOARD, robots, {"Twonky": ["UTRN 20", "UTRN 30", "UTRN 60", "RT90 80", "RT90 100"],
                             "Ghosty": ["UTRN 40", "UTRN 50", "RT90 120", "RT90 140", "RT90 160"]}, phases=2)
    for name in ("Twonky", "Ghosty"):
        crushed = p.events(name, phase=2, text="destroyed")
        assert crushed and crushed[0]["cause"] == "sluice"
        assert not p.events(name, phase=2, step="robots")  # crushed as the cards are revealed: no card played


def test_a_robot_pushed_from_the_upper_level_into_an_open_sluice_falls_in_and_the_pusher_stays_up():
    robots = [robot("Twonky", "r6c4", "S"), robot("Box", "r5c4", "E")]
    p = play(BOARD, robots, {"Twonky": ["FWD1 500"]})
    assert (p.at("Twonky"), p.at("Box")) == ("r5c4", "r4c4")
    assert p.damage("Twonky") == 0
    assert [(h["text"], h["cause"]) for h in p.hits("Box", step="robots")] == [("-2 HP", "sluice")]


def test_leaving_a_closed_sluice_for_the_ground_is_a_drop():
    p = play(BOARD, [robot("Twonky", "r5c4", "W")], {"Twonky": ["LF90 410", "FWD2 700"]}, phases=2)
    assert p.at("Twonky") == "r3c4"
    assert [(h["text"], h["cause"]) for h in p.hits("Twonky")] == [("-2 HP", "ledge")]


def test_a_flying_robot_hovers_over_the_open_sluice_and_is_not_crushed_when_it_closes():
    p = play([*BOARD, element("antigravity", "r5c4")], [robot("Twonky", "r5c4", "S")],
             {"Twonky": ["FWD1 500", "UTRN 20"]}, phases=2)
    assert p.texts("Twonky", 1)[0] == "flies (antigravity)"
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 0
