"""Ramming Gear: whenever this robot pushes or bumps into another, that robot takes 1 damage.

Rulings cited (docs/rulings.md): 16.14, 44.5.
"""

from tests.engine.scenarios import belt, bot, wall

from .helpers import holder, run


def test_a_robot_pushed_takes_1_damage():
    out = run([holder("Twonky", "r3c3", "E", "Ramming Gear"), bot("Hulk", "r3c4", "N")], {"Twonky": ["FWD1 490"]},
              phases=1)
    (ram,) = out.hits("Hulk", step="robots")  # (Twonky's laser hits it afterwards, in the laser step)
    assert (out.at("Hulk"), ram["text"], ram["cause"], ram["by"]) == ("r3c5", "-1 HP", "ramming gear", "Twonky")


def test_bumping_a_robot_against_a_wall_damages_it_once():
    out = run([holder("Twonky", "r3c3", "E", "Ramming Gear"), bot("Hulk", "r3c4", "N")], {"Twonky": ["FWD2 670"]},
              [wall("r3c4", "E")], phases=1)
    assert (out.at("Twonky"), out.at("Hulk")) == ("r3c3", "r3c4")
    assert len(out.hits("Hulk", step="robots")) == 1  # bumped once: a blocked card stops trying


def test_belts_do_not_ram_and_a_virtual_robot_rams_nobody():
    out = run([holder("Twonky", "r3c3", "E", "Ramming Gear"), bot("Hulk", "r3c4", "N")], {}, [belt("r3c3", "E")],
              phases=1)
    assert out.hits("Hulk", step="robots") == [] and out.hits("Hulk", step="belts") == []
    out = run([holder("Twonky", "r3c3", "E", "Ramming Gear", virtual=True), bot("Hulk", "r3c4", "N")],
              {"Twonky": ["FWD1 490"]}, phases=1)
    assert (out.at("Twonky"), out.at("Hulk"), out.damage("Hulk")) == ("r3c4", "r3c4", 0)


def test_a_powered_down_robot_does_not_move_so_does_not_ram():
    out = run([holder("Twonky", "r3c3", "E", "Ramming Gear", powered_down=True), bot("Hulk", "r3c4", "N")], phases=1)
    assert out.damage("Hulk") == 0


def test_a_rammed_robot_at_9_damage_is_destroyed_and_the_rammer_moves_on():
    out = run([holder("Twonky", "r3c3", "E", "Ramming Gear"), bot("Hulk", "r3c4", "N", damage=9)],
              {"Twonky": ["FWD1 490"]}, phases=1)
    assert (out.at("Hulk"), out.at("Twonky")) == (None, "r3c4")
