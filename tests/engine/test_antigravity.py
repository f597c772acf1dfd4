"""Antigravity fields: a robot on one when the turn's first cards are revealed flies for the turn, or until
a hit lands on it; pits, belts, gears and the other floor elements ignore a flying robot.

Rulings cited (docs/rulings.md): 15.9.
"""

from __future__ import annotations

from .scenarios import belt, element, gear, laser, pit, play, pusher, robot

FIELD = element("antigravity", "r2c3")


def test_a_flying_robot_passes_over_a_pit_and_lands_at_the_end_of_the_turn():
    p = play([FIELD, pit("r3c3")], [robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD2 670"]}, phases=5)
    assert p.texts("Twonky", 1)[:2] == ["flies (antigravity)", "move to r4c3"]
    assert p.at("Twonky") == "r4c3"
    assert p.texts("Twonky", "end")[0] == "lands"
    assert "flying" not in (p.robot("Twonky").get("statuses") or [])


def test_belts_and_gears_ignore_a_flying_robot_but_pushers_push_it():
    elements = [FIELD, belt("r3c3", "E"), gear("r4c3", "left"), pusher("r4c3", "W", 2)]
    p = play(elements, [robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert p.texts("Twonky", 1, step="belts") == []
    assert p.texts("Twonky", 2, step="gears") == []
    assert p.texts("Twonky", 2, step="pushers") == ["pushed to r4c2"]
    assert (p.at("Twonky"), p.facing("Twonky")) == ("r4c2", "N")


def test_a_robot_that_did_not_start_the_turn_on_the_field_does_not_fly():
    p = play([FIELD, pit("r3c3")], [robot("Twonky", "r1c3", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert p.at("Twonky") is None
    assert not p.events("Twonky", text="flies (antigravity)")


def test_a_laser_hit_lands_it_and_over_a_pit_it_falls_in():
    elements = [FIELD, pit("r3c3"), laser("r3c8", "W")]
    p = play(elements, [robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD1 490"]}, phases=1)
    assert [e["text"] for e in p.events("Twonky", phase=1, step="lasers")][-2:] == ["lands", "-1 HP"]
    assert p.at("Twonky") is None
    assert [e.get("cause") for e in p.events("Twonky", text="destroyed")] == ["pit"]


def test_a_virtual_robot_flies_too_and_a_landed_robot_rides_belts_again():
    elements = [FIELD, laser("r3c8", "W"), belt("r3c3", "N")]
    p = play(elements, [robot("Ghost", "r2c3", "N", virtual=True)], {"Ghost": ["FWD1 490"]}, phases=2)
    # phase 1: flies onto the belt (not carried), is hit by the board laser and lands; phase 2 it rides
    assert p.texts("Ghost", 1, step="belts") == []
    assert p.events("Ghost", phase=1, text="lands")
    assert p.texts("Ghost", 2, step="belts") == ["conveyed to r4c3"]


def test_the_report_shows_a_flying_robot_in_its_mode_row():
    from referee.engine import Robot, resolve_turn
    from referee.render import build_report, make_players

    from .scenarios import engine_board

    board = engine_board([FIELD], width=5, height=5)
    result = resolve_turn(board, [Robot("Twonky", (2, 3), 0)], {}, phases=5)
    tables = build_report(board, result, make_players(["Twonky"]), "RR-7", 5).tables

    def mode(table):
        return next(r for r in table.rows if r.key == "mode").cells[0]

    assert mode(tables[0]) == ["real -> flying"]
    assert mode(tables[1]) == ["real, flying"]
    assert mode(tables[-1]) == ["real, flying -> real"]
