"""GM input is checked like a player's: squares off the board, misspelt keywords with a suggestion, durations
written the same way everywhere, and answers in the words the players' mails use.

Rulings cited (docs/rulings.md): 18.5, 19.4, 19.5, 19.6, 19.7.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from referee import games as g
from referee.gm.language import parse_lines

from .conftest import GM, SECRET, T0


def errors_of(*lines: str) -> list[str]:
    return parse_lines(list(enumerate(lines, start=1)))[1]


def deadline(gm) -> object:
    with gm.store.read() as s:
        turn = g.open_turn(s, g.get_game(s, "RR-1"))
        assert turn is not None
        return turn.deadline


def test_a_robot_set_off_the_board_is_refused_and_nothing_changes(running):
    with running.store.read() as s:
        before = g.robots_of(g.open_turn(s, g.get_game(s, "RR-1")))
    ctx = running("SET Twonky AT r40c2", ok=False)
    assert ctx.failures == 1
    assert "AT r40c2 is off the board" in ctx.lines[0] and "rows 1-" in ctx.lines[0]
    ctx = running("SET Twonky ARCHIVE r2c99", ok=False)
    assert "ARCHIVE r2c99 is off the board" in ctx.lines[0]
    with running.store.read() as s:
        assert g.robots_of(g.open_turn(s, g.get_game(s, "RR-1"))) == before


@pytest.mark.parametrize("line, hint", [
    ("SET DEADLIN +2d", "did you mean SET DEADLINE?"),
    ("PAUZE", "did you mean PAUSE?"),
    ("ENDGAME", "did you mean END GAME?"),
    ("ADD PLAYR carol@example.test Zoom", "did you mean ADD PLAYER?"),
    ("HOLD FOR REVEIW ON", "did you mean HOLD FOR REVIEW?"),
    ("SET Twonky FACNG N", "did you mean FACING?"),
    ("NEWGAME RR-2 COURS sprint", "did you mean COURSE?"),
])
def test_a_misspelt_keyword_is_refused_with_a_suggestion(line, hint):
    [error] = errors_of(line)
    assert error.startswith("line 1: ") and hint in error


def test_a_robot_named_almost_like_a_keyword_is_still_a_robot():
    assert errors_of("SET Deadly AT r1c1") == []  # a field follows: Deadly is a robot, not a misspelt DEADLINE


def test_a_misspelt_course_is_refused_with_a_suggestion(gm):
    ctx = gm("NEWGAME RR-2 COURSE sprnt", ok=False)
    assert ctx.failures == 1 and "did you mean sprint?" in ctx.lines[0]


@pytest.mark.parametrize("written", ["2d", "2 days", "2days", "1d 24h", "48 hours", "BY 2 days"])
def test_extend_takes_a_duration_written_any_of_the_usual_ways(running, written):
    before = deadline(running)
    running(f"EXTEND {written}")
    assert deadline(running) == before + timedelta(days=2)


@pytest.mark.parametrize("written", ["3d", "3 days"])
def test_newgame_and_set_deadline_take_the_same_durations(gm, written):
    gm(f"NEWGAME RR-1 COURSE sprint DEADLINE {written} REMINDER 12 hours", "ADD PLAYER a@example.test Twonky",
       "ADD PLAYER b@example.test Hammer", "START")
    assert deadline(gm) == T0 + timedelta(days=3)
    gm(f"SET DEADLINE +{written}")
    assert deadline(gm) == T0 + timedelta(days=3)


def test_a_duration_that_is_none_says_how_to_write_one():
    [error] = errors_of("EXTEND 2 fortnights")
    assert "is not a duration such as 2d, 36h" in error


def test_status_and_corrections_write_health_as_the_players_mails_do(running):
    ctx = running("SET Twonky DAMAGE 3 LIVES 2 FLAGS 1")
    assert "damage 3 (HP 7), lives 2, flags touched 1" in ctx.lines[0]
    ctx = running("STATUS")
    assert "damage 3 (HP 7), lives 2, flags touched 1" in ctx.lines[0]
    # the deadline as the players' mails write it: weekday, date, UTC, and the time left
    assert "deadline Wed 3 Jun 2026, 12:00 UTC (in 2 days)" in ctx.lines[0]


def test_a_gm_mail_with_a_misspelt_command_is_answered_with_the_suggestion(running):
    answer = running.mail(f"BEGIN GM RR-1 key {SECRET}\nSET DEADLIN +1d\nEND\n", sender=GM)
    assert answer.reply is not None and "did you mean SET DEADLINE?" in answer.reply
