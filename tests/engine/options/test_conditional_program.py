"""Conditional Program: a card kept aside replaces the programmed card of the register named when the
order's condition holds as the register is revealed.

Rulings cited (docs/rulings.md): 16.18.
"""

from tests.engine.scenarios import bot, wall

from .helpers import decisions, holder, run

PROGRAM = {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}


def test_with_a_robot_ahead_the_kept_card_is_played_instead():
    out = run([holder("Twonky", "r3c3", "N", "Conditional Program"), bot("Hulk", "r5c3", "E", virtual=True)],
              PROGRAM, phases=2,
              orders={"Twonky": {"conditional program": {"2": {"card": "RT90 80", "if": "ROBOT AHEAD"}}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r4c3", "E")
    (replaced,) = [e for e in out.events("Twonky", phase=2) if e["text"] == "card replaced by RT90 80"]
    assert (replaced["replaced"], replaced["condition"]) == ("FWD1 500", "ROBOT AHEAD")


def test_when_the_condition_fails_the_program_runs_and_not_inverts_it():
    out = run([holder("Twonky", "r3c3", "N", "Conditional Program")], PROGRAM, phases=1,
              orders={"Twonky": {"conditional program": {"1": {"card": "UTRN 10", "if": "WALL AHEAD"}}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r4c3", "N")
    out = run([holder("Twonky", "r3c3", "N", "Conditional Program")], PROGRAM, [wall("r3c3", "N")], phases=1,
              orders={"Twonky": {"conditional program": {"1": {"card": "UTRN 10", "if": "NOT FACING S"}}}})
    assert out.facing("Twonky") == "S"


def test_a_fused_register_keeps_its_card_and_damage_position_conditions_read():
    out = run([holder("Twonky", "r3c3", "N", "Conditional Program", damage=5)], PROGRAM,
              orders={"Twonky": {"conditional program": {"5": {"card": "UTRN 10", "if": "DAMAGE >= 5"}}}},
              standing={"Twonky": {"sacrifice_at": 0}})
    assert [e["card"] for e in out.events("Twonky", phase=5, step="robots")] == ["FWD1 530"]
    out = run([holder("Twonky", "r3c3", "N", "Conditional Program")], PROGRAM, phases=2,
              orders={"Twonky": {"conditional program": {"2": {"card": "UTRN 10", "if": "AT r4c3"}}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r4c3", "S")


def test_a_powered_down_robot_plays_nothing_and_is_asked_each_register_otherwise():
    out = run([holder("Twonky", "r3c3", "N", "Conditional Program", powered_down=True)], {}, phases=2,
              orders={"Twonky": {"conditional program": {"1": {"card": "UTRN 10", "if": "FACING N"}}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r3c3", "N")
    assert [d["register"] for d in decisions(out, "conditional program")] == [1, 2]
