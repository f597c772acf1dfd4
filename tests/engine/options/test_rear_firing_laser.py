"""Rear-Firing Laser: a second main laser pointing backwards, with the same rules."""

from tests.engine.scenarios import bot

from .helpers import holder, run


def test_the_robot_fires_forward_and_backward():
    out = run([holder("Twonky", "r5c3", "N", "Rear-Firing Laser"), bot("Hulk", "r8c3", "E"), bot("Zoom", "r2c3", "E")],
              phases=1)
    assert (out.damage("Hulk"), out.damage("Zoom")) == (1, 1)
    assert [e["hit"] for e in out.events("Twonky", phase=1, step="lasers")] == ["Hulk", "Zoom"]


def test_with_double_barrels_the_rear_laser_deals_2_as_well():
    out = run([holder("Twonky", "r5c3", "N", "Rear-Firing Laser", "Double-Barreled Laser"), bot("Zoom", "r2c3", "E")],
              phases=1)
    assert out.damage("Zoom") == 2


def test_a_weapon_fired_instead_of_the_main_laser_leaves_the_rear_laser_firing():
    out = run([holder("Twonky", "r5c3", "N", "Rear-Firing Laser", "Pressor Beam"), bot("Hulk", "r8c3", "E"),
               bot("Zoom", "r2c3", "E")], phases=1, orders={"Twonky": {"fire": {"1": "Pressor Beam"}}})
    assert (out.damage("Hulk"), out.at("Hulk")) == (0, "r9c3")
    assert out.damage("Zoom") == 1


def test_a_powered_down_robot_fires_neither_laser():
    out = run([holder("Twonky", "r5c3", "N", "Rear-Firing Laser", powered_down=True), bot("Zoom", "r2c3", "E")],
              phases=1)
    assert out.damage("Zoom") == 0


def test_a_virtual_robot_fires_neither_way_and_the_rear_hit_can_destroy():
    out = run([holder("Twonky", "r5c3", "N", "Rear-Firing Laser", virtual=True), bot("Zoom", "r2c3", "E")], phases=1)
    assert out.damage("Zoom") == 0
    out = run([holder("Twonky", "r5c3", "N", "Rear-Firing Laser"), bot("Zoom", "r2c3", "E", damage=9)], phases=1)
    assert out.at("Zoom") is None
