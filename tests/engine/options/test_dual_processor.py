"""Dual Processor: a turn card from the hand shares a register with its move card (a Move 2 with a
90-degree turn, a Move 3 with a U-turn); by default the move runs first, then the turn."""

from tests.engine.scenarios import pit

from .helpers import decisions, holder, run


def test_a_move_2_then_the_paired_right_turn_in_the_register_named():
    out = run([holder("Twonky", "r3c3", "N", "Dual Processor")], {"Twonky": ["FWD2 670"]}, phases=1,
              orders={"Twonky": {"dual processor": {"1": "RT90 80"}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r5c3", "E")
    assert out.texts("Twonky", 1)[:2] == ["move to r5c3", "face E"]


def test_house_rule_turn_first_turns_before_moving():
    out = run([holder("Twonky", "r6c3", "N", "Dual Processor")], {"Twonky": ["FWD3 790"]}, phases=1,
              orders={"Twonky": {"dual processor": {"1": "UTRN 10"}}}, rules={"dual_processor": "turn first"})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r3c3", "S")  # turned south, then 3 squares south
    assert out.texts("Twonky", 1)[:2] == ["face S", "move to r3c3"]


def test_a_pair_that_does_not_fit_is_ignored_with_a_note():
    out = run([holder("Twonky", "r3c3", "N", "Dual Processor")], {"Twonky": ["FWD2 670"]}, phases=1,
              orders={"Twonky": {"dual processor": {"1": "UTRN 10"}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r5c3", "N")
    (d,) = decisions(out, "dual processor")
    assert "cannot pair" in d["note"]


def test_a_robot_destroyed_by_the_move_does_not_turn():
    out = run([holder("Twonky", "r3c3", "N", "Dual Processor")], {"Twonky": ["FWD2 670"]}, [pit("r4c3")], phases=1,
              orders={"Twonky": {"dual processor": {"1": "RT90 80"}}})
    assert out.at("Twonky") is None and "face E" not in out.texts("Twonky")


def test_a_virtual_robot_pairs_too_and_a_powered_down_robot_is_not_asked():
    out = run([holder("Twonky", "r3c3", "N", "Dual Processor", virtual=True)], {"Twonky": ["FWD3 790"]}, phases=1,
              orders={"Twonky": {"dual processor": {"1": "UTRN 10"}}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r6c3", "S")
    out = run([holder("Twonky", "r3c3", "N", "Dual Processor", powered_down=True)], {}, phases=1,
              orders={"Twonky": {"dual processor": {"1": "UTRN 10"}}})
    assert decisions(out, "dual processor") == [] and out.facing("Twonky") == "N"
