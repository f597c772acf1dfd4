"""The planner that plans against the others powers a robot down when it ends the turn badly damaged:
it repairs everything the next turn instead of racing on with a short hand and fused registers."""

from __future__ import annotations

from referee.autopilot import plan_against_others, plan_program
from referee.autopilot.power import POWER_DOWN_AT, powers_down
from referee.autopilot.score import Score
from referee.engine import Card, Robot, hand_size, locked_registers, parse_card
from referee.engine.geometry import E, N
from tests.engine.scenarios import engine_board, flag, laser

HAND = [parse_card(t) for t in ("FWD1 490", "FWD2 670", "RT90 80", "LF90 90", "FWD1 500", "FWD3 800",
                                "RVS1 430", "UTRN 10", "FWD1 510")]
FUSED = [parse_card("RT90 100"), parse_card("LF90 110")]


def robot_with(damage: int, at: tuple[int, int] = (1, 1), facing: int = N) -> tuple[Robot, list[Card], dict[int, Card]]:
    """A robot with ``damage``: its hand as dealt, and its fused registers holding last turn's cards."""
    fused = dict(zip(locked_registers(damage), FUSED, strict=False))
    return (Robot("Twonky", at, facing, damage=damage, locked=dict(fused), archive=(1, 1)),
            HAND[:hand_size(damage)], fused)


def test_a_robot_ending_the_turn_with_six_damage_powers_down_next_turn():
    """Twonky has 6 damage (three cards, registers 4 and 5 fused) and its flag is far away: it plays its
    best program and announces a power down."""
    board = engine_board([flag("r12c12", 1)])
    me, hand, fused = robot_with(6)
    plan = plan_against_others(board, [me], "Twonky", hand, locked=fused, seed="t")
    assert POWER_DOWN_AT == 6
    assert plan.predicted.damage == 6 and plan.power_down
    assert plan.program[3:] == FUSED  # the fused registers keep their cards


def test_with_less_damage_it_races_on():
    board = engine_board([flag("r12c12", 1)])
    me, hand, fused = robot_with(4)
    assert not plan_against_others(board, [me], "Twonky", hand, locked=fused, seed="t").power_down


def test_damage_taken_during_the_turn_counts():
    """Twonky has 5 damage; a board laser on r1c3 fires west along its row. Its best program runs east
    through the beam (one hit): it ends the turn with 6 damage, so it powers down."""
    board = engine_board([flag("r12c12", 1), laser("r1c3", "W")])
    me, hand, fused = robot_with(5, at=(1, 1), facing=E)
    plan = plan_against_others(board, [me], "Twonky", hand, locked=fused, seed="t")
    assert plan.predicted.damage == 6 and plan.power_down


def test_a_robot_that_touches_its_last_flag_does_not_power_down():
    """The flag is two squares ahead: the race is won this turn, whatever the damage."""
    board = engine_board([flag("r3c1", 1)])
    me, hand, fused = robot_with(7)
    plan = plan_against_others(board, [me], "Twonky", hand, locked=fused, seed="t")
    assert plan.predicted.flags == 1 and not plan.power_down


def test_the_standing_still_planner_never_powers_down_and_the_switch_turns_it_off():
    board = engine_board([flag("r12c12", 1)])
    me, hand, fused = robot_with(8)
    assert not plan_program(board, [me], "Twonky", hand, locked=fused, seed="t").power_down
    assert not plan_against_others(board, [me], "Twonky", hand, locked=fused, seed="t", power_down=False).power_down


def test_a_robot_destroyed_or_off_the_board_is_not_powered_down():
    lost = Score(True, 0, 0, 9, 0)
    alive = Score(False, 0, 5, 9, 0)
    gone = Robot("Twonky", None, N, damage=9)
    assert not powers_down(Robot("Twonky", (1, 1), N, damage=9), lost, 2)
    assert not powers_down(gone, alive, 2)
    assert powers_down(Robot("Twonky", (1, 1), N, damage=9), alive, 2)
