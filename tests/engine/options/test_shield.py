"""Shield (some editions; house rule ``option_shield``): each register phase, the first damage from a robot
laser coming from the front is prevented."""

from referee.engine import Rules
from referee.engine.option_deck import new_option_deck
from referee.engine.options.shield import SHIELD
from tests.engine.scenarios import bot, laser

from .helpers import holder, run


def test_the_first_robot_laser_hit_from_the_front_is_stopped_each_phase():
    out = run([holder("Twonky", "r3c3", "N", "Shield"), bot("Hulk", "r6c3", "S", options=["Double-Barreled Laser"])],
              phases=2)
    assert out.damage("Twonky") == 2  # 2 a phase, 1 stopped
    assert out.texts("Twonky", 1, step="lasers") == ["r4-6c3", "Shield stops 1 damage", "-1 HP"]


def test_hits_from_behind_and_board_lasers_are_not_stopped():
    out = run([holder("Twonky", "r3c3", "N", "Shield"), bot("Hulk", "r1c3", "N")], phases=1)
    assert out.damage("Twonky") == 1
    out = run([holder("Twonky", "r3c3", "N", "Shield")], elements=[laser("r6c3", "S")], phases=1)
    assert out.damage("Twonky") == 1


def test_a_powered_down_robot_is_shielded_and_the_card_is_in_the_deck_only_by_house_rule():
    out = run([holder("Twonky", "r3c3", "N", "Shield", powered_down=True), bot("Hulk", "r6c3", "S")], phases=1)
    assert out.damage("Twonky") == 0
    assert SHIELD not in new_option_deck(1) and len(new_option_deck(1)) == 26
    assert SHIELD in new_option_deck(1, Rules(option_shield=True))


def test_a_destroyed_robot_loses_its_shield_under_the_deck():
    out = run([holder("Twonky", "r3c3", "N", "Shield", damage=9),
               bot("Hulk", "r6c3", "S", options=["Double-Barreled Laser"])], phases=1,
              standing={"Twonky": {"sacrifice_at": 0}}, option_deck=[])
    assert out.at("Twonky") is None and out.doc["option_deck"] == ["Shield"]
