"""Taking mail from the IMAP mailbox: stored once, then moved; nothing lost or doubled between passes."""

from __future__ import annotations

import asyncio

import aiosmtplib
import pytest

from referee import games as g
from referee.games.tokens import reply_address
from referee.intake.imap import (
    connect,
    mailbox_key,
    plan_batches,
    poll_async,
    search_uids,
    select,
    take_away,
    uid_set,
)
from referee.intake.process import process_pending
from referee.store.mail import record_incoming

from .helpers import (
    REFEREE,
    active_program,
    address,
    append,
    block,
    count,
    ensure_mailbox,
    hand,
    incoming,
    mail,
    message_ids,
    new_game,
    outbox,
    parse,
    program_lines,
    text_of,
)


def plain(n: int, tag: str = "x") -> bytes:
    return mail(address("alice"), f"note {n}\n", subject=f"{tag} {n}", msgid=f"<{tag}-{n}@client.example.test>")


async def test_a_reply_with_orders_becomes_an_order_and_an_echo_in_the_outbox(dovecot, settings, store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    raw = mail(address("alice"), "Here you go.\n\n" + block(store, code, "Twonky", program_lines(cards)),
               subject=f"Re: {code} has started: your cards for turn 1")

    polled, done = await take(raw)

    assert (polled.stored, polled.moved, done.outcomes) == (1, 1, {"accepted": 1})
    assert await count(dovecot, "INBOX") == 0 and await count(dovecot, "Processed") == 1
    assert active_program(store, code, "Twonky") == cards
    (echo,) = outbox(store)
    assert echo.kind == "echo" and echo.recipients == [address("alice")] and echo.status == "pending"
    answer = parse(echo.raw)
    assert answer["In-Reply-To"] == parse(raw)["Message-ID"]
    assert answer["Auto-Submitted"] == "auto-replied" and answer["X-Loop"] == REFEREE
    marker, blank, body = text_of(echo.raw).split("\n", 2)   # the first line marks our answers (loops)
    assert marker.startswith("[referee answer ") and blank == ""
    assert body.startswith("Orders accepted for Twonky")
    assert all(f"{i}: {c}" in body for i, c in enumerate(cards, start=1))
    assert "Time left: 4 days" in body


async def test_a_second_pass_finds_nothing_new(dovecot, settings, store):
    await append(dovecot, [plain(i) for i in range(3)])
    first = await poll_async(settings, store)
    second = await poll_async(settings, store)
    assert (first.waiting, first.stored, first.moved) == (3, 3, 3)
    assert (second.waiting, second.stored, second.moved) == (0, 0, 0)
    assert len(incoming(store)) == 3


async def test_mail_fetched_in_several_batches_is_all_stored_once(dovecot, settings, store):
    await append(dovecot, [plain(i, "batch") for i in range(23)])
    report = await poll_async(settings, store, batch=5)
    assert (report.stored, report.moved) == (23, 23)
    assert sorted(m.message_id for m in incoming(store)) == sorted(f"<batch-{i}@client.example.test>"
                                                                   for i in range(23))
    assert all(m.moved_at is not None and m.source == "imap" for m in incoming(store))
    assert await count(dovecot, "INBOX") == 0 and await count(dovecot, "Processed") == 23


async def server_uids(settings, mailbox: str = "INBOX") -> tuple[int, list[int]]:
    """The mailbox's UIDVALIDITY and UIDs, as the poller sees them."""
    conn = await connect(settings)
    try:
        validity = await select(conn, mailbox)
        return validity, await search_uids(conn, "ALL")
    finally:
        await conn.close()


async def test_a_mail_stored_but_not_moved_before_a_crash_is_moved_and_not_stored_again(dovecot, settings, store):
    """The state a crash between the commit and the move leaves: the mail is in the store, still on the server."""
    await append(dovecot, [plain(1, "half")])
    validity, (uid,) = await server_uids(settings)
    with store.write() as s:
        record_incoming(s, plain(1, "half"), source="imap", mailbox=mailbox_key(settings), uidvalidity=validity,
                        uid=uid)

    report = await poll_async(settings, store)

    assert (report.stored, report.moved) == (0, 1)
    (row,) = incoming(store)
    assert row.moved_at is not None
    assert await count(dovecot, "INBOX") == 0 and await count(dovecot, "Processed") == 1


async def test_a_mail_moved_but_not_marked_before_a_crash_is_only_marked(dovecot, settings, store):
    validity, _ = await server_uids(settings)
    with store.write() as s:
        record_incoming(s, plain(1, "gone"), source="imap", mailbox=mailbox_key(settings), uidvalidity=validity,
                        uid=99999)
    report = await poll_async(settings, store)
    assert (report.settled, report.stored, report.moved) == (1, 0, 0)
    assert incoming(store)[0].moved_at is not None


async def test_a_new_uidvalidity_reads_the_mailbox_again_without_doubling_a_mail(dovecot, settings, store):
    settings = settings.with_overrides(imap_mailbox="Orders")
    ensure_mailbox(dovecot, "Orders")
    await append(dovecot, [plain(i, "uv") for i in range(3)], mailbox="Orders")
    # an earlier pass stored all three and died before moving them
    old, uids = await server_uids(settings, "Orders")
    with store.write() as s:
        for n, uid in enumerate(uids):
            record_incoming(s, plain(n, "uv"), source="imap", mailbox=mailbox_key(settings), uidvalidity=old, uid=uid)
    await append(dovecot, [plain(i, "uv") for i in range(3, 5)], mailbox="Orders")
    dovecot.doveadm("mailbox", "update", "-u", dovecot.address("referee"), "--uid-validity", str(old + 1000),
                    "Orders")

    report = await poll_async(settings, store)

    assert report.uidvalidity == old + 1000
    assert (report.waiting, report.stored, report.known, report.moved) == (5, 2, 3, 5)
    rows = incoming(store)
    assert sorted(m.message_id for m in rows) == sorted(f"<uv-{i}@client.example.test>" for i in range(5))
    assert all(m.moved_at is not None for m in rows)
    assert await count(dovecot, "Orders") == 0
    assert sorted(await message_ids(dovecot, "Processed")) == sorted(m.message_id for m in rows)


async def test_with_no_processed_folder_mail_is_flagged_seen_and_left(dovecot, settings, store):
    settings = settings.with_overrides(imap_processed="")
    await append(dovecot, [plain(i, "flag") for i in range(4)])
    first = await poll_async(settings, store)
    second = await poll_async(settings, store)
    assert (first.stored, first.moved, second.waiting, second.stored) == (4, 4, 0, 0)
    assert await count(dovecot, "INBOX") == 4 and await count(dovecot, "INBOX", unseen=True) == 0
    assert await count(dovecot, "Processed") == 0


async def test_without_the_move_command_mail_is_copied_deleted_and_expunged(dovecot, settings, store):
    """Servers without MOVE: UID COPY, flag deleted, UID EXPUNGE (only those UIDs)."""
    await append(dovecot, [plain(i, "nomove") for i in range(3)])
    conn = await connect(settings)
    await select(conn, "INBOX")
    conn.client.protocol.capabilities.discard("MOVE")
    uids = await search_uids(conn, "ALL")
    await take_away(conn, uids[:2], "Processed")
    await conn.close()
    assert await count(dovecot, "INBOX") == 1 and await count(dovecot, "Processed") == 2


def test_uid_sets_are_written_as_ranges():
    assert uid_set([9, 1, 2, 3, 7, 10, 3]) == "1:3,7,9:10"
    assert uid_set([5]) == "5"


async def test_a_mail_sent_over_smtp_to_the_reply_address_counts_without_a_key_in_it(dovecot, smtp_server, settings,
                                                                                    store):
    """The turn mail's Reply-To is the referee's plus address with the player's token; a reply to it
    needs no BEGIN line (delivered by SMTP and LMTP, as real mail arrives)."""
    code = new_game(store)
    with store.read() as s:
        to = reply_address(settings, g.get_game(s, code), "Hammer", turn=1)
    assert to.startswith("referee+") and to.endswith("@example.test") and len(to.split("@")[0]) < 64
    cards = hand(store, code, "Hammer")[:5]
    raw = mail(address("bob"), ", ".join(cards) + "\n", to=to, subject=f"Re: {code} turn 1")
    await aiosmtplib.send(raw, sender=address("bob"), recipients=[to], hostname="127.0.0.1", port=smtp_server.port,
                          start_tls=False, timeout=10)
    for _ in range(150):  # 15 s: delivery goes through LMTP
        if await count(dovecot, "INBOX"):
            break
        await asyncio.sleep(0.1)
    await poll_async(settings, store)
    process_pending(store, settings)
    assert active_program(store, code, "Hammer") == cards
    (echo,) = outbox(store)
    assert echo.recipients == [address("bob")] and parse(echo.raw)["Reply-To"] == to


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
async def test_a_mailbox_that_does_not_exist_is_a_clear_error(settings, store):
    from referee.intake.imap import IntakeError

    with pytest.raises(IntakeError, match="SELECT Nowhere"):
        await poll_async(settings.with_overrides(imap_mailbox="Nowhere"), store)


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
async def test_a_wrong_password_is_a_clear_error(settings, store):
    from referee.intake.imap import IntakeError

    with pytest.raises(IntakeError, match=r"login as referee@example\.test"):
        await poll_async(settings.with_overrides(imap_password="wrong"), store)


@pytest.mark.parametrize(("count", "batch", "sizes"), [
    (0, 250, []), (6, 4, [4, 2]), (90, 250, [90]), (101, 250, [50, 1, 50]),
    (1000, 250, [50, 250, 250, 250, 150, 50]), (1000, 50, [50] * 20)])
def test_a_pass_is_fetched_in_batches_short_at_both_ends(count, batch, sizes):
    """The store starts on a small first batch, and little is left to do after the last fetch."""
    assert plan_batches(count, batch) == sizes
