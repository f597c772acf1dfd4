"""One GM mail that both announces something and resolves the turn gives each player one mail: the turn
mail, whose "New since your last mail" block tells what was announced. An announcement whose turn is not
resolved with it (no PROCESS, or results held for review) still goes out as its own mail."""

from __future__ import annotations

import email
from email import policy

from sqlalchemy import select

from referee import games as g
from referee.store.mail_models import OutgoingMail

from .conftest import SECRET

TWONKY, HAMMER = "twonky@example.test", "hammer@example.test"


def to_send(gm, address: str) -> list[OutgoingMail]:
    """The mails for ``address`` that will go out (pending or held), oldest first."""
    with gm.store.read() as s:
        rows = s.scalars(select(OutgoingMail).where(OutgoingMail.status.in_(("pending", "held")))
                         .order_by(OutgoingMail.id))
        return [m for m in rows if m.recipients == [address]]


def news_of(row: OutgoingMail) -> str:
    msg = email.message_from_bytes(row.raw, policy=policy.default)
    text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return text.split("New since your last mail:\n")[1].split("\n\n")[0] if "New since your last mail" in text \
        else ""


def hand(gm, robot: str) -> list[str]:
    with gm.store.read() as s:
        return list(g.open_turn(s, g.get_game(s, "RR-1")).hands[robot])


def test_set_orders_and_process_in_one_gm_mail_give_each_player_only_the_turn_mail(running):
    running.later(hours=1)
    before = {a: len(to_send(running, a)) for a in (TWONKY, HAMMER)}
    program = ", ".join(hand(running, "Twonky")[:5])
    answer = running.mail(f"BEGIN GM RR-1 key {SECRET}\nSET Twonky DAMAGE 2\nORDERS Twonky {program}\n"
                          "PROCESS\nEND\n")
    assert answer.accepted and answer.reason == "", answer.reply

    twonky = to_send(running, TWONKY)[before[TWONKY]:]
    assert [m.kind for m in twonky] == ["turn_report"]
    news = news_of(twonky[0])
    assert "- Twonky: damage 2 (HP 8)" in news
    assert "- your program for turn 1 was entered by the game master:" in news
    assert "You may still send" not in news   # the turn is resolved: no invitation
    hammer = to_send(running, HAMMER)[before[HAMMER]:]
    assert [m.kind for m in hammer] == ["turn_report"]
    assert "- Twonky: damage 2 (HP 8)" in news_of(hammer[0])
    assert "entered by the game master" not in news_of(hammer[0])
    with running.store.read() as s:   # the notices are kept, marked as told in the turn mail
        folded = s.scalars(select(OutgoingMail).where(OutgoingMail.kind == "announcement")).all()
        assert folded and {m.status for m in folded} == {"cancelled"}


def test_a_set_without_process_still_sends_its_own_notice(running):
    running.later(hours=1)
    before = len(to_send(running, HAMMER))
    running.mail(f"BEGIN GM RR-1 key {SECRET}\nSET Twonky DAMAGE 2\nEND\n")
    assert [m.subject for m in to_send(running, HAMMER)[before:]] == ["RR-1: Twonky corrected"]
    running.later(hours=1)
    running("PROCESS")   # a later turn mail recaps it; the notice went already
    latest = to_send(running, HAMMER)[-1]
    assert latest.kind == "turn_report" and "Twonky: damage 2 (HP 8)" in news_of(latest)
    assert [m.subject for m in to_send(running, HAMMER)[before:]].count("RR-1: Twonky corrected") == 1


def test_results_held_for_review_leave_the_notice_to_go_alone(running):
    running("HOLD FOR REVIEW ON")
    running.later(hours=1)
    before = len(to_send(running, HAMMER))
    running.mail(f"BEGIN GM RR-1 key {SECRET}\nSET Twonky DAMAGE 2\nPROCESS\nEND\n")
    new = to_send(running, HAMMER)[before:]
    assert [(m.kind, m.status) for m in new] == [("announcement", "pending"), ("turn_report", "held")]
