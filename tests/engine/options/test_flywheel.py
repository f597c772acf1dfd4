"""Flywheel: after programming, one unused card may be kept on the option and played in a later turn.

Rulings cited (docs/rulings.md): 16.16.
"""

from referee.engine import Robot, deal_turn, parse_card

from .helpers import holder, run

PROGRAM = {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]}


def test_the_card_named_is_kept_on_the_flywheel_and_comes_back_in_the_next_hand():
    out = run([holder("Twonky", "r3c3", "N", "Flywheel")], PROGRAM, orders={"Twonky": {"flywheel": "FWD3 790"}})
    twonky = out.robot("Twonky")
    assert twonky["option_data"] == {"Flywheel": {"card": "FWD3 790"}}
    assert "keeps FWD3 790 on the flywheel" in out.texts("Twonky", "end")
    robot = Robot("Twonky", (3, 3), 0, options=["Flywheel"], option_data={"Flywheel": {"card": "FWD3 790"}})
    hands = deal_turn([robot, Robot("Hulk", (1, 1), 0)], seed=3).hands
    assert hands["Twonky"][-1] == parse_card("FWD3 790") and len(hands["Twonky"]) == 10
    assert parse_card("FWD3 790") not in hands["Hulk"]


def test_a_kept_card_stays_until_played_and_goes_when_played():
    kept = {"Flywheel": {"card": "FWD3 790"}}
    out = run([holder("Twonky", "r3c3", "N", "Flywheel", option_data=kept)], PROGRAM)
    assert out.robot("Twonky")["option_data"] == kept
    out = run([holder("Twonky", "r3c3", "N", "Flywheel", option_data=kept)],
              {"Twonky": ["FWD3 790", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]})
    assert "option_data" not in out.robot("Twonky")


def test_destroyed_the_flywheel_and_its_card_are_lost_and_a_powered_down_robot_keeps_its_card():
    kept = {"Flywheel": {"card": "FWD3 790"}}
    out = run([holder("Twonky", "r3c3", "N", "Flywheel", option_data=kept)],
              {"Twonky": ["FWD1 490", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]}, [{"kind": "pit", "at": "r4c3"}],
              option_deck=[])
    assert out.robot("Twonky")["options"] == [] and "option_data" not in out.robot("Twonky")
    out = run([holder("Twonky", "r3c3", "N", "Flywheel", option_data=kept, powered_down=True)])
    assert out.robot("Twonky")["option_data"] == kept
    assert deal_turn([Robot("Twonky", (3, 3), 0, powered_down=True, options=["Flywheel"],
                            option_data=kept)], seed=1).hands == {}
