"""The option deck and the life of a card: one copy of each, shuffled per game, drawn from the top,
lost or used-up cards back under the deck.

Rulings cited (docs/rulings.md): 16.1, 16.3, 16.4.
"""

import random

import pytest

from referee.engine import Robot, Rules, build_board, resolve_turn
from referee.engine.decisions import Answers
from referee.engine.option_deck import cards_in_play, new_option_deck
from tests.engine.scenarios import bot, laser, pit, repair

from .helpers import holder, run

#: the classic card list, in the order the rule book lists it: the order a game's deck is shuffled from
CARD_LIST = ("Ablative Coat", "Abort Switch", "Brakes", "Circuit Breaker", "Conditional Program", "Crab Legs",
             "Double-Barreled Laser", "Dual Processor", "Extra Memory", "Fire Control", "Flywheel", "Fourth Gear",
             "Gyroscopic Stabilizer", "High-Power Laser", "Mechanical Arm", "Mini Howitzer", "Power-Down Shield",
             "Pressor Beam", "Radio Control", "Ramming Gear", "Rear-Firing Laser", "Recompile", "Reverse Gears",
             "Scrambler", "Superior Archive", "Tractor Beam")


def test_a_game_deck_holds_each_classic_card_once_shuffled_by_the_seed():
    deck = new_option_deck("game 1")
    assert sorted(deck) == sorted(CARD_LIST) and len(set(deck)) == 26
    assert new_option_deck("game 1") == deck and new_option_deck("game 2") != deck
    assert new_option_deck("game 1", held=["Brakes"]) == [c for c in deck if c != "Brakes"]


def test_on_two_wrenches_a_robot_ordered_to_take_an_option_draws_the_top_card_instead_of_repairing():
    out = run([bot("Twonky", "r3c3", "N", damage=3)], elements=[repair("r3c3", 2)], option_deck=["Brakes", "Shield"],
              standing={"Twonky": {"two_wrenches": "option"}})
    assert (out.damage("Twonky"), out.robot("Twonky")["options"]) == (3, ["Brakes"])
    assert out.doc["option_deck"] == ["Shield"]
    assert out.events("Twonky", phase="end", text="draws option Brakes")[0]["source"] == "two wrenches"


def test_a_robot_on_radioactive_waste_may_draw_an_option_in_every_register():
    """Ruling 16.2 (rules version 4): it draws in each register phase unless told not to, until the deck is
    empty; under the house rule radioactive_once, once a turn."""
    waste = [{"kind": "radioactive_waste", "at": "r3c3"}]
    out = run([bot("Twonky", "r3c3", "N")], elements=waste, option_deck=["Brakes", "Shield"],
              standing={"Twonky": {"sacrifice_at": 0}})
    assert out.robot("Twonky")["options"] == ["Brakes", "Shield"] and out.damage("Twonky") == 5
    once = run([bot("Twonky", "r3c3", "N")], elements=waste, option_deck=["Brakes", "Shield"],
               standing={"Twonky": {"sacrifice_at": 0}}, rules={"radioactive_once": True})
    assert once.robot("Twonky")["options"] == ["Brakes"]


def test_destroyed_a_robot_loses_every_option_in_the_order_held_under_the_deck():
    out = run([holder("Twonky", "r3c3", "N", "Brakes", "Shield", "Flywheel")], {"Twonky": ["FWD1 490"]}, [pit("r4c3")],
              phases=1, option_deck=["Recompile"])
    assert out.doc["option_deck"] == ["Recompile", "Brakes", "Shield", "Flywheel"]
    assert out.texts("Twonky")[-3:] == ["option Brakes lost", "option Shield lost", "option Flywheel lost"]


def test_at_the_threshold_the_sacrifice_order_chooses_else_the_newest_goes():
    def hit(standing):
        return run([holder("Twonky", "r3c3", "E", "Brakes", "Shield", "Flywheel", damage=4)],
                   elements=[laser("r3c6", "W", 2)], phases=1, option_deck=[], standing=standing)
    newest = hit({})
    assert newest.robot("Twonky")["options"] == ["Brakes"] and newest.damage("Twonky") == 4
    ordered = hit({"Twonky": {"options": {"sacrifice order": ["shield", "brakes"]}}})
    assert ordered.robot("Twonky")["options"] == ["Flywheel"] and ordered.doc["option_deck"] == ["Shield", "Brakes"]


def test_above_the_threshold_damage_is_taken_until_it_is_reached():
    out = run([holder("Twonky", "r3c3", "E", "Brakes", damage=3)], elements=[laser("r3c6", "W", 2)], phases=1)
    assert (out.damage("Twonky"), out.robot("Twonky")["options"]) == (4, [])  # HP 7 -> 6, then Brakes


def test_with_no_deck_given_a_fresh_one_from_the_seed_less_the_cards_held_is_used_when_needed():
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "repair", "at": "r3c3", "wrenches": 2}]})
    answers = Answers(standing={"Twonky": {"two_wrenches": "option"}})
    result = resolve_turn(board, [Robot("Twonky", (3, 3), 0, options=["Brakes"])], {}, seed=4, rules=Rules(),
                          answers=answers)
    fresh = new_option_deck(4, held=["Brakes"])
    assert result.robots[0].options == ["Brakes", fresh[0]] and result.option_deck == fresh[1:]
    untouched = resolve_turn(board, [Robot("Twonky", (3, 3), 0, options=["Brakes"])], {}, seed=4)
    assert untouched.option_deck is None


def _shuffled(cards, seed):
    deck = list(cards)
    random.Random(f"options:{seed}").shuffle(deck)
    return deck


def test_the_deck_is_shuffled_from_the_card_list_so_stored_games_replay_exactly():
    """The deck's order before the shuffle is each card's declared rank (the card list, then Shield), never
    the order cards happen to register in: games shuffled before the cards declared themselves shuffle the same."""
    assert cards_in_play(Rules()) == CARD_LIST
    assert cards_in_play(Rules(option_shield=True)) == (*CARD_LIST, "Shield")
    for seed in ("game 1", 7, "RR-12", 2024):
        assert new_option_deck(seed) == _shuffled(CARD_LIST, seed)
        assert new_option_deck(seed, Rules(option_shield=True)) == _shuffled((*CARD_LIST, "Shield"), seed)


def test_a_card_named_by_the_house_rule_option_cards_joins_the_deck():
    assert cards_in_play(Rules(option_cards=("Shield",))) == (*CARD_LIST, "Shield")
    assert Rules.from_dict({"option_cards": ["Shield"]}).to_dict()["option_cards"] == ["Shield"]
    assert Rules.from_dict({"option_cards": "Shield"}).option_cards == ("Shield",)   # as a GM's RULE gives it
    with pytest.raises(ValueError, match="no option card 'Laser Cannon'"):
        Rules.from_dict({"option_cards": ["Laser Cannon"]})
    assert "option_cards" not in Rules().to_dict()   # rules stored before the house rule read the same
