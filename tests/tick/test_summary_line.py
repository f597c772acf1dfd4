"""The tick's one summary line (what cron mails the operator) says when the outbox pass left mail behind.

Rulings cited (docs/rulings.md): 19.a.
"""

from __future__ import annotations

from referee.cron.tick_summary import TickSummary


def test_a_tick_that_left_mails_in_the_outbox_says_how_many():
    summary = TickSummary(fetched=3, processed=3, sent=500, unsent=120, seconds=241.0)
    assert summary.line() == ("tick: fetched 3, processed 3, resolved 0, reminded 0, sent 500, "
                              "left in the outbox for the next tick 120 in 241.0 s")


def test_a_tick_that_sent_everything_does_not_mention_the_outbox():
    assert "left in the outbox" not in TickSummary(sent=12, seconds=1.0).line()
