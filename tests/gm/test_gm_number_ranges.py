"""Every number a GM types has a range: a value outside it is refused with the range, the line changes
nothing, and the other lines of the same mail go on (issue 32, defect 5)."""

from __future__ import annotations

from datetime import datetime

import pytest

from referee import games as g

from .conftest import GM, SECRET

THIRTY = "9" * 30


def mail(gm, *lines: str, game: str = "RR-1"):
    return gm.mail(f"BEGIN GM {game} key {SECRET}\n" + "\n".join(lines) + "\nEND\n")


def deadline(gm) -> datetime | None:
    with gm.store.read() as s:
        turn = g.open_turn(s, g.get_game(s, "RR-1"))
        assert turn is not None
        return turn.deadline


@pytest.mark.parametrize("line, says", [
    ("EXTEND 9999999d", "the delay must be from 0 to 365d"),
    (f"EXTEND {THIRTY}", "the delay must be from 0 to 365d"),
    (f"SET DEADLINE +{THIRTY}", "the delay must be from 0 to 365d"),
    (f"PUBLISH {THIRTY}", "the turn number must be from 1 to 99999, not a number of 30 digits"),
    (f"ROLLBACK {THIRTY}", "the turn number must be from 1 to 99999"),
    (f"RERUN {THIRTY}", "the turn number must be from 1 to 99999"),
    ("ROLLBACK 0", "the turn number must be from 1 to 99999, not 0"),
    (f"SET Twonky LIVES {THIRTY}", "LIVES must be from 0 to 9"),
    ("SET Twonky LIVES 12", "LIVES must be from 0 to 9, not 12"),
    ("SET Twonky DAMAGE 10", "DAMAGE must be from 0 to 9, not 10"),
    ("SET Twonky FLAGS 3", "FLAGS is 0 to 2: sprint has 2 flags"),
    ("SET DEADLINE 9999-12-31 23:59", "a deadline is at most 366 days ahead"),
    ("SET DEADLINE 2027-09-01 12:00", "a deadline is at most 366 days ahead"),
    ("REPLACE Twonky WITH referee@example.test", "is the referee's own address"),
    ("REPLACE Twonky WITH Referee+x@Example.test", "is the referee's own address"),
    ("REPLACE Twonky WITH ålice@exämple.org", "letters outside ASCII"),
])
def test_a_number_out_of_range_is_refused_nothing_changes_and_the_next_lines_go_on(running, line, says):
    before = deadline(running)
    answer = mail(running, line, "EXTEND 1h", "STATUS")
    assert answer.accepted and answer.reply is not None
    assert says in answer.reply, answer.reply
    assert "line 3: EXTEND 1h\n    done:" in answer.reply          # the other lines went on
    assert "line 4: STATUS\n    done:" in answer.reply
    assert answer.reason.startswith("1 of ") or answer.reason.endswith("1 line not read"), answer.reason
    assert before is not None and (deadline(running) - before).total_seconds() == 3600
    with running.store.read() as s:
        twonky = g.get_player(s, g.get_game(s, "RR-1"), "Twonky")
        assert twonky.email == "twonky@example.test"


@pytest.mark.parametrize("option, says", [
    (f"DEADLINE {THIRTY}", "DEADLINE (the time players have per turn) must be from 0 to 365d"),
    ("DEADLINE 9999999d", "must be from 0 to 365d, not 9999999d"),
    ("DEADLINE 400d", "must be from 0 to 365d, not 400d"),
    (f"REMINDER {THIRTY}", "REMINDER (before the deadline) must be from 0 to 365d"),
    ("SETTLE 8d", "SETTLE (the wait after the last program) must be from 0 to 7d"),
    (f"MISSED {THIRTY}", "MISSED (turns missed before a seat is declared open; 0: never) must be from 0 to 100"),
    (f'TITLE "{"x" * 100_000}"', "TITLE has at most 200 characters (this one has 100000)"),
])
def test_newgame_refuses_numbers_out_of_range_and_the_lines_that_need_the_game_are_not_run(gm, option, says):
    answer = mail(gm, f"NEWGAME RR-9 COURSE sprint {option}", "ADD PLAYER a@example.test Twonky", "START", game="-")
    assert says in answer.reply, answer.reply[:2000]
    assert "not done: NEWGAME on line 2 could not be read" in answer.reply
    with gm.store.read() as s:
        assert [x.code for x in g.list_games(s, None)] == []


def test_pause_and_resume_keep_the_deadline_within_a_year(running):
    running.later(days=1)
    mail(running, "SET DEADLINE +300d", "PAUSE")
    running.later(days=200)
    answer = mail(running, "RESUME")
    assert "line 2: RESUME\n    done: resumed" in answer.reply, answer.reply
    assert (deadline(running) - running.now).days <= 366


def test_add_player_refuses_the_referees_address_and_non_ascii_ones(gm):
    answer = mail(gm, "NEWGAME RR-1 COURSE sprint", "ADD PLAYER referee@example.test Twonky",
                  "ADD PLAYER ålice@exämple.org Hammer", "ADD PLAYER bob@example.test Zoom", game="-")
    assert "referee@example.test is the referee's own address" in answer.reply
    assert "ålice@exämple.org has letters outside ASCII" in answer.reply and "SMTPUTF8" in answer.reply
    assert "line 5: ADD PLAYER bob@example.test Zoom\n    done:" in answer.reply
    assert answer.reason == "2 of 4 commands not done"
    assert GM
