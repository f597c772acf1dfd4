"""The outbox sent over a real SMTP server on loopback and read back over IMAP: what arrives is what was
queued; temporary failures are retried, permanent ones are recorded and told to the GM, and a sender that
dies between sending and recording sends the mail again rather than losing it."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from PIL import Image

from referee import games as g
from referee.mailer import DEFAULT_POLICY, KIND_FAILURE, SmtpTransport, send_outbox
from referee.mailer.outbox import failure_notice
from referee.store.mail_models import OutgoingMail
from referee.store.outbox import enqueue_mail
from tests.reports.helpers import PLAYERS, T0, html_of, mime_tree, new_game, outbox, parse, play_turn, text_of
from tests.servers.ports import free_port

from .conftest import FAST, fetch

NOW = T0 + timedelta(hours=1)


async def _send_start_mails(store, settings) -> None:
    """A new game's start mails go first, so that a test's own pass sees only its turn's mails."""
    report = await send_outbox(store, settings, now=T0, policy=FAST)
    assert report.sent == len(PLAYERS) + 1 and not report.errors


async def test_a_turns_mails_arrive_as_queued_with_pictures_gif_tables_and_loop_headers(store, settings, dovecot):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    report = await send_outbox(store, settings, now=NOW, policy=FAST)
    assert (report.sent, report.postponed, report.failed) == (len(ids), 0, 0)
    for row in outbox(store, ids):
        assert (row.status, row.sent_at, row.attempts) == ("sent", NOW, 1)
        user = row.recipients[0].split("@")[0]
        [got] = await fetch(dovecot, user, row.message_id)
        queued = parse(row.raw)
        assert got["Message-ID"] == row.message_id
        assert got["Delivered-To"] == row.recipients[0]
        for name in ("From", "To", "Subject", "Date", "Auto-Submitted", "X-Loop", "X-Referee-Game"):
            assert got[name] == queued[name], name
        assert got["Auto-Submitted"] == "auto-generated" and got["X-Loop"] == "referee@example.test"
        assert mime_tree(got) == mime_tree(queued)
        # the tables as rendered, in both parts
        assert text_of(got) == text_of(queued)
        assert html_of(got) == html_of(queued)
        assert "Stage 1" in text_of(got) and "End of turn" in text_of(got)
        pictures = [p for p in got.walk() if p.get_content_type() == "image/png"]
        for part in pictures:
            assert f'src="cid:{part["Content-ID"].strip("<>")}"' in html_of(got)
            Image.open(io.BytesIO(part.get_content())).load()
        [gif] = [p for p in got.walk() if p.get_content_type() == "image/gif"]
        assert f'src="cid:{gif["Content-ID"].strip("<>")}"' in html_of(got)
        assert Image.open(io.BytesIO(gif.get_content())).n_frames >= len(pictures) - 1  # not the key


async def test_a_temporary_failure_is_tried_again_in_the_same_pass_and_the_mail_arrives_once(
        store, settings, dovecot, fail_next, smtp_server):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    before = smtp_server.handler.received
    fail_next.append("451 4.3.0 please try again")
    report = await send_outbox(store, settings, now=NOW, policy=FAST)
    assert (report.sent, report.postponed, report.failed) == (len(ids), 0, 0)
    assert smtp_server.handler.received - before == len(ids)
    first = outbox(store, ids)[0]
    assert (first.status, first.attempts) == ("sent", 1)
    assert len(await fetch(dovecot, "alice", first.message_id, expect=2, tries=5)) == 1


async def test_a_mail_failing_all_tries_of_a_pass_waits_and_goes_with_a_later_pass(store, settings, dovecot,
                                                                                   fail_next):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    fail_next.extend(["451 4.3.0 greylisted"] * FAST.attempts)
    report = await send_outbox(store, settings, now=NOW, policy=FAST)
    assert (report.sent, report.postponed, report.failed, report.notices) == (len(ids) - 1, 1, 0, 0)
    first = outbox(store, ids)[0]
    assert (first.status, first.last_error) == ("pending", "451 4.3.0 greylisted")
    assert first.next_attempt_at == NOW + DEFAULT_POLICY.backoff
    assert await fetch(dovecot, "alice", first.message_id, expect=1, tries=3) == []
    # not yet due a moment later; due once the backoff has passed
    assert (await send_outbox(store, settings, now=NOW + timedelta(seconds=30), policy=FAST)).attempted == 0
    later = await send_outbox(store, settings, now=NOW + timedelta(minutes=2), policy=FAST)
    assert (later.sent, later.postponed) == (1, 0)
    assert outbox(store, [first.id])[0].status == "sent"
    assert len(await fetch(dovecot, "alice", first.message_id)) == 1


async def test_a_permanent_refusal_is_recorded_and_the_gm_is_told(store, settings, dovecot, fail_next):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    fail_next.append("554 5.6.0 message content refused")
    report = await send_outbox(store, settings, now=NOW, policy=FAST)
    # alice's mail failed; the others and the GM's notice about it went
    assert (report.sent, report.failed, report.notices) == (len(ids) - 1 + 1, 1, 1)
    failed = outbox(store, ids)[0]
    assert (failed.status, failed.last_error, failed.attempts) == ("failed", "554 5.6.0 message content refused", 1)
    assert await fetch(dovecot, "alice", failed.message_id, tries=3) == []
    [notice] = outbox(store, kind="gm_failure", game_id=failed.game_id)
    assert notice.status == "sent" and notice.recipients == ["gm@example.test"]
    [told] = await fetch(dovecot, "gm", notice.message_id)
    assert told["Subject"] == f"[GM] undeliverable: {failed.subject}"
    assert told["Auto-Submitted"] == "auto-generated"
    body = text_of(told)
    assert "to:        alice@example.test" in body
    assert "error:     554 5.6.0 message content refused" in body
    assert f"about:     game {code}, turn 1; robot Twonky" in body
    assert f"referee outbox retry {failed.id}" in body
    # a later pass neither retries the failed mail nor tells the GM again
    again = await send_outbox(store, settings, now=NOW + timedelta(days=1), policy=FAST)
    assert again.attempted == 0


async def test_an_address_the_server_refuses_fails_at_once_and_the_gm_is_told(store, settings, dovecot):
    code = new_game(store, {"Twonky": "alice", "Hammer": "bob"})
    with store.write() as s:
        game = g.get_game(s, code)
        g.replace_player(s, game, "Hammer", "nobody@elsewhere.test", actor="test", now=T0)
    ids = play_turn(store, code, now=NOW)
    report = await send_outbox(store, settings, now=NOW, policy=FAST)
    refused = next(m for m in outbox(store, ids) if m.recipients == ["nobody@elsewhere.test"])
    assert refused.status == "failed" and refused.attempts == 1
    assert refused.last_error.startswith("nobody@elsewhere.test: 550")
    assert report.notices == 1
    [notice] = outbox(store, kind="gm_failure", game_id=refused.game_id)
    [told] = await fetch(dovecot, "gm", notice.message_id)
    assert "to:        nobody@elsewhere.test" in text_of(told)


async def test_a_mail_that_cannot_go_for_days_is_given_up_and_the_gm_is_told(store, settings, dovecot, fail_next):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    fail_next.extend(["452 4.3.1 mailbox full"] * FAST.attempts)
    first = await send_outbox(store, settings, now=NOW, policy=FAST)
    assert (first.postponed, first.failed) == (1, 0)
    # three days later the mailbox is still full
    fail_next.extend(["452 4.3.1 mailbox full"] * FAST.attempts)
    late = await send_outbox(store, settings, now=NOW + timedelta(days=3), policy=FAST)
    assert (late.failed, late.notices) == (1, 1)
    gave_up = outbox(store, ids)[0]
    assert gave_up.status == "failed"
    assert gave_up.last_error.startswith("not delivered after 2 attempts since 2026-03-01 13:00 UTC")
    assert gave_up.last_error.endswith("452 4.3.1 mailbox full")
    [notice] = outbox(store, kind="gm_failure", game_id=gave_up.game_id)
    assert len(await fetch(dovecot, "gm", notice.message_id)) == 1


async def test_with_the_server_unreachable_the_pass_stops_and_every_mail_waits(store, settings, dovecot):
    code = new_game(store)
    ids = [m.id for m in outbox(store)] + play_turn(store, code, now=NOW)
    down = settings.with_overrides(smtp_port=free_port())
    report = await send_outbox(store, down, now=NOW, policy=FAST)
    assert report.stopped is not None and "cannot connect" in report.stopped
    assert (report.sent, report.failed, report.notices) == (0, 0, 0)
    rows = outbox(store, ids)
    assert {m.status for m in rows} == {"pending"}
    assert rows[0].next_attempt_at > NOW and rows[0].attempts == 1   # the one tried waits
    assert {m.attempts for m in rows[1:]} == {0}                      # the pass stopped before the others
    back = await send_outbox(store, settings, now=NOW + timedelta(hours=1), policy=FAST)
    assert (back.sent, back.failed) == (len(ids), 0)
    assert len(await fetch(dovecot, "carol", rows[-2].message_id)) == 1


class Died(BaseException):
    """The sending process is killed (not an error anyone handles)."""


class DiesAfterSending:
    """The real SMTP transport, in a process that dies right after the server took the mail."""

    def __init__(self, inner: SmtpTransport) -> None:
        self.inner = inner
        self.name = inner.name

    async def send(self, sender, recipients, raw):
        await self.inner.send(sender, recipients, raw)
        raise Died

    async def close(self) -> None:
        await self.inner.close()


async def test_a_sender_dying_between_sending_and_recording_sends_again_with_the_same_message_id(
        store, settings, dovecot):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    transport = DiesAfterSending(SmtpTransport(settings))
    with pytest.raises(Died):
        await send_outbox(store, settings, now=NOW, transport=transport, policy=FAST)
    await transport.close()
    rows = outbox(store, ids)
    assert rows[0].status == "sending"  # sent, but nobody lived to record it
    assert [m.status for m in rows[1:]] == ["pending"] * (len(ids) - 1)  # claimed one at a time: never claimed
    [arrived] = await fetch(dovecot, "alice", rows[0].message_id)
    # while the dead sender's lease runs, nobody touches its mail; the others go
    others = await send_outbox(store, settings, now=NOW + timedelta(minutes=1), policy=FAST)
    assert (others.sent, others.resent) == (len(ids) - 1, 0)
    lease = FAST.lease(settings.mail_timeout)
    report = await send_outbox(store, settings, now=NOW + lease + timedelta(seconds=1), policy=FAST)
    assert (report.sent, report.resent, report.failed) == (1, 1, 0)
    assert "1 sent again after a stopped sender (possible duplicates)" in report.summary()
    rows = outbox(store, ids)
    assert {m.status for m in rows} == {"sent"}
    assert (rows[0].attempts, rows[0].resends) == (2, 1)
    assert {m.resends for m in rows[1:]} == {0}
    copies = await fetch(dovecot, "alice", rows[0].message_id, expect=2)
    assert len(copies) == 2
    assert {c["Message-ID"] for c in copies} == {arrived["Message-ID"]}
    assert text_of(copies[0]) == text_of(copies[1]) and html_of(copies[0]) == html_of(copies[1])
    for m in rows[1:]:
        user = m.recipients[0].split("@")[0]
        assert len(await fetch(dovecot, user, m.message_id)) == 1


async def test_a_failure_notice_that_cannot_reach_the_gm_is_not_reported_again(store, settings, fail_next):
    code = new_game(store)
    await _send_start_mails(store, settings)
    ids = play_turn(store, code, now=NOW)
    assert (await send_outbox(store, settings, now=NOW, policy=FAST)).sent == len(ids)
    with store.write() as s:
        game = g.get_game(s, code)
        about = s.get(OutgoingMail, ids[0])
        notice = enqueue_mail(s, failure_notice(settings, about, "550 test", "gm@example.test", NOW, game=game),
                              kind=KIND_FAILURE, game=game, now=NOW)
        notice_id = notice.id
    fail_next.append("550 5.1.1 no such user")
    report = await send_outbox(store, settings, now=NOW, policy=FAST)
    assert (report.failed, report.notices) == (1, 0)
    assert outbox(store, [notice_id])[0].status == "failed"
    assert [m.id for m in outbox(store, kind=KIND_FAILURE)] == [notice_id]
