"""A status an element gives a robot is shown where the player looks, in the words its module declares: the
stage table's mode row, the end-of-turn table, the story's "Now" line and "Your robot" in the answer to STATUS;
a cause of destruction is told as declared (the story's fall, the table's cause)."""

from __future__ import annotations

from datetime import UTC, datetime

from referee.engine import Robot, parse_card, resolve_turn
from referee.engine.state import GASSED
from referee.messages.players import status_text
from referee.render.report_types import Column
from referee.render.stage_tables import end_table, stage_table
from referee.render.story import robot_story
from referee.store.models import Game, Player

from ..engine.scenarios import element, engine_board, pit

BOARD = engine_board([element("soporific_gas", "r3c4"), pit("r1c7")])
COLUMNS = [Column("Twonky", "Twonky", "red", "#c00000"), Column("Zoom", "Zoom", "blue", "#0000c0")]
PROGRAM = [parse_card(t) for t in ("FWD1 490", "FWD1 500", "FWD2 670", "LF90 70", "RT90 80")]


def _turn():
    robots = [Robot("Twonky", (1, 4), 0), Robot("Zoom", (1, 6), 1)]
    return resolve_turn(BOARD, robots, {"Twonky": PROGRAM, "Zoom": [parse_card(t) for t in (
        "FWD1 510", "LF90 90", "RT90 100", "LF90 110", "RT90 120")]})


def _mode(table, column: int) -> list[str]:
    return next(r for r in table.rows if r.key == "mode").cells[column]


def test_a_robot_falling_asleep_in_the_gas_is_shown_asleep_in_the_tables():
    result = _turn()
    before, after = result.frames[0], result.robots
    stage = stage_table(2, COLUMNS, before, after, result.events, result.played, {})
    assert _mode(stage, 0) == ["real -> asleep (soporific gas)"]
    end = end_table(COLUMNS, before, after, result.events, 0)
    assert _mode(end, 0) == ["real -> real, asleep (soporific gas), powered down"]


def test_the_story_tells_when_it_fell_asleep_and_that_it_sleeps_now():
    story = robot_story(BOARD, _turn(), "Twonky", 4)
    assert story[0] == "Twonky, turn 4: moved 2 squares by its cards; asleep (soporific gas) in register 2."
    assert story[1] == "Now at r3c4 facing N, asleep (soporific gas), 10 HP (0 damage), 3 robots left."


def test_a_fall_is_told_as_its_cause_declares_it():
    story = robot_story(BOARD, _turn(), "Zoom", 4)
    assert story[0] == "Zoom, turn 4: drove into the pit at r1c7 in register 1 (FWD1 510)."


def test_your_robot_in_the_answer_to_status_lists_its_statuses():
    game = Game(code="g1", title="", course="test", status="running")
    twonky = Player(id=1, robot="Twonky", status="active", timezone=None)
    game.players = [twonky]
    asleep = next(r for r in _turn().robots if r.name == "Twonky")
    assert GASSED in asleep.statuses
    text = status_text(game, twonky, None, [asleep], orders={}, now=datetime(2026, 1, 1, tzinfo=UTC))
    mine = text.split("Your robot Twonky:\n", 1)[1].splitlines()
    assert "  asleep (soporific gas)" in mine
