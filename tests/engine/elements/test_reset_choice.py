"""Reset sites at the end of the turn: a robot on one chooses a card for its next hand, or five random cards
for the whole next turn (decision ``reset choose``), and the next deal gives what it chose.

Rulings cited (docs/rulings.md): 15.r1.
"""

from referee.engine import Robot, deal_turn, parse_card, resolve_turn
from referee.engine.decisions import Answers, DecisionKey
from referee.engine.state import RESET_CHOICE

from ..scenarios import element, engine_board

BOARD = engine_board([element("reset_site", "r3c4")])
WAITING = [parse_card(c) for c in ("UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50")]


def end_on_the_site(answer=None, robot=None):
    """Twonky spends the turn turning on the reset site; ``answer``: its ``reset choose`` order."""
    orders = {"Twonky": {DecisionKey("reset choose"): answer}} if answer is not None else {}
    result = resolve_turn(BOARD, [robot or Robot("Twonky", (3, 4), 0)], {"Twonky": WAITING},
                          answers=Answers(orders=orders), seed=7)
    return result.robots[0], result


def test_a_chosen_card_is_in_the_next_hand_in_place_of_a_dealt_one():
    twonky, result = end_on_the_site("FWD3 800")
    assert twonky.option_data[RESET_CHOICE] == {"card": "FWD3 800"}
    assert "chooses FWD3 800 for the next hand (reset site)" in [e.text for e in result.events]
    hand = deal_turn([twonky, Robot("Zoom", (9, 9), 0)], "next").hands
    assert parse_card("FWD3 800") in hand["Twonky"] and parse_card("FWD3 800") not in hand["Zoom"]
    assert len(hand["Twonky"]) == 9  # eight dealt and the chosen one, as for an undamaged robot


def test_five_random_cards_make_the_whole_next_program_and_no_hand_is_dealt():
    twonky, result = end_on_the_site("random")
    assert twonky.option_data[RESET_CHOICE] == {"random": True}
    assert "takes five random cards for the next turn (reset site)" in [e.text for e in result.events]
    deal = deal_turn([twonky], "next")
    assert deal.hands["Twonky"] == [] and sorted(deal.locked["Twonky"]) == [1, 2, 3, 4, 5]
    assert deal.locked == deal_turn([twonky], "next").locked          # the deal's seed decides them
    assert not set(deal.locked["Twonky"].values()) & set(deal.undealt)


def test_a_damaged_robot_keeps_its_fused_cards_and_the_random_cards_fill_the_rest():
    fused = Robot("Twonky", (3, 4), 0, damage=6, locked={4: WAITING[3], 5: WAITING[4]})
    twonky, _ = end_on_the_site("random", fused)
    locked = deal_turn([twonky], "next").locked["Twonky"]
    assert locked[4] == WAITING[3] and locked[5] == WAITING[4] and sorted(locked) == [1, 2, 3, 4, 5]


def test_no_answer_is_an_ordinary_hand_and_the_choice_is_forgotten_next_turn():
    twonky, result = end_on_the_site()
    assert RESET_CHOICE not in twonky.option_data
    assert [(d.answer, d.source) for d in result.decisions if d.key.subject == "reset choose"] == [("none", "default")]
    chose, _ = end_on_the_site("FWD3 800")
    moved_off = Robot("Twonky", (2, 4), 0, option_data=dict(chose.option_data))
    after = resolve_turn(BOARD, [moved_off], {"Twonky": WAITING}).robots[0]
    assert RESET_CHOICE not in after.option_data


def test_a_card_someone_holds_or_a_word_that_is_no_card_gives_an_ordinary_hand():
    twonky, result = end_on_the_site("FWD9 1")
    assert RESET_CHOICE not in twonky.option_data
    assert [d.note for d in result.decisions if d.key.subject == "reset choose"] == \
        ["'FWD9 1' is not a card: an ordinary hand next turn"]
    chose, _ = end_on_the_site("FWD3 800")
    fused = Robot("Zoom", (9, 9), 0, damage=5, locked={5: parse_card("FWD3 800")})
    deal = deal_turn([fused, chose], "next")
    assert deal.locked["Zoom"][5] == parse_card("FWD3 800")
    assert parse_card("FWD3 800") not in deal.hands["Twonky"] and len(deal.hands["Twonky"]) == 9
