"""Extra Memory: one more program card is dealt each turn."""

from referee.engine import Robot, deal_turn
from referee.engine.programs import hand_size


def test_a_robot_with_extra_memory_is_dealt_one_more_card():
    plain, extra = Robot("Hulk", (1, 1), 0, damage=3), Robot("Twonky", (2, 2), 0, damage=3, options=["Extra Memory"])
    dealt = deal_turn([plain, extra], seed=7)
    assert (len(dealt.hands["Hulk"]), len(dealt.hands["Twonky"])) == (6, 7)
    assert not set(dealt.hands["Hulk"]) & set(dealt.hands["Twonky"])


def test_a_powered_down_or_destroyed_robot_gets_no_cards_even_with_extra_memory():
    assert hand_size(Robot("Twonky", (2, 2), 0, powered_down=True, options=["Extra Memory"])) == 0
    assert hand_size(Robot("Twonky", None, 0, options=["Extra Memory"])) == 0


def test_at_9_damage_extra_memory_still_deals_one_card_and_the_deal_is_the_same_for_the_same_seed():
    robot = Robot("Twonky", (2, 2), 0, damage=9, options=["Extra Memory"])
    assert hand_size(robot) == 1
    assert deal_turn([robot], seed="s").hands == deal_turn([robot], seed="s").hands


def test_a_virtual_robot_is_dealt_the_extra_card_and_a_destroyed_one_has_lost_it():
    virtual = Robot("Twonky", (2, 2), 0, virtual=True, options=["Extra Memory"])
    assert len(deal_turn([virtual], seed=2).hands["Twonky"]) == 10
    assert hand_size(Robot("Twonky", (2, 2), 0, options=[])) == 9  # after destruction and re-entry: no card
