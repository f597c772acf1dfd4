"""Power-Down Shield: while powered down, at most 1 damage from each of the four sides is prevented in
each register phase."""

from tests.engine.scenarios import bot, laser

from .helpers import holder, run


def test_powered_down_one_point_from_each_side_is_stopped_each_phase():
    out = run([holder("Twonky", "r3c3", "N", "Power-Down Shield", powered_down=True)],
              elements=[laser("r3c6", "W", 2), laser("r3c1", "E")], phases=2)
    assert out.damage("Twonky") == 2  # each phase: 2 from the east less 1, 1 from the west less 1
    assert out.texts("Twonky", 1, step="lasers").count("Power-Down Shield stops 1 damage") == 2


def test_a_robot_not_powered_down_is_not_shielded():
    out = run([holder("Twonky", "r3c3", "N", "Power-Down Shield")], elements=[laser("r3c6", "W")], phases=2)
    assert out.damage("Twonky") == 2


def test_damage_from_no_side_is_not_stopped_and_robot_lasers_are():
    out = run([holder("Twonky", "r3c3", "N", "Power-Down Shield", powered_down=True), bot("Hulk", "r6c3", "S"),
               bot("Zoom", "r1c3", "N")], phases=1)
    assert out.damage("Twonky") == 0  # one from the north, one from the south
    out = run([holder("Twonky", "r3c3", "N", "Power-Down Shield", powered_down=True)],
              elements=[{"kind": "radioactive_waste", "at": "r3c3"}], phases=1)
    assert out.damage("Twonky") == 1


def test_a_virtual_powered_down_robot_is_shielded_from_board_lasers_and_heavy_fire_still_destroys():
    out = run([holder("Twonky", "r3c3", "N", "Power-Down Shield", powered_down=True, virtual=True)],
              elements=[laser("r3c6", "W")], phases=1)
    assert out.damage("Twonky") == 0
    out = run([holder("Twonky", "r3c3", "N", "Power-Down Shield", powered_down=True)],
              elements=[laser("r3c6", "W", 3)], standing={"Twonky": {"sacrifice_at": 0}}, option_deck=[])
    # powering down repaired everything; 2 of every 3 points land: destroyed in register 5
    assert out.events("Twonky", phase=5, text="destroyed") and out.doc["option_deck"] == ["Power-Down Shield"]
