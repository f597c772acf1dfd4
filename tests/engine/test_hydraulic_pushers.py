"""Hydraulic pushers: in their active phases they push the robot on their square on and on, until a wall
stops it or it leaves the board.

Rulings cited (docs/rulings.md): 15.6.
"""

from __future__ import annotations

from .scenarios import belt, element, laser, pit, play, pusher, robot, wall


def hydraulic(at: str, direction: str, *phases: int) -> dict[str, object]:
    return element("hydraulic_pusher", at, dir=direction, phases=list(phases))


def test_a_robot_is_pushed_until_a_wall_stops_it():
    p = play([hydraulic("r3c1", "E", 1), wall("r3c6", "E")], [robot("Twonky", "r3c1", "N")], {}, phases=1)
    assert p.at("Twonky") == "r3c6"
    assert p.texts("Twonky", 1, step="pushers") == [f"pushed to r3c{c}" for c in range(2, 7)]
    assert p.facing("Twonky") == "N"  # a push never turns a robot


def test_with_no_wall_it_pushes_the_robot_off_the_board():
    p = play([hydraulic("r3c1", "E", 1)], [robot("Twonky", "r3c1", "N")], {}, phases=1)
    assert p.at("Twonky") is None
    assert p.texts("Twonky", 1, step="pushers")[-1] == "destroyed"


def test_it_pushes_a_chain_of_robots_and_stops_when_the_chain_is_stopped():
    robots = [robot("Twonky", "r3c1", "N"), robot("Hulk", "r3c4", "N")]
    p = play([hydraulic("r3c1", "E", 1), wall("r3c6", "E")], robots, {}, phases=1)
    assert p.at("Hulk") == "r3c6"
    assert p.at("Twonky") == "r3c5"


def test_an_inactive_hydraulic_pusher_does_nothing_and_a_pit_on_the_way_ends_the_ride():
    p = play([hydraulic("r3c1", "E", 2, 4)], [robot("Twonky", "r3c1", "N")], {}, phases=1)
    assert p.at("Twonky") == "r3c1"
    p = play([hydraulic("r3c1", "E", 1), pit("r3c3")], [robot("Twonky", "r3c1", "N")], {}, phases=1)
    assert p.at("Twonky") is None
    assert [e.get("cause") for e in p.events("Twonky", text="destroyed")] == ["pit"]


def test_it_pushes_after_the_belts_and_the_ordinary_pushers_and_lasers_hit_where_the_robot_ends():
    """A belt carries Twonky onto the hydraulic pusher; an ordinary pusher first moves Hulk into its lane."""
    elements = [hydraulic("r3c2", "E", 1), belt("r3c1", "E"), pusher("r2c5", "N", 1), wall("r3c7", "E"),
                laser("r8c7", "S")]
    robots = [robot("Twonky", "r3c1", "N"), robot("Hulk", "r2c5", "W")]
    p = play(elements, robots, {}, phases=1)
    assert p.at("Hulk") == "r3c7"
    assert p.at("Twonky") == "r3c6"
    assert p.damage("Hulk") == 1


def test_a_virtual_robot_is_pushed_through_real_ones():
    robots = [robot("Ghost", "r3c1", "N", virtual=True), robot("Hulk", "r3c3", "N")]
    p = play([hydraulic("r3c1", "E", 1), wall("r3c6", "E")], robots, {}, phases=1)
    assert p.at("Ghost") == "r3c6"
    assert p.at("Hulk") == "r3c3"


def test_a_powered_down_robot_is_pushed_too():
    p = play([hydraulic("r3c1", "E", 1), wall("r3c4", "E")], [robot("Sleepy", "r3c1", "N", powered_down=True)], {},
             phases=1)
    assert p.at("Sleepy") == "r3c4"
