"""Double-Barreled Laser: the main laser deals 2 damage instead of 1.

Rulings cited (docs/rulings.md): 16.7.
"""

from tests.engine.scenarios import bot

from .helpers import holder, run


def test_the_main_laser_deals_2_damage():
    out = run([holder("Twonky", "r3c3", "N", "Double-Barreled Laser"), bot("Hulk", "r6c3", "E")], phases=1)
    assert out.damage("Hulk") == 2
    assert out.events("Twonky", phase=1, step="lasers")[0]["options"] == ["Double-Barreled Laser"]


def test_a_virtual_robot_does_not_fire_and_a_virtual_target_is_not_hit():
    out = run([holder("Twonky", "r3c3", "N", "Double-Barreled Laser", virtual=True), bot("Hulk", "r6c3", "E")],
              phases=1)
    assert out.damage("Hulk") == 0
    out = run([holder("Twonky", "r3c3", "N", "Double-Barreled Laser"), bot("Hulk", "r6c3", "E", virtual=True)],
              phases=1)
    assert out.damage("Hulk") == 0


def test_a_powered_down_robot_does_not_fire_and_two_shots_can_destroy():
    out = run([holder("Twonky", "r3c3", "N", "Double-Barreled Laser", powered_down=True), bot("Hulk", "r6c3", "E")],
              phases=1)
    assert out.damage("Hulk") == 0
    out = run([holder("Twonky", "r3c3", "N", "Double-Barreled Laser"), bot("Hulk", "r6c3", "E", damage=8)],
              phases=1)
    assert out.at("Hulk") is None and out.events("Hulk", text="destroyed")[0]["cause"] == "laser"
