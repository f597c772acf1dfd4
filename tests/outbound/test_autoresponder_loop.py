"""A ticket system that writes its own line above our pasted answer (no Auto-Submitted header) must not
keep a loop going: a reply whose new text holds no order, command or question and which quotes our answer
gets at most one answer per thread per day; the others are recorded, never answered, never digested."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import make_msgid

from tests.intake.helpers import address, block, hand, incoming, mail, new_game, outbox, program_lines, text_of
from tests.intake.stored import deliver, quiet  # noqa: F401 (a fixture)

ALICE = address("alice")
T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def ticket_reply(answer, number: int) -> bytes:
    """What a help-desk robot sends back: its own line, then our answer pasted unquoted; no robot headers."""
    text = f"Thank you for contacting us. Your request has been logged as ticket #{number}.\n\n" + \
        text_of(answer.raw)
    return mail(ALICE, text, subject=f"[Ticket #{number}] Re: {answer.subject}",
                msgid=make_msgid(domain="tickets.example.test"),
                headers={"In-Reply-To": answer.message_id, "References": answer.message_id})


def to_alice(store):
    return [m for m in outbox(store) if m.recipients == [ALICE]]


def test_a_ticket_system_answering_our_answers_gets_one_answer_a_day_over_twenty_rounds(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(ALICE, block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5]))),
            now=T0)
    assert len(to_alice(store)) == 1
    now = T0
    for n in range(20):   # a round every 20 minutes: 20 rounds over six and a half hours
        now += timedelta(minutes=20)
        deliver(store, quiet, ticket_reply(to_alice(store)[-1], n + 1), now=now)
    later = to_alice(store)[1:]
    assert len(later) == 1, [m.subject for m in later]   # one answer to the thread that day, no digest
    assert all(m.kind != "digest" for m in later)
    rows = incoming(store)[1:]
    assert len(rows) == 20
    assert sum("not answered" in (r.reason or "") and "quotes our answer" in (r.reason or "") for r in rows) == 19


def test_a_rule_of_signs_under_thanks_is_still_content_free():
    """Outlook on the web turns a horizontal rule into "* * *" under the player's "Bedankt!": nothing new."""
    from referee.intake.loops import content_free
    assert content_free("Bedankt!\n\n* * *\n")
    assert content_free("Thanks!\n---\n")
    assert not content_free("Thanks!\n* * *\n1: FWD1 490\n")
