"""Soporific gas: a robot whose movement card ends in the gas sleeps (powered down) for the next five
register phases, into the next turn, then wakes and plays the cards it kept in their registers.

Rulings cited (docs/rulings.md): 15.18.
"""

from referee.engine import Robot, deal_turn, parse_card, resolve_turn
from referee.engine.state import GASSED

from .scenarios import element, engine_board, play, robot

GAS = element("soporific_gas", "r3c4")
BOARD = engine_board([GAS])


def cards(*texts):
    return [parse_card(t) for t in texts]


def test_ending_a_move_in_the_gas_puts_it_to_sleep_and_it_keeps_its_later_cards():
    program = cards("FWD1 490", "FWD1 500", "FWD2 670", "LF90 70", "RT90 80")
    result = resolve_turn(BOARD, [Robot("Twonky", (1, 4), 0)], {"Twonky": program})
    sleeper = result.robots[0]
    assert sleeper.pos == (3, 4) and sleeper.facing == 0  # gassed in phase 2: registers 3-5 not played
    assert result.played["Twonky"][2:] == [None, None, None]
    assert sleeper.powered_down and GASSED in sleeper.statuses
    assert sleeper.option_data[GASSED] == {"asleep": 2, "cards": {"3": "FWD2 670", "4": "LF90 70", "5": "RT90 80"}}
    assert any(e.text == "falls asleep in the gas" and e.phase == 2 for e in result.events)


def test_next_turn_it_sleeps_two_more_phases_repaired_then_plays_its_old_registers_three_to_five():
    program = cards("FWD1 490", "FWD1 500", "FWD2 670", "LF90 70", "RT90 80")
    sleeper = resolve_turn(BOARD, [Robot("Twonky", (1, 4), 0, damage=3)], {"Twonky": program}).robots[0]
    deal = deal_turn([sleeper, Robot("Hulk", (8, 8), 0)], "next")
    assert "Twonky" not in deal.hands  # asleep: no cards, no program owed
    assert not set(cards("FWD2 670", "LF90 70", "RT90 80")) & set(deal.hands["Hulk"])
    second = resolve_turn(BOARD, [sleeper], {})
    woke = second.robots[0]
    assert second.played["Twonky"] == [None, None, *cards("FWD2 670", "LF90 70", "RT90 80")]
    assert woke.damage == 0  # a turn begun asleep begins with the power-down repair
    assert woke.pos == (5, 4) and woke.facing == 0  # two north, then left and right
    assert not woke.powered_down and GASSED not in woke.statuses and GASSED not in woke.option_data
    assert [e.phase for e in second.events if e.text == "wakes up"] == [3]


def test_asleep_after_the_last_register_it_sleeps_the_whole_next_turn():
    walk = cards("UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "RVS1 430")  # facing south, backs north into it
    sleeper = resolve_turn(BOARD, [Robot("Twonky", (2, 4), 2)], {"Twonky": walk}).robots[0]
    assert sleeper.pos == (3, 4) and sleeper.option_data[GASSED] == {"asleep": 5, "cards": {}}
    second = resolve_turn(BOARD, [sleeper], {})
    after = second.robots[0]
    assert second.played["Twonky"] == [None] * 5
    assert not after.powered_down and GASSED not in after.statuses  # it owes a program the turn after


def test_pushed_carried_or_turning_in_the_gas_does_not_gas_and_passing_through_does_not():
    p = play([GAS], [robot("Twonky", "r2c4", "N"), robot("Hulk", "r1c4", "N")], {"Hulk": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4" and not p.robot("Twonky").get("statuses")
    p = play([GAS], [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert not p.robot("Twonky").get("statuses")
    p = play([GAS], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4" and not p.robot("Twonky").get("statuses")


def test_the_report_shows_the_sleeper_in_its_mode_row():
    from referee.render import build_report, make_players

    program = cards("FWD1 490", "FWD1 500", "FWD2 670", "LF90 70", "RT90 80")
    result = resolve_turn(BOARD, [Robot("Twonky", (1, 4), 0)], {"Twonky": program}, phases=3)
    tables = build_report(BOARD, result, make_players(["Twonky"]), "RR-7", 5).tables

    def mode(table):
        return next(r for r in table.rows if r.key == "mode").cells[0]

    assert mode(tables[1]) == ["real -> asleep (soporific gas)"]
    assert mode(tables[2]) == ["real, asleep (soporific gas), powered down"]
