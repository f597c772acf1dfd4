"""The outbound policy through real ticks on the Maildir transport: mail dropped into the inbox Maildir,
``referee tick`` reads, processes and sends, and what left is counted in the outgoing Maildir."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from mailbox import Maildir
from pathlib import Path

import pytest

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import tick
from tests.intake.helpers import GM, GM_SECRET, REFEREE, address, block, hand, mail, new_game, player, program_lines

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@pytest.fixture
def settings(tmp_path: Path, db_url: str) -> Settings:
    return Settings(database_url=db_url, referee_address=REFEREE, gm_address=GM, gm_secret=GM_SECRET,
                    transport="maildir", maildir_in=str(tmp_path / "in"), maildir_out=str(tmp_path / "out"),
                    lock_file=str(tmp_path / "tick.lock"), tick_interval=300, signing_key="outbound-tests")


def drop(settings: Settings, *raws: bytes) -> None:
    box = Maildir(str(settings.path(settings.maildir_in)), create=True)
    for raw in raws:
        box.add(raw)


def sent(settings: Settings, to: str) -> list[EmailMessage]:
    """Every mail the referee delivered to ``to``, oldest first."""
    box = Maildir(str(settings.path(settings.maildir_out)), create=True)
    mails = [message_from_bytes(m.as_bytes(), policy=policy.default) for m in box]
    return sorted((m for m in mails if to in str(m["To"])), key=lambda m: (str(m["Date"]), str(m["Message-ID"])))


def text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_strangers_joins_and_a_real_resign_in_one_hour_the_gm_gets_every_notice(store, settings):
    with store.write() as s:
        for k in range(7):
            g.create_game(s, course="sprint", code=f"SU-{k}", seed="su", actor="test", now=T0, gm_address=GM)
    running = new_game(store, now=T0, gm_address=GM)
    drop(settings, *[mail(GM, f"BEGIN GM SU-{k} key {GM_SECRET}\nOPEN SEATS 4\nEND\n") for k in range(7)])
    tick(settings, now=T0, store=store)
    drop(settings, *[mail(f"stranger{i}@town{i}.example", f"JOIN SU-{i % 7}") for i in range(25)])
    bob = player(store, running, "Hammer")
    drop(settings, mail(address("bob"), f"BEGIN {running} Hammer key {bob.secret}\nRESIGN {running}\nEND"))
    tick(settings, now=T0 + timedelta(minutes=10), store=store)
    notices = [m for m in sent(settings, GM) if "GM commands" not in str(m["Subject"])]
    assert len(notices) == settings.gm_notices_per_hour          # the others wait for the hour's end
    tick(settings, now=T0 + timedelta(minutes=75), store=store)
    notices = [m for m in sent(settings, GM) if "GM commands" not in str(m["Subject"])]
    (digest,) = [m for m in notices if "notices of the last hour" in str(m["Subject"])]
    told = "\n".join(str(m["Subject"]) + "\n" + text(m) for m in notices)
    assert "Hammer" in told and "resign" in told.lower()
    assert len(notices) - 1 + text(digest).count("-" * 60) == 26   # 25 JOINs and the RESIGN, none dropped


def test_a_ticket_system_over_twenty_ticks_gets_one_answer_and_no_digest_restarts_it(store, settings):
    code = new_game(store, now=T0)
    alice = address("alice")
    drop(settings, mail(alice, block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5]))))
    tick(settings, now=T0, store=store)
    assert len(sent(settings, alice)) == 1
    now = T0
    for n in range(20):   # a tick every 40 minutes; the robot answers the newest mail it got
        last = sent(settings, alice)[-1]
        pasted = f"Your request has been logged as ticket #{n + 1}. We will get back to you.\n\n" + text(last)
        drop(settings, mail(alice, pasted, subject=f"[Ticket #{n + 1}] Re: {last['Subject']}",
                            msgid=make_msgid(domain="tickets.example.test"),
                            headers={"In-Reply-To": str(last["Message-ID"]), "References": str(last["Message-ID"])}))
        now += timedelta(minutes=40)
        tick(settings, now=now, store=store)
    mails = sent(settings, alice)
    assert len(mails) == 2, [str(m["Subject"]) for m in mails]   # the accepted orders, one answer to the robot
    assert not any("digest" in str(m["Subject"]).lower() for m in mails)
