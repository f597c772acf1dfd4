"""Incoming mail taken exactly once, the outbox with leases, once-only notices, on both databases."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import func, select

from referee import games as g
from referee.store import InvalidValue
from referee.store import mail as m
from referee.store import outbox as ob
from referee.store.mail_models import IncomingMail, OutgoingMail

from .conftest import T0, new_game


def raw_mail(n: int, *, message_id: bool = True, sender: str = "Twonky Player <Twonky@Example.Test>") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.test"
    msg["Subject"] = f"Orders {n}"
    if message_id:
        msg["Message-ID"] = f"<orders-{n}@example.test>"
    msg.set_content(f"BEGIN RR-1 Twonky turn {n}\nFWD2 670\nEND\n")
    return msg.as_bytes()


def count(s, model) -> int:
    return s.scalar(select(func.count()).select_from(model))


def test_a_mail_is_stored_raw_with_its_imap_identity_and_taken_only_once(store):
    raw = raw_mail(1)
    with store.write() as s:
        mail, new = m.record_incoming(s, raw, source="imap", mailbox="referee@example.test/INBOX",
                                      uidvalidity=1700, uid=41, now=T0)
    assert new and mail.raw == raw and mail.outcome == "new"
    assert (mail.message_id, mail.from_addr, mail.subject) == ("<orders-1@example.test>", "twonky@example.test",
                                                               "Orders 1")
    with store.write() as s:
        again, new_again = m.record_incoming(s, raw, source="imap", mailbox="referee@example.test/INBOX",
                                             uidvalidity=1700, uid=41)
        # the same mail again under another UID (moved, or delivered twice) is recognised by its Message-ID
        moved, new_moved = m.record_incoming(s, raw, source="imap", mailbox="referee@example.test/Processed",
                                             uidvalidity=1800, uid=3)
        piped, new_piped = m.record_incoming(s, raw, source="stdin")
    assert (new_again, new_moved, new_piped) == (False, False, False)
    assert again.id == moved.id == piped.id == mail.id
    with store.read() as s:
        assert count(s, IncomingMail) == 1
        assert m.known_uids(s, "referee@example.test/INBOX", 1700) == {41}
        assert m.known_uids(s, "referee@example.test/INBOX", 1701) == set()


def test_a_mail_without_message_id_is_recognised_by_its_bytes(store):
    raw = raw_mail(2, message_id=False)
    with store.write() as s:
        first, _ = m.record_incoming(s, raw, source="stdin")
        second, new = m.record_incoming(s, raw, source="stdin")
        other, other_new = m.record_incoming(s, raw_mail(3, message_id=False), source="stdin")
    assert first.id == second.id and not new
    assert other_new and other.id != first.id


def test_garbage_is_stored_too(store):
    raw = b"\xff\xfe not a mail at all \x00\r\n\r\n"
    with store.write() as s:
        mail, new = m.record_incoming(s, raw, source="stdin")
    assert new and mail.raw == raw and mail.message_id is None and mail.from_addr is None


def test_processing_claims_new_mails_and_records_the_outcome(store):
    code = new_game(store, ("Twonky",))
    with store.write() as s:
        for n in range(5):
            m.record_incoming(s, raw_mail(n), source="imap", mailbox="box", uidvalidity=1, uid=n + 1)
    with store.write() as s:
        batch = m.claim_incoming(s, limit=3)
        assert [x.uid for x in batch] == [1, 2, 3] and all(x.attempts == 1 for x in batch)
        game = g.get_game(s, code)
        player = g.get_player(s, game, "Twonky")
        m.set_outcome(s, batch[0], "accepted", game=game, player=player, turn_number=1, now=T0)
        m.set_outcome(s, batch[1], "rejected", "card FWD2 670 is not in Twonky's hand")
        m.set_outcome(s, batch[2], "error", "parser crashed")
        with pytest.raises(InvalidValue):
            m.set_outcome(s, batch[2], "new")
    with store.write() as s:
        assert [x.uid for x in m.claim_incoming(s)] == [4, 5]
    with store.write() as s:
        assert m.reprocess(s, outcome="error") == 1
    with store.read() as s:
        rows = {x.uid: x for x in s.scalars(select(IncomingMail))}
        assert rows[1].outcome == "accepted" and rows[1].player_id == player.id and rows[1].processed_at == T0
        assert rows[2].reason == "card FWD2 670 is not in Twonky's hand"
        assert rows[3].outcome == "new" and rows[3].attempts == 1


def test_mails_not_yet_moved_on_the_server_are_listed_until_marked(store):
    with store.write() as s:
        a, _ = m.record_incoming(s, raw_mail(1), source="imap", mailbox="box", uidvalidity=1, uid=1)
        m.record_incoming(s, raw_mail(2), source="imap", mailbox="box", uidvalidity=1, uid=2)
    with store.write() as s:
        m.mark_moved(s, a.id, now=T0)
    with store.read() as s:
        assert [x.uid for x in m.unmoved(s, "box")] == [2]


def outgoing(n: int, to: str = "twonky@example.test") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "RoboRally referee <referee@example.test>"
    msg["To"] = to
    msg["Bcc"] = "gm@example.test"
    msg["Subject"] = f"RR-1 turn {n}"
    msg["Message-ID"] = f"<rr-1.turn-{n}.twonky@referee.example.test>"
    msg.set_content("your hand ...")
    return msg


def test_the_outbox_keeps_a_mail_once_and_leases_it_to_one_sender(store):
    with store.write() as s:
        mail = ob.enqueue_mail(s, outgoing(1), kind="turn_report", turn_number=1, now=T0)
        assert ob.enqueue_mail(s, outgoing(1), kind="turn_report", now=T0).id == mail.id
    assert mail.recipients == ["twonky@example.test", "gm@example.test"]
    assert mail.sender == "referee@example.test" and b"Bcc" not in mail.raw
    with store.write() as s:
        claimed = ob.claim_outbox(s, now=T0, lease=timedelta(minutes=5))
        assert [x.id for x in claimed] == [mail.id]
    with store.write() as s:
        assert ob.claim_outbox(s, now=T0 + timedelta(minutes=4)) == []  # leased to the first sender
    # the first sender died: the lease runs out and the mail is handed out again
    with store.write() as s:
        again = ob.claim_outbox(s, now=T0 + timedelta(minutes=6))
        assert [x.id for x in again] == [mail.id] and again[0].attempts == 2
    with store.write() as s:
        ob.mark_sent(s, mail.id, now=T0 + timedelta(minutes=7))
    with store.write() as s:
        assert ob.claim_outbox(s, now=T0 + timedelta(days=1)) == []
    with store.read() as s:
        row = s.get(OutgoingMail, mail.id)
        assert (row.status, row.sent_at) == ("sent", T0 + timedelta(minutes=7))


def test_two_senders_at_once_claim_different_mails_oldest_first(store):
    """Two senders on PostgreSQL, each inside its own open transaction: the second skips what the first
    holds and takes the next mail in queue order (SQLite lets only one writer in at a time)."""
    if store.dialect != "postgresql":
        pytest.skip("concurrent writers: PostgreSQL only")
    with store.write() as s:
        # (decided: the outbound policy is not what this test is about; it would hold back a 4th answer a day
        # to an address no game knows)
        ids = [ob.enqueue_mail(s, outgoing(n), kind="echo", now=T0, decided=True).id for n in range(1, 5)]
    with store.write() as first:
        assert [x.id for x in ob.claim_outbox(first, now=T0, limit=2)] == ids[:2]
        with store.write() as second:
            assert [x.id for x in ob.claim_outbox(second, now=T0, limit=1)] == ids[2:3]
        found = ob.claim_next(first, now=T0)
        assert found is not None and found[0].id == ids[3] and b"RR-1 turn 4" in found[0].raw


def test_temporary_failures_wait_and_permanent_ones_stay_failed(store):
    with store.write() as s:
        a = ob.enqueue_mail(s, outgoing(1), kind="echo", now=T0)
        b = ob.enqueue_mail(s, outgoing(2), kind="echo", now=T0)
    with store.write() as s:
        ob.claim_outbox(s, now=T0)
    with store.write() as s:
        ob.mark_retry(s, a.id, "451 try later", T0 + timedelta(minutes=30))
        ob.mark_failed(s, b.id, "550 no such user")
    with store.write() as s:
        assert ob.claim_outbox(s, now=T0 + timedelta(minutes=29)) == []
    with store.write() as s:
        assert [x.id for x in ob.claim_outbox(s, now=T0 + timedelta(minutes=30))] == [a.id]
    with store.read() as s:
        assert s.get(OutgoingMail, b.id).status == "failed"


def test_held_mails_wait_for_the_gm(store):
    code = new_game(store, ("Twonky",), hold_for_review=True)
    with store.write() as s:
        game = g.get_game(s, code)
        ob.enqueue_mail(s, outgoing(1), kind="turn_report", game=game, turn_number=1, held=True, now=T0)
    with store.write() as s:
        assert ob.claim_outbox(s, now=T0 + timedelta(hours=1)) == []
    with store.write() as s:
        assert ob.release_held(s, g.get_game(s, code), 1, now=T0 + timedelta(hours=2)) == 1
    with store.write() as s:
        assert len(ob.claim_outbox(s, now=T0 + timedelta(hours=2))) == 1


def test_a_mail_without_message_id_or_recipients_is_refused(store):
    msg = outgoing(1)
    del msg["Message-ID"]
    with store.write() as s, pytest.raises(InvalidValue, match="needs a Message-ID"):
        ob.enqueue_mail(s, msg, kind="echo")


def test_a_reminder_is_noted_once_per_player_and_turn(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        twonky = g.get_player(s, game, "Twonky")
        assert m.record_notice(s, turn, "reminder", twonky, now=T0)
        assert not m.record_notice(s, turn, "reminder", twonky, now=T0)
        assert m.record_notice(s, turn, "late", now=T0)
        assert not m.record_notice(s, turn, "late", now=T0)
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        assert m.notices(s, turn, "reminder") == {twonky.id}
        assert m.notices(s, turn, "late") == {None}


def test_the_service_remembers_its_own_state(store):
    with store.write() as s:
        assert m.get_state(s, "tick") is None
        m.set_state(s, "tick", {"last_run": T0.isoformat()}, now=T0)
    with store.write() as s:
        m.set_state(s, "tick", {"last_run": (T0 + timedelta(minutes=5)).isoformat()})
    with store.read() as s:
        assert m.get_state(s, "tick") == {"last_run": (T0 + timedelta(minutes=5)).isoformat()}
