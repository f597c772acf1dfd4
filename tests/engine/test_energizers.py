"""Energizers: a robot whose movement card ends on one executes two registers in every later phase of the
turn, in register order, wrapping round after register 5.

Rulings cited (docs/rulings.md): 15.10.
"""

from __future__ import annotations

from .scenarios import belt, element, laser, play, robot

CHARGER = element("energizer", "r2c3")


def test_the_rule_book_example_energized_in_phase_2():
    program = {"Twonky": ["UTRN 10", "FWD1 490", "UTRN 20", "UTRN 30", "UTRN 40"]}
    p = play([CHARGER], [robot("Twonky", "r1c3", "S")], program, phases=5)
    assert p.texts("Twonky", 2, step="robots")[-1] == "energized"
    doubles = [(e["phase"], e["registers"]) for e in p.events("Twonky") if e["text"].startswith("executes two")]
    assert doubles == [(3, [3, 4]), (4, [5, 1]), (5, [2, 3])]
    assert p.texts("Twonky", 4, step="robots")[0] == "executes two registers from register 5 (energizer)"


def test_an_energized_robot_moves_twice_as_far():
    program = {"Twonky": ["FWD1 490", "FWD1 500", "FWD2 670", "UTRN 10", "UTRN 20"]}
    p = play([CHARGER], [robot("Twonky", "r1c3", "N")], program, phases=2)
    # phase 1: onto the energizer; phase 2: registers 2 and 3, FWD1 then FWD2
    assert p.texts("Twonky", 2, step="robots") == ["executes two registers from register 2 (energizer)", "move to r3c3",
                                                    "move to r5c3"]
    assert p.at("Twonky") == "r5c3"


def test_a_robot_carried_or_turning_onto_an_energizer_is_not_energized():
    p = play([CHARGER, belt("r1c3", "N")], [robot("Twonky", "r1c3", "N")], {"Twonky": ["RT90 80"]}, phases=2)
    assert p.at("Twonky") == "r2c3"
    assert not p.events("Twonky", text="energized")


def test_it_wraps_round_to_register_1_is_still_shot_once_a_phase_and_ends_with_the_turn():
    """Energized in phase 1: registers 2+3, 4+5, then 1 (FWD1 again: out of the beam) and 2, 3+4."""
    program = {"Twonky": ["FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"]}
    p = play([CHARGER, laser("r2c8", "W")], [robot("Twonky", "r1c3", "N")], program, phases=5)
    assert p.at("Twonky") == "r3c3"
    assert p.damage("Twonky") == 3  # in the beam at the end of phases 1 to 3
    assert "energized" not in (p.robot("Twonky").get("statuses") or [])


def test_the_report_shows_an_energized_robot_in_its_mode_row():
    from referee.engine import Robot, parse_card, resolve_turn
    from referee.render import build_report, make_players

    from .scenarios import engine_board

    board = engine_board([CHARGER], width=5, height=5)
    cards = [parse_card(c) for c in ("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40")]
    result = resolve_turn(board, [Robot("Twonky", (1, 3), 0)], {"Twonky": cards}, phases=2)
    tables = build_report(board, result, make_players(["Twonky"]), "RR-7", 5).tables

    def mode(table):
        return next(r for r in table.rows if r.key == "mode").cells[0]

    assert mode(tables[0]) == ["real -> energized"]
    assert mode(tables[1]) == ["real, energized"]
