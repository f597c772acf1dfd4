"""Mechanical Arm: touches a flag or repair site from one square away, orthogonally or diagonally, with no
wall between.

Rulings cited (docs/rulings.md): 16.15.
"""

from tests.engine.scenarios import flag, repair, wall

from .helpers import holder, run

STAY = {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]}


def test_a_flag_one_square_away_diagonally_is_touched_and_counts():
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm")], STAY, [flag("r4c4", 1), flag("r9c9", 2)], phases=1)
    assert out.robot("Twonky")["flags"] == 1 and out.robot("Twonky")["archive"] == "r4c4"
    assert out.texts("Twonky", 1, step="checkpoints") == ["archive r4c4", "touch flag 1"]


def test_a_wall_between_stops_the_arm_and_diagonally_one_open_way_round_is_enough():
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm")], STAY, [flag("r4c3", 1), flag("r9c9", 2),
              wall("r3c3", "N")], phases=1)
    assert out.robot("Twonky")["flags"] == 0
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm")], STAY, [flag("r4c4", 1), flag("r9c9", 2),
              wall("r3c3", "N")], phases=1)
    assert out.robot("Twonky")["flags"] == 1  # round by the east


def test_a_repair_site_within_reach_repairs_at_the_end_of_the_turn():
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm", damage=3)], STAY, [repair("r3c4", 2)],
              standing={"Twonky": {"sacrifice_at": 0}})
    assert out.damage("Twonky") == 1 and out.robot("Twonky")["archive"] == "r3c4"


def test_a_powered_down_robot_touches_nothing():
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm", powered_down=True)], {}, [flag("r4c4", 1),
              flag("r9c9", 2)], phases=1)
    assert out.robot("Twonky")["flags"] == 0


def test_a_virtual_robot_reaches_too_and_a_flag_out_of_turn_only_moves_the_archive():
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm", virtual=True)], STAY, [flag("r2c2", 1), flag("r9c9", 2)],
              phases=1)
    assert out.robot("Twonky")["flags"] == 1
    out = run([holder("Twonky", "r3c3", "N", "Mechanical Arm")], STAY, [flag("r9c9", 1), flag("r2c2", 2)], phases=1)
    assert (out.robot("Twonky")["flags"], out.robot("Twonky")["archive"]) == (0, "r2c2")
