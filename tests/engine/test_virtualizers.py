"""Virtualizers: a robot on one when a phase's cards are revealed is virtual for five register phases,
that one included, even when alone; then it turns real by the ordinary rule, as soon as it is alone.

Rulings cited (docs/rulings.md): 15.8.
"""

from __future__ import annotations

from referee.engine import Robot, parse_card, resolve_turn
from referee.engine.state import VIRTUALIZED

from .scenarios import belt, element, engine_board, laser, play, robot

PAD = element("virtualizer", "r3c3")


def test_a_robot_on_a_virtualizer_stays_virtual_though_alone_and_turns_real_after_the_fifth_phase():
    p = play([PAD], [robot("Twonky", "r3c3", "N")], {"Twonky": ["FWD1 490"]}, phases=5)
    assert p.texts("Twonky", 1)[0] == "turns virtual (virtualizer)"
    assert [e["phase"] for e in p.events("Twonky", text="real")] == [5]


def test_a_virtualized_robot_neither_pushes_nor_is_shot_by_robots_but_a_board_laser_hits_it():
    robots = [robot("Twonky", "r3c3", "N"), robot("Hulk", "r4c3", "S"), robot("Zoom", "r1c3", "N")]
    p = play([PAD, laser("r4c8", "W")], robots, {"Twonky": ["FWD1 490"]}, phases=1)
    assert p.at("Twonky") == p.at("Hulk") == "r4c3"  # it moves into Hulk's square, Hulk is not pushed
    assert p.damage("Twonky") == 1  # the board laser; not Zoom's shot
    assert p.damage("Hulk") == 2  # the board laser and Zoom's shot


def test_a_belt_carries_a_robot_onto_the_virtualizer_and_it_turns_virtual_when_the_next_cards_are_revealed():
    p = play([PAD, belt("r2c3", "N")], [robot("Twonky", "r2c3", "N")], {}, phases=2)
    assert not p.events("Twonky", phase=1, text="turns virtual (virtualizer)")
    assert p.events("Twonky", phase=2, text="turns virtual (virtualizer)")
    assert p.robot("Twonky")["virtual"] is True


def test_powered_down_robots_turn_virtual_too():
    p = play([PAD], [robot("Sleepy", "r3c3", "N", powered_down=True)], {}, phases=1)
    assert p.robot("Sleepy")["virtual"] is True


def test_the_five_phases_run_on_into_the_next_turn():
    """Virtualized in phase 4: virtual through phase 3 of the next turn, real when it ends (alone)."""
    board = engine_board([PAD])
    twonky = Robot("Twonky", (5, 5), 0, virtual=True, statuses={VIRTUALIZED}, option_data={VIRTUALIZED: {"phases": 3}})
    program = {"Twonky": [parse_card(c) for c in ("UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50")]}
    result = resolve_turn(board, [twonky], program)
    real = [e.phase for e in result.events if e.text == "real"]
    assert real == [3]
    assert result.robots[0].virtual is False and not result.robots[0].statuses


def test_destruction_ends_it():
    p = play([PAD, element("pit", "r4c3")], [robot("Twonky", "r3c3", "N")], {"Twonky": ["FWD1 490"]}, phases=1)
    assert p.at("Twonky") is None
    assert not p.robot("Twonky").get("statuses")


def test_the_report_shows_the_robot_virtual_by_virtualizer_in_its_mode_row():
    from referee.render import build_report, make_players

    board = engine_board([PAD], width=5, height=5)
    result = resolve_turn(board, [Robot("Twonky", (3, 3), 0)], {}, phases=2)
    tables = build_report(board, result, make_players(["Twonky"]), "RR-7", 5).tables

    def mode(table):
        return next(r for r in table.rows if r.key == "mode").cells[0]

    assert mode(tables[0]) == ["real -> virtual (virtualizer)"]
    assert mode(tables[1]) == ["virtual (virtualizer)"]
