"""Deadlines as players read them, and a game's fixed deadline clock time (issue 18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.common.deadlines import BadClock, deadline_after, deadline_text, parse_clock

MONDAY_EVENING = datetime(2026, 11, 23, 22, 40, tzinfo=UTC)


def test_a_deadline_says_weekday_date_utc_and_time_left():
    deadline = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)
    assert deadline_text(deadline, MONDAY_EVENING) == "Thu 26 Nov 2026, 18:00 UTC (in 2 days 19 hours)"


def test_a_player_with_a_time_zone_also_reads_it_in_their_own_clock():
    deadline = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)
    text = deadline_text(deadline, MONDAY_EVENING, "Europe/Berlin")
    assert text == "Thu 26 Nov 2026, 18:00 UTC (in 2 days 19 hours; 19:00 Thu in Europe/Berlin)"
    # across the date line the local weekday is the other day
    assert deadline_text(deadline, None, "Pacific/Auckland").endswith("(07:00 Fri in Pacific/Auckland)")


def test_a_passed_deadline_says_so_and_no_deadline_is_no_text():
    assert deadline_text(MONDAY_EVENING, MONDAY_EVENING + timedelta(minutes=1)).endswith("(passed)")
    assert deadline_text(None, MONDAY_EVENING) is None


def test_without_a_clock_time_the_deadline_is_the_delay_after_the_turn_mail():
    assert deadline_after(MONDAY_EVENING, 3 * 86400, None) == MONDAY_EVENING + timedelta(days=3)
    assert deadline_after(MONDAY_EVENING, 0, "21:00") is None


def test_deadline_3d_at_21_falls_at_21_utc_on_the_day_the_delay_ends_whenever_the_turn_mail_went():
    for opened in (MONDAY_EVENING, MONDAY_EVENING.replace(hour=3, minute=5), MONDAY_EVENING.replace(hour=21)):
        deadline = deadline_after(opened, 3 * 86400, "21:00")
        assert deadline is not None
        assert (deadline.hour, deadline.minute) == (21, 0)
        assert deadline.date() == (opened + timedelta(days=3)).date()


def test_a_clock_time_never_puts_the_deadline_before_the_turn_mail():
    opened = MONDAY_EVENING  # 22:40, an hour's delay ends at 23:40, and 21:00 that day is already past
    deadline = deadline_after(opened, 3600, "21:00")
    assert deadline == datetime(2026, 11, 24, 21, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", ["25:00", "9", "21.00", "noon"])
def test_a_clock_time_that_is_no_clock_time_is_refused(text):
    with pytest.raises(BadClock):
        parse_clock(text)
    assert parse_clock("9:30") == "09:30"
