"""Poison mail (recursion bombs for the mail parsers, floods of headers) is stored raw as ``unreadable``
and taken off the server: ``referee ingest`` exits 0 (the MTA never retries it), the Maildir and IMAP
passes go on past it, and processing never answers it nor fails on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.intake.imap import poll_async
from referee.intake.maildir import poll_maildir
from referee.intake.process import process_pending
from referee.mailparse.unreadable import why_unreadable

from .bombs import BOMBS
from .helpers import address, append, count, incoming, mail, new_game, outbox
from .test_maildir import deliver, maildir_settings, referee  # noqa: F401 (a fixture)

NAMES = list(BOMBS)


def bombs() -> list[bytes]:
    return [make() for make in BOMBS.values()]


def assert_all_unreadable(store, n: int) -> None:
    rows = incoming(store)
    assert len(rows) == n
    assert [r.outcome for r in rows] == ["unreadable"] * n, [(r.outcome, r.reason) for r in rows]
    assert all(r.reason and r.raw for r in rows)


@pytest.mark.parametrize("name", NAMES)
def test_every_bomb_is_told_apart_before_any_parser_reads_it(name):
    assert why_unreadable(BOMBS[name]()) is not None


def test_an_ordinary_mail_is_not_poison():
    assert why_unreadable(mail(address("alice"), "BEGIN RR-1 Twonky turn 1\n1: U1\nEND\n")) is None


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
@pytest.mark.parametrize("name", NAMES)
def test_ingest_stores_a_bomb_and_tells_the_mta_it_was_taken(maildir_settings, store, name):  # noqa: F811
    new_game(store)
    result = referee(maildir_settings, "ingest", "--process", stdin=BOMBS[name]())
    assert result.returncode == 0, result.stderr
    assert b"stored as mail" in result.stdout
    assert_all_unreadable(store, 1)
    assert outbox(store) == []


def test_a_maildir_pass_stores_the_bombs_and_puts_them_away(maildir_settings, store):  # noqa: F811
    new_game(store)
    root = Path(maildir_settings.maildir_in)
    deliver(root, [*bombs(), mail(address("alice"), "HELP\n")])
    report = poll_maildir(maildir_settings, store)
    assert (report.stored, report.refused) == (len(BOMBS) + 1, 0)
    assert os.listdir(root / "new") == []
    processed = process_pending(store, maildir_settings)
    assert processed.outcomes == {"accepted": 1}   # the bombs were never new: only the HELP is processed
    rows = incoming(store)
    assert [r.outcome for r in rows] == ["unreadable"] * len(BOMBS) + ["accepted"]
    assert [m.recipients for m in outbox(store)] == [[address("alice")]]


async def test_an_imap_poll_stores_the_bombs_and_moves_them(dovecot, settings, store):
    new_game(store)
    await append(dovecot, [*bombs(), mail(address("alice"), "HELP\n")])
    report = await poll_async(settings, store)
    assert report.stored == len(BOMBS) + 1
    assert await count(dovecot, "INBOX") == 0
    assert await count(dovecot, "Processed") == len(BOMBS) + 1
    process_pending(store, settings)
    assert [r.outcome for r in incoming(store)] == ["unreadable"] * len(BOMBS) + ["accepted"]
    assert len(outbox(store)) == 1


def test_processing_a_bomb_put_back_by_hand_records_it_unreadable_again(maildir_settings, store):  # noqa: F811
    from referee.store.mail import record_incoming, reprocess

    with store.write() as s:
        for raw in bombs():
            record_incoming(s, raw, source="stdin")
        reprocess(s, outcome="unreadable")
    report = process_pending(store, maildir_settings)
    assert report.outcomes == {"unreadable": len(BOMBS)}
    assert outbox(store) == []
