"""The outbound policy (issue 41) as scenarios through the real intake: mails stored as a poll stores them
and processed with the referee's own GM handler; what must hold is counted in the outbox.

- forged mails from a victim (LIST, OBSERVE, WHOIS, JOIN, HELP) never make the referee mail her more than
  three times in 24 hours, and not at all when the trusted Authentication-Results judge them forged;
- sixty victims with one mail each: three at most each, and no more than ``never_asked_per_hour`` in all;
- ``SET ADDRESS`` ten to a mail: at most ``confirmations_per_day`` confirmations from one sender, the GM told;
- forty ``PRESS TO ALL`` in an hour: five relayed, the others NOT DONE and said so;
- twenty-five strangers' JOINs and a real RESIGN in one hour: the GM hears of the RESIGN (directly or in
  the GM's digest), nothing dropped.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import make_msgid

import pytest
from sqlalchemy import func, select

from referee import games as g
from referee.store import outbound
from referee.store.community_models import PressMessage
from referee.store.mail_models import IncomingMail, IntakeMark
from tests.intake.helpers import GM, GM_SECRET, address, incoming, mail, new_game, outbox, player, text_of
from tests.intake.stored import deliver, hostile_settings, quiet  # noqa: F401 (a fixture)

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
VICTIM = "victim@elsewhere.example"
TRUSTED = "mx.ref.example"


def sent_to(store, who: str) -> list:
    """Every mail queued to ``who`` that will go (not refused)."""
    return [m for m in outbox(store) if [a.lower() for a in m.recipients] == [who] and m.status != "cancelled"]


def gm_says(store, settings, code: str, *lines: str, now: datetime = T0) -> None:
    deliver(store, settings, mail(GM, f"BEGIN GM {code} key {GM_SECRET}\n" + "\n".join(lines) + "\nEND\n"), now=now)


def open_game(store, settings, code: str = "SU-1") -> str:
    with store.write() as s:
        g.create_game(s, course="sprint", code=code, seed="su", actor="test", now=T0, gm_address=GM)
    gm_says(store, settings, code, "OPEN SEATS 4 UNTIL 2026-12-05")
    return code


def commands(running: str, forming: str) -> list[str]:
    return ["LIST", f"OBSERVE {running}", "WHOIS Twonky", f"JOIN {forming} AS Spinner", "HELP"]


def withheld(store) -> int:
    with store.read() as s:
        return s.scalar(select(func.count(IntakeMark.id)).where(IntakeMark.kind == outbound.WITHHELD)) or 0


# -- forged victim mails ----------------------------------------------------------------------------------
def test_forged_community_mails_judged_forged_by_the_trusted_header_are_never_answered(store, db_url):
    settings = hostile_settings(db_url, trusted_authserv_id=TRUSTED)
    running, forming = new_game(store, now=T0), open_game(store, settings)
    failed = {"Authentication-Results": f"{TRUSTED}; spf=fail smtp.mailfrom=elsewhere.example; "
                                        "dkim=none; dmarc=fail header.from=elsewhere.example"}
    for i, text in enumerate(commands(running, forming) * 4):
        deliver(store, settings, mail(VICTIM, text, headers=failed, msgid=make_msgid(domain="forger.test")),
                now=T0 + timedelta(minutes=i))
    assert sent_to(store, VICTIM) == []
    with store.read() as s:
        rows = list(s.scalars(select(IncomingMail).where(IncomingMail.from_addr == VICTIM)))
    assert len(rows) == 20 and all("forged" in (r.reason or "") for r in rows)


def test_an_address_that_never_asked_gets_at_most_three_mails_a_day_whatever_is_sent_in_its_name(store, quiet):  # noqa: F811
    running, forming = new_game(store, now=T0), open_game(store, quiet)
    for day in range(2):
        for i, text in enumerate(commands(running, forming) * 4):   # twenty an hour, each of the five kinds
            deliver(store, quiet, mail(VICTIM, text, msgid=make_msgid(domain="forger.test")),
                    now=T0 + timedelta(days=day, minutes=3 * i))
        mails = sent_to(store, VICTIM)
        assert len(mails) == 3 * (day + 1)
        # no 24-hour window holds more than three
        times = sorted(m.created_at.replace(tzinfo=UTC) for m in mails)
        assert all(b - a >= timedelta(hours=24) for a, b in zip(times, times[3:], strict=False))
    assert withheld(store) >= 2 * 20 - 6 - 2 * 4   # the rest recorded (some were not even written: once a day)
    with store.read() as s:
        rows = list(s.scalars(select(IncomingMail).where(IncomingMail.from_addr == VICTIM)))
    assert len(rows) == 40 and {r.outcome for r in rows} <= {"accepted", "rejected", "ignored"}


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_sixty_victims_one_mail_each_get_one_answer_each_within_the_hourly_total(store, quiet):  # noqa: F811
    new_game(store, now=T0)
    victims = [f"victim{i}@place{i}.example" for i in range(60)]
    for i, victim in enumerate(victims):
        deliver(store, quiet, mail(victim, "LIST"), now=T0 + timedelta(seconds=30 * i))
    per_victim = [len(sent_to(store, v)) for v in victims]
    assert max(per_victim) == 1
    assert sum(per_victim) == quiet.never_asked_per_hour       # 20 in the hour, the other 40 recorded
    assert withheld(store) == 60 - quiet.never_asked_per_hour
    later = T0 + timedelta(hours=2)
    deliver(store, quiet, mail(victims[-1], "LIST"), now=later)   # an hour on, a new hour's room
    assert len(sent_to(store, victims[-1])) == 1


def test_sixty_forged_victims_get_nothing(store, db_url):
    settings = hostile_settings(db_url, trusted_authserv_id=TRUSTED)
    new_game(store, now=T0)
    victims = [f"victim{i}@place{i}.example" for i in range(60)]
    for i, victim in enumerate(victims):
        domain = victim.rpartition("@")[2]
        deliver(store, settings, mail(victim, "HELP", headers={
            "Authentication-Results": f"{TRUSTED}; spf=fail smtp.mailfrom={domain}; dmarc=fail header.from={domain}"}),
            now=T0 + timedelta(seconds=30 * i))
    assert sum(len(sent_to(store, v)) for v in victims) == 0


# -- a sender's totals over all recipients ---------------------------------------------------------------
def test_set_address_ten_to_a_mail_stops_at_the_senders_daily_confirmations_and_the_gm_is_told(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    for n in range(5):
        lines = "\n".join(f"SET ADDRESS new{n}-{i}@fresh{n}{i}.example" for i in range(10))
        deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\n{lines}\nEND"),
                now=T0 + timedelta(minutes=n))
    confirms = [m for m in outbox(store, kind="confirm") if m.status != "cancelled"]
    assert len(confirms) == quiet.confirmations_per_day == 10
    told = [m for m in outbox(store) if m.recipients == [GM] and "confirmation mails" in m.subject]
    assert len(told) == 1   # once a day
    answers = [text_of(m.raw) for m in outbox(store) if m.recipients == [address("alice")]]
    assert len(answers) == 5 and sum(t.count("NOT DONE") for t in answers) == 40
    assert "you have asked for 10 confirmation mails today" in answers[-1]
    deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\n"
                                                 "SET ADDRESS tomorrow@fresh.example\nEND"), now=T0 + timedelta(days=1))
    assert len([m for m in outbox(store, kind="confirm") if m.status != "cancelled"]) == 11


def test_forty_press_to_all_in_an_hour_five_relayed_the_rest_not_done_and_every_one_answered(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    for i in range(40):
        deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\nPRESS TO ALL\n"
                                                     f"news number {i}\nEND", msgid=make_msgid(domain="a.test")),
                now=T0 + timedelta(seconds=90 * i))
    relayed = outbox(store, kind="press")
    assert len(relayed) == quiet.press_per_hour * 2          # five messages, to Hammer and Zoom each
    with store.read() as s:
        assert s.scalar(select(func.count(PressMessage.id))) == quiet.press_per_hour   # nothing else kept
    to_her = [text_of(m.raw) for m in outbox(store) if m.recipients == [address("alice")]]
    said = "\n".join(to_her)
    # every mail answered: twenty answers, the other twenty in her hour's digest
    assert said.count("relayed to") + said.count("press messages this hour") == 40
    assert said.count("press messages this hour") == 35
    assert any(m.kind == "digest" for m in outbox(store) if m.recipients == [address("alice")])


# -- the GM's notices ------------------------------------------------------------------------------------
def test_strangers_joins_do_not_starve_the_gms_notice_of_a_real_resign(store, quiet):  # noqa: F811
    forming = [open_game(store, quiet, f"SU-{k}") for k in range(7)]
    running = new_game(store, now=T0, gm_address=GM)
    for i in range(25):   # up to four seats asked for in each of seven games
        deliver(store, quiet, mail(f"stranger{i}@town{i}.example", f"JOIN {forming[i % 7]}"),
                now=T0 + timedelta(minutes=1 + i))
    bob = player(store, running, "Hammer")
    deliver(store, quiet, mail(address("bob"), f"BEGIN {running} Hammer key {bob.secret}\nRESIGN {running}\nEND"),
            now=T0 + timedelta(minutes=40))
    carol = player(store, running, "Zoom")
    deliver(store, quiet, mail(address("carol"), f"BEGIN {running} Zoom key {carol.secret}\n"
                                                 "ABSENT 2026-11-21 TO 2026-11-25\nEND"),
            now=T0 + timedelta(minutes=41))
    to_gm = [m for m in sent_to(store, GM) if m.kind in ("gm", "gm_digest")]
    direct = [m for m in to_gm if m.kind == "gm"]
    assert len(direct) == quiet.gm_notices_per_hour
    (held,) = [m for m in to_gm if m.kind == "gm_digest"]
    assert held.next_attempt_at.replace(tzinfo=UTC) > T0 + timedelta(minutes=41)   # it goes when the hour is over
    everything = "\n".join(m.subject + "\n" + text_of(m.raw) for m in to_gm)
    assert "Hammer" in everything and "resign" in everything.lower()
    assert "Zoom" in everything and "away" in everything
    # nothing dropped: 25 JOINs, a RESIGN and an ABSENT: 27 notices, each sent or in the digest
    assert len(direct) + text_of(held.raw).count("-" * 60) == 27
    assert [r.outcome for r in incoming(store)[-2:]] == ["accepted", "accepted"]
