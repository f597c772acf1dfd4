"""Issue 30: forgeries told apart by what the receiving server recorded (Authentication-Results and ARC of
a trusted authserv-id), not only by the envelope sender's domain."""

from __future__ import annotations

import pytest

from referee.mailparse.authresults import sender_verdict

from .helpers import address, block, hand, incoming, mail, new_game, outbox, program_lines, text_of
from .stored import deliver, hostile_settings

MX = "mx.example.test"
ALICE = address("alice")
DOMAIN = ALICE.rpartition("@")[2]


@pytest.mark.parametrize(("header", "verdict"), [
    (f"{MX}; dkim=pass header.d={DOMAIN} header.s=sel; spf=pass smtp.mailfrom={DOMAIN}", "pass"),
    (f"{MX}; dkim=none; spf=pass smtp.mailfrom=bounce.{DOMAIN}", "pass"),
    (f"{MX}; dmarc=pass header.from={DOMAIN}", "pass"),
    (f"{MX}; dkim=fail header.d={DOMAIN}; spf=fail smtp.mailfrom={DOMAIN}; dmarc=fail header.from={DOMAIN}", "fail"),
    (f"{MX}; dkim=pass header.d=attacker.example; spf=softfail smtp.mailfrom={DOMAIN}", "fail"),
    (f"{MX}; dkim=none; spf=none", None),
    (f"evil.example; dkim=pass header.d={DOMAIN}", None),   # not the trusted server: not read
])
def test_the_trusted_servers_findings_are_read_for_the_from_domain(header: str, verdict: str | None):
    assert sender_verdict([header], [], MX, ALICE) == verdict


def test_nothing_is_read_without_a_trusted_authserv_id_and_arc_only_when_trusted():
    header = f"{MX}; dkim=fail header.d={DOMAIN}; spf=fail smtp.mailfrom={DOMAIN}"
    assert sender_verdict([header], [], "", ALICE) is None
    arc = [f"i=1; {MX}; dkim=pass header.d={DOMAIN}"]
    assert sender_verdict([], arc, MX, ALICE) is None
    assert sender_verdict([], arc, MX, ALICE, trust_arc=True) == "pass"


def test_a_mail_of_her_own_domain_that_fails_the_checks_is_refused_as_forged_apart_from_her_errors(store, db_url):
    settings = hostile_settings(db_url, trusted_authserv_id=MX)
    code = new_game(store)
    failing = {"Authentication-Results": f"{MX}; dkim=none; spf=fail smtp.mailfrom={DOMAIN}; dmarc=fail",
               "Return-Path": f"<{ALICE}>"}
    deliver(store, settings, mail(ALICE, "HELP\n", headers=failing))
    assert outbox(store) == []   # forged: never answered to the address it names (the outbound policy)
    assert "from a server that failed the DKIM, SPF and DMARC checks" in (incoming(store)[0].reason or "")
    # her own mistakes are still answered in full afterwards
    deliver(store, settings, *[mail(ALICE, f"oops {i}\n") for i in range(settings.error_replies_per_hour)])
    assert sum("could not be used" in text_of(m.raw) for m in outbox(store)) == settings.error_replies_per_hour
    assert incoming(store)[0].outcome == "rejected" and code


def test_a_quoted_local_part_that_spells_dmarc_pass_is_refused_as_forged(store, db_url):
    settings = hostile_settings(db_url, trusted_authserv_id=MX)
    new_game(store)
    crafted = {"Authentication-Results": f'{MX}; spf=pass smtp.mailfrom="x;dmarc=pass"@evil.example; dkim=none',
               "Return-Path": '<"x;dmarc=pass"@evil.example>'}
    deliver(store, settings, mail(ALICE, "HELP\n", headers=crafted))
    assert outbox(store) == []
    (stored,) = incoming(store)
    assert stored.outcome == "rejected" and '"x;dmarc=pass"@evil.example' in (stored.reason or "")


def test_a_forged_arc_set_of_the_trusted_id_does_not_make_a_mail_hers_by_default(store, db_url):
    settings = hostile_settings(db_url, trusted_authserv_id=MX)
    new_game(store)
    forged = {"ARC-Authentication-Results": f"i=1; {MX}; dkim=pass header.d={DOMAIN}; dmarc=pass",
              "Return-Path": "<bounce@evil.example>"}
    deliver(store, settings, mail(ALICE, "HELP\n", headers=forged))
    assert outbox(store) == []
    (stored,) = incoming(store)
    assert stored.outcome == "rejected" and "from bounce@evil.example" in (stored.reason or "")
    # with ARC trusted, the same set vouches for her: her HELP is answered
    deliver(store, hostile_settings(db_url, trusted_authserv_id=MX, trust_arc_results=True),
            mail(ALICE, "HELP\n", headers=forged))
    (answer,) = outbox(store)
    assert answer.recipients == [ALICE]


def test_a_mail_that_passes_the_checks_is_hers_whatever_its_envelope(store, db_url):
    settings = hostile_settings(db_url, trusted_authserv_id=MX)
    code = new_game(store)
    forwarded = {"Authentication-Results": f"{MX}; dkim=pass header.d={DOMAIN}; spf=none",
                 "Return-Path": "<SRS0=ab12=XY=example.test=alice@forwarder.example>"}
    deliver(store, settings, mail(ALICE, block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5])),
                                  headers=forwarded))
    (answer,) = outbox(store)
    assert "Orders accepted" in text_of(answer.raw)
