"""Trapdoors are pits in the phases listed on them; bridges are pits except in the phases printed on them.
Both switch as the register phase begins, before any robot moves.

Rulings cited (docs/rulings.md): 13.1, 13.15.
"""

from .scenarios import belt, element, laser, play, pusher, robot

TRAP = element("trapdoor", "r3c4", phases=[2, 4])
BRIDGE = element("bridge", "r3c4", phases=[1, 3])


def test_a_closed_trapdoor_is_open_floor():
    p = play([TRAP], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert p.damage("Twonky") == 0


def test_a_robot_entering_an_open_trapdoor_falls():
    p = play([TRAP], [robot("Twonky", "r1c4", "S")], {"Twonky": ["UTRN 10", "FWD2 670"]}, phases=2)
    assert p.at("Twonky") is None
    assert p.events("Twonky", phase=2, text="destroyed")[0]["cause"] == "trapdoor"


def test_a_robot_standing_on_a_trapdoor_falls_as_it_opens_before_anyone_moves():
    """Twonky stopped on the closed trapdoor in phase 1; phase 2 opens it before its Move 1 (priority 840)."""
    p = play([TRAP], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert p.at("Twonky") is None
    fall = p.events("Twonky", phase=2)[0]
    assert fall["text"] == "destroyed" and fall["step"] == "virtualizers"  # the reveal step where phase elements switch


def test_a_virtual_robot_falls_through_an_open_trapdoor_too():
    p = play([TRAP], [robot("Ghosty", "r2c4", "S", virtual=True)], {"Ghosty": ["UTRN 10", "FWD1 490"]}, phases=2)
    assert p.at("Ghosty") is None


def test_a_robot_a_belt_leaves_on_a_closed_trapdoor_falls_when_it_opens():
    p = play([TRAP, belt("r2c4", "N")], [robot("Twonky", "r2c4", "E")], {}, phases=2)
    assert p.at("Twonky") is None  # carried onto it in phase 1 (closed), falls as phase 2 opens it


def test_a_pushed_robot_falls_into_an_open_trapdoor():
    robots = [robot("Box", "r2c4", "W"), robot("Shover", "r1c4", "S")]
    p = play([TRAP], robots, {"Shover": ["UTRN 10", "FWD1 490"]}, phases=2)
    assert p.at("Box") is None and p.at("Shover") == "r2c4"


def test_a_bridge_carries_robots_in_its_printed_phases_only():
    p = play([BRIDGE], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"  # phase 1: closed
    p = play([BRIDGE], [robot("Twonky", "r2c4", "S")], {"Twonky": ["UTRN 10", "FWD1 490"]}, phases=2)
    assert p.at("Twonky") is None
    assert p.events("Twonky", phase=2, text="destroyed")[0]["cause"] == "bridge"


def test_a_robot_on_a_bridge_falls_when_it_opens():
    """Closed in phase 1, open in phase 2: Twonky is powered down and does nothing, it still falls."""
    p = play([BRIDGE], [robot("Twonky", "r3c4", "N", powered_down=True)], {}, phases=2)
    assert p.at("Twonky") is None
    assert p.events("Twonky", phase=2, text="destroyed")


def test_a_robot_crosses_a_closed_bridge_and_falls_backing_onto_it_once_open():
    """Phase 1 the bridge carries a Move 2 across; phase 2 the robot coming back falls in."""
    p = play([BRIDGE], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670", "BACK 430"]}, phases=2)
    assert p.events("Twonky", phase=1, text="move to r4c4")
    assert p.at("Twonky") is None


def test_a_pusher_pushes_a_robot_onto_a_trapdoor_that_is_closed():
    """Pushers act after robots move, in the phase the trapdoor is shut: the robot lands safely."""
    p = play([TRAP, pusher("r3c3", "E", 1)], [robot("Twonky", "r3c3", "N")], {})
    assert p.at("Twonky") == "r3c4"


def test_a_board_laser_crosses_an_open_trapdoor():
    p = play([TRAP, laser("r3c1", "E")], [robot("Twonky", "r3c6", "N")], {}, phases=2)
    assert p.damage("Twonky") == 2
