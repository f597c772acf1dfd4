"""Radio beams: entering or turning in the beam, and standing in it when the radio beams act, each hand the
robot a random card nobody holds, locked in its first free register for the next turn; no damage.

Rulings cited (docs/rulings.md): 15.19.
"""

from referee.engine import Robot, deal_turn, parse_card, resolve_turn
from referee.engine.state import HELD

from .scenarios import element, engine_board, play, robot

BEAM = element("radio_beam", "r3c4")
BOARD = engine_board([BEAM])


def test_entering_and_standing_in_the_beam_give_two_radio_cards_for_registers_one_and_two():
    p = play([BEAM], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    radio = [e for e in p.events("Twonky", phase=1) if e["text"].startswith("radio card")]
    assert [(e["step"], e["text"].endswith(f"register {n} next turn")) for n, e in enumerate(radio, 1)] == \
        [("robots", True), ("radio beams", True)]
    locked = p.robot("Twonky")["locked"]
    assert locked == {"1": radio[0]["card"], "2": radio[1]["card"]}
    assert p.damage("Twonky") == 0
    assert not {radio[0]["card"], radio[1]["card"]} & {"FWD1 490"}


def test_the_radio_cards_are_dealt_round_next_turn_and_freed_after_it():
    program = [parse_card(c) for c in ("FWD1 490", "FWD1 500", "UTRN 10", "UTRN 20", "UTRN 30")]
    first = resolve_turn(BOARD, [Robot("Twonky", (2, 4), 0)], {"Twonky": program}, seed=4)
    got = first.robots[0]
    assert len(got.locked) == 2 and sorted(got.option_data[HELD]) == ["1", "2"]  # entered, then stood in it once
    deal = deal_turn([got], "next")
    assert deal.locked["Twonky"] == got.locked
    assert not set(got.locked.values()) & set(deal.hands["Twonky"])
    second = resolve_turn(BOARD, [got], {"Twonky": [got.locked[1], got.locked[2]]})
    assert second.played["Twonky"][:2] == [got.locked[1], got.locked[2]]
    assert second.robots[0].locked == {} and HELD not in second.robots[0].option_data


def test_a_fused_register_is_skipped_and_a_robot_with_none_free_gets_nothing():
    p = play([BEAM], [robot("Twonky", "r3c4", "N", damage=8)], {"Twonky": ["RT90 80"]})
    # 8 damage fuses registers 2-5: turning in it and standing in it both go for register 1, once
    locked = p.robot("Twonky")["locked"]
    assert sorted(locked) == ["1", "2", "3", "4", "5"]
    assert len([e for e in p.events("Twonky") if e["text"].startswith("radio card")]) == 1


def test_the_same_seed_gives_the_same_radio_cards():
    a = play([BEAM], [robot("Twonky", "r3c4", "N")], {}, seed="x")
    b = play([BEAM], [robot("Twonky", "r3c4", "N")], {}, seed="x")
    assert a.robot("Twonky")["locked"] == b.robot("Twonky")["locked"] and len(a.robot("Twonky")["locked"]) == 1
