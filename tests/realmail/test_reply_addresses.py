"""Replies find their robot on any mail server: a ``-`` delimiter, or no sub-addressing at all.

A turn mail asks for replies to ``referee<delimiter><token>@domain``. Where the provider delivers
``referee-...`` (Postfix with ``recipient_delimiter = -``) the delimiter is a setting; where it delivers
no sub-addresses, ``reply_token = "subject"`` puts the token in the subject and a reply's ``Re:`` subject
brings it back. Every mail goes the real way: SMTP into Dovecot, IMAP out of it, then the intake.

Rulings cited (docs/rulings.md): 19.1, 19.2.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from referee import games as g
from referee.games.tokens import reply_address
from referee.intake.imap import poll_async
from referee.intake.process import process_pending
from referee.mailer.reply_tokens import move_to_subject
from referee.mailer.transports import transport_for
from tests.intake.helpers import REFEREE, active_program, address, hand, mail, new_game, outbox, settings_for

from .helpers import last_mail, submit


def url_of(store) -> str:
    return store.url.render_as_string(hide_password=False)


def _turn_mail(settings, store, code: str, robot: str, to: str) -> tuple[bytes, str]:
    """A turn mail as the referee writes it (the Reply-To carries the robot's token); and its subject."""
    with store.read() as s:
        reply = reply_address(settings, g.get_game(s, code), robot, turn=1)
    subject = f"{code} turn 1: your hand ({robot})"
    msg = EmailMessage()
    msg["From"] = f"RoboRally referee <{REFEREE}>"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Reply-To"] = reply
    msg["Message-ID"] = make_msgid(domain="example.test")
    msg.set_content("Your hand: ...\n\nBEGIN ... END\n")
    return msg.as_bytes(), subject


async def _take(settings, store) -> None:
    await poll_async(settings, store)
    process_pending(store, settings)


async def test_with_a_dash_delimiter_a_reply_to_the_reply_address_reaches_the_referee_and_names_the_robot(
        sqlite_store, dash_dovecot, dash_smtp):
    """Postfix + Dovecot with ``recipient_delimiter = -``: the reply address is ``referee-<token>@``."""
    store = sqlite_store
    dash_dovecot.empty("referee")
    settings = settings_for(dash_dovecot, url_of(store), address_delimiter="-", smtp_port=dash_smtp.port)
    code = new_game(store)
    with store.read() as s:
        to = reply_address(settings, g.get_game(s, code), "Zoom", turn=1)
    assert to.startswith("referee-") and "+" not in to
    cards = hand(store, code, "Zoom")[:5]
    # carol's client sends her reply through her provider's SMTP server
    await submit(dash_smtp.port, mail(address("carol"), ", ".join(cards) + "\n", to=to), address("carol"), [to])
    await _take(settings, store)
    assert active_program(store, code, "Zoom") == cards


@pytest.mark.parametrize("prefix", ["Re:", "AW:", "SV:", "RE:"])
async def test_without_sub_addressing_the_token_rides_in_the_subject_and_a_reply_brings_it_back(
        sqlite_store, dovecot, smtp_server, prefix):
    store = sqlite_store
    for user in ("referee", "carol"):
        dovecot.empty(user)
    settings = settings_for(dovecot, url_of(store), reply_token="subject", smtp_port=smtp_server.port)
    code = new_game(store)
    raw, subject = _turn_mail(settings, store, code, "Zoom", address("carol"))
    transport = transport_for(settings)
    await transport.send(REFEREE, [address("carol")], raw)
    await transport.close()

    got = await last_mail(dovecot, "carol")
    assert got["Reply-To"].addresses[0].addr_spec == REFEREE  # the plain address: no sub-addressing needed
    assert got["Subject"].startswith(subject + " [#")
    # she answers with her client's Reply: the subject prefixed, to the plain address, no key typed
    cards = hand(store, code, "Zoom")[:5]
    await submit(smtp_server.port, mail(address("carol"), ", ".join(cards) + "\n", to=REFEREE,
                                        subject=f"{prefix} {got['Subject']}"), address("carol"), [REFEREE])
    await _take(settings, store)
    assert active_program(store, code, "Zoom") == cards


async def test_a_subject_token_with_a_changed_signature_counts_for_nothing(sqlite_store, dovecot, smtp_server):
    store = sqlite_store
    dovecot.empty("referee")
    settings = settings_for(dovecot, url_of(store), reply_token="subject", smtp_port=smtp_server.port)
    code = new_game(store)
    with store.read() as s:
        token = reply_address(settings, g.get_game(s, code), "Zoom", turn=1).split("+")[1].split("@")[0]
    forged = token[:-1] + ("a" if token[-1] != "a" else "b")
    cards = hand(store, code, "Zoom")[:5]
    await submit(smtp_server.port, mail(address("dave"), ", ".join(cards) + "\n", to=REFEREE,
                                        subject=f"Re: {code} turn 1 [#{forged}]"), address("dave"), [REFEREE])
    await _take(settings, store)
    assert active_program(store, code, "Zoom") is None
    # no orders taken, and nothing about the game: at most the short note every stranger gets (issue 18)
    assert [m.kind for m in outbox(store) if address("dave") in m.recipients] in ([], ["stranger"])


def test_the_subject_form_changes_only_the_header():
    """The body (pictures and all) goes out byte for byte; "both" keeps the plus address too."""
    from referee.common.config import Settings

    body = b"--b\r\nContent-Type: image/png\r\n\r\n" + bytes(range(256)) * 4 + b"\r\n--b--\r\n"
    raw = (b"From: referee@example.test\r\nTo: carol@example.test\r\n"
           b"Subject: =?utf-8?q?RR-1_turn_4_=E2=80=94_results?=\r\n"
           b"Reply-To: RoboRally referee <referee+12.4.abcdefghijklmnop@example.test>\r\n"
           b"Content-Type: multipart/mixed; boundary=b\r\n\r\n") + body
    subject_only = move_to_subject(raw, Settings(referee_address="referee@example.test", reply_token="subject"))
    both = move_to_subject(raw, Settings(referee_address="referee@example.test", reply_token="both"))
    plain = move_to_subject(raw, Settings(referee_address="referee@example.test"))
    assert subject_only.endswith(body) and both.endswith(body)
    assert b"Reply-To: RoboRally referee <referee@example.test>" in subject_only
    assert b"referee+12.4.abcdefghijklmnop@" in both
    for out in (subject_only, both):
        assert b"results?=\r\n [#12.4.abcdefghijklmnop]\r\n" in out
    assert plain == raw
