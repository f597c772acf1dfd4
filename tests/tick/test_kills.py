"""Real ``referee tick`` and ``referee ingest`` processes killed with SIGKILL while they work: no mail is
lost, every GM mail is carried out and answered exactly once, and a mail the SMTP server took just
before a kill may arrive twice (same Message-ID), counted. Bounded here; ``benchmarks/kill_intake.py``
runs the same rigs with the big counts and prints the figures.

The kills are at fault points or at points of the processes' processor time (see ``kills.py``), never at
wall-clock moments: they land alike on a loaded machine, so these tests run beside the others. The ticks are
forked from a Python that imported the product once (tests/servers/forked.py): real processes and real kills,
without the imports that a fresh interpreter spends most of a short run on (the ingests start fresh, as the
mail server starts them)."""

from __future__ import annotations

import pytest

from .kills import Rig, gm_kills, smtp_kills

#: dozens of processes started one after another: minutes on a loaded machine; the limit is for a hang only
pytestmark = pytest.mark.timeout(1800)

#: ticks killed inside a GM mail, per database (as many again are killed at random points)
GM_MIDWAY = 6
#: ticks killed at random points on the SMTP transport (at most three times as many tries)
SMTP_TICK_KILLS = 4


def test_ticks_killed_inside_gm_mails_carry_out_and_answer_each_exactly_once(store, db_url, tmp_path, forker):
    report = gm_kills(Rig(db_url, tmp_path, forker=forker), store, midway=GM_MIDWAY)
    print(f"\nGM mails, maildir transport: {report.line()}")
    assert report.gm_midway_kills >= GM_MIDWAY and report.tick_kills >= GM_MIDWAY
    assert (report.lost, report.gm_lost, report.gm_twice, report.unsent) == ([], [], [], [])


@pytest.mark.parametrize("dialect", ["sqlite"])  # PostgreSQL: benchmarks/kill_intake.py --postgresql
def test_ticks_and_ingests_killed_on_the_smtp_transport_lose_nothing(store, db_url, tmp_path, dovecot,
                                                                     smtp_server, dialect, forker):
    rig = Rig(db_url, tmp_path, transport="smtp", smtp_port=smtp_server.port, forker=forker)
    report = smtp_kills(rig, store, dovecot, tick_kills=SMTP_TICK_KILLS, max_attempts=3 * SMTP_TICK_KILLS)
    print(f"\norders and GM mails, smtp transport: {report.line()}")
    assert report.tick_kills == SMTP_TICK_KILLS
    assert (report.lost, report.gm_lost, report.gm_twice, report.orders_wrong, report.unsent) == ([], [], [], [], [])
    assert report.doubled <= report.resends   # every copy too many was a resend the referee counted
