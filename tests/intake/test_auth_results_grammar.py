"""Issue 41 item 4: the trusted Authentication-Results header read by the RFC 8601 grammar, DKIM and SPF
alignment by the Public Suffix List, ARC only when the operator says so; the header shapes real receiving
servers write (Gmail, Microsoft 365, Fastmail, Postfix with OpenDKIM and OpenDMARC)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.mailparse.authresults import Result, aligned, organization, parse, sender_verdict, without_comments

MX = "mx.example.org"


# -- RFC 8601 Appendix B: the examples parse to what they say ------------------------------------------

@pytest.mark.parametrize(("header", "authserv_id", "results"), [
    # B.2: nothing was checked
    ("example.org 1; none", "example.org", []),
    # B.3: SPF
    ("example.com; spf=pass smtp.mailfrom=example.net", "example.com",
     [("spf", "pass", {"smtp.mailfrom": "example.net"})]),
    # B.4: SMTP AUTH and SPF, then iprev
    ("example.com; auth=pass (cram-md5) smtp.auth=sender@example.net; spf=pass smtp.mailfrom=example.net",
     "example.com", [("auth", "pass", {"smtp.auth": "sender@example.net"}),
                     ("spf", "pass", {"smtp.mailfrom": "example.net"})]),
    ("example.com; iprev=pass policy.iprev=192.0.2.200", "example.com",
     [("iprev", "pass", {"policy.iprev": "192.0.2.200"})]),
    # B.5: DKIM with a comment
    ("example.com; dkim=pass (good signature) header.d=example.com", "example.com",
     [("dkim", "pass", {"header.d": "example.com"})]),
    # B.6: several results, with reasons
    ('example.com; dkim=pass reason="good signature" header.i=@mail-router.example.net; '
     'dkim=fail reason="bad signature" header.i=@newyork.example.com', "example.com",
     [("dkim", "pass", {"header.i": "@mail-router.example.net"}),
      ("dkim", "fail", {"header.i": "@newyork.example.com"})]),
    # B.7: comments wherever the grammar allows them
    ("foo.example.net (foobar) 1 (baz); dkim (Because I like it) / 1 (One yay) = (wait for it) fail\r\n"
     "  policy (A dot can go here) . (like that) expired\r\n"
     "  (this surprised me) = (as I wasn't expecting it) 1362471462", "foo.example.net",
     [("dkim", "fail", {"policy.expired": "1362471462"})]),
])
def test_the_rfc_examples_parse(header: str, authserv_id: str, results: list[tuple[str, str, dict[str, str]]]):
    assert parse(header) == (authserv_id, [Result(*r) for r in results])


def test_comments_nest_and_quoted_strings_keep_their_parentheses():
    assert without_comments('a (b (c) d) "e (f)" (g \\) h)') == 'a   "e (f)"  '
    assert without_comments("a (b") is None and without_comments('a "b') is None and without_comments("a)") is None
    assert parse(f"{MX}; " + "(" * 3000 + ")" * 3000 + " dkim=pass header.d=example.org") is not None


# -- the three attacks of issue 41 --------------------------------------------------------------------

def test_a_quoted_local_part_is_a_value_not_a_result():
    header = f'{MX}; spf=fail smtp.mailfrom="x;dmarc=pass"@evil.example'
    assert parse(header) == (MX, [Result("spf", "fail", {"smtp.mailfrom": '"x;dmarc=pass"@evil.example'})])
    assert sender_verdict([header], [], MX, "alice@example.org") == "fail"
    assert sender_verdict([f'{MX}; spf=none smtp.mailfrom="x;dmarc=pass"@evil.example'], [], MX,
                          "alice@evil.example") is None
    # nor is a comment a result
    assert sender_verdict([f"{MX}; spf=none smtp.mailfrom=evil.example (dmarc=pass)"], [], MX,
                          "alice@example.org") is None


@pytest.mark.parametrize(("signer", "from_domain", "verdict"), [
    ("org", "example.org", "fail"),                 # a public suffix vouches for nobody under it
    ("co.uk", "example.co.uk", "fail"),
    ("example.co.uk", "victim.co.uk", "fail"),      # two organizations under one public suffix
    ("attacker.github.io", "victim.github.io", "fail"),   # a private suffix of the list counts too
    ("example.org", "example.org", "pass"),
    ("mail.example.org", "example.org", "pass"),    # relaxed alignment: one organizational domain
    ("example.org", "lists.example.org", "pass"),
    ("Example.ORG.", "example.org", "pass"),
])
def test_dkim_alignment_is_by_the_public_suffix_list(signer: str, from_domain: str, verdict: str):
    header = f"{MX}; dkim=pass header.d={signer}; spf=fail smtp.mailfrom=bounce.attacker.example"
    assert sender_verdict([header], [], MX, f"alice@{from_domain}") == verdict


def test_organizational_domains():
    assert organization("a.b.example.co.uk") == "example.co.uk"
    assert organization("org") is None and organization("") is None and organization("a..b") is None
    assert aligned("example.test", "example.test")   # a name the list does not know is its own organization
    assert not aligned("test", "example.test")


def test_a_forged_arc_set_counts_only_when_the_operator_trusts_arc_and_the_server_wrote_no_header():
    arc = [f"i=1; {MX}; dkim=pass header.d=example.org; dmarc=pass header.from=example.org"]
    assert sender_verdict([], arc, MX, "alice@example.org") is None
    assert sender_verdict([], arc, MX, "alice@example.org", trust_arc=True) == "pass"
    own = [f"{MX}; dkim=none; spf=fail smtp.mailfrom=example.org; dmarc=fail header.from=example.org"]
    assert sender_verdict(own, arc, MX, "alice@example.org", trust_arc=True) == "fail"


# -- what one header says, and which headers are read ------------------------------------------------

def test_dmarc_counts_only_for_the_from_domain_and_its_failure_wins():
    assert sender_verdict([f"{MX}; dmarc=pass header.from=evil.example"], [], MX, "alice@example.org") is None
    both = f"{MX}; dkim=pass header.d=example.org; dmarc=fail header.from=example.org"
    assert sender_verdict([both], [], MX, "alice@example.org") == "fail"


def test_only_the_topmost_run_of_trusted_headers_is_read():
    mine = f"{MX}; dkim=none; spf=fail smtp.mailfrom=example.org"
    planted = f"{MX}; dmarc=pass header.from=example.org"
    relay = "relay.example.net; spf=pass smtp.mailfrom=example.org"
    assert sender_verdict([mine, relay, planted], [], MX, "alice@example.org") == "fail"
    # a trusted header that does not parse says nothing, and the one below it is not read instead
    assert sender_verdict([f"{MX}; dkim=pass header.d=(example.org", planted], [], MX, "alice@example.org") is None
    assert sender_verdict([f"{MX}; dkim=pass header.d=" + "a" * 9000], [], MX, "alice@example.org") is None


@given(st.text(max_size=300))
def test_no_header_text_breaks_the_reader(text: str):
    assert sender_verdict([text, f"{MX}; {text}"], [f"i=1; {MX}; {text}"], MX, "alice@example.org",
                          trust_arc=True) in ("pass", "fail", None)


# -- the shapes real receiving servers write -----------------------------------------------------------

GMAIL = ("mx.google.com;\r\n       dkim=pass header.i=@example.com header.s=s2024 header.b=Ab1+Cd2/;\r\n"
         "       arc=pass (i=1 spf=pass spfdomain=example.com dkim=pass dkdomain=example.com dmarc=pass "
         "fromdomain=example.com);\r\n"
         "       spf=pass (google.com: domain of alice@example.com designates 209.85.220.41 as permitted sender) "
         "smtp.mailfrom=alice@example.com;\r\n"
         "       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.com")
#: Microsoft 365 writes no authserv-id, and properties without a type (action=none, compauth, reason)
MICROSOFT = ("spf=pass (sender IP is 40.107.22.91) smtp.mailfrom=contoso.com; dkim=pass (signature was verified) "
             "header.d=contoso.com;dmarc=pass action=none header.from=contoso.com;compauth=pass reason=100")
FASTMAIL = ("mx3.messagingengine.com;\r\n    dkim=pass (2048-bit rsa key sha256) header.d=example.com "
            "header.i=@example.com header.b=AbCd header.a=rsa-sha256 header.s=fm1 x-bits=2048;\r\n"
            "    dmarc=pass policy.published-domain-policy=none policy.applied-disposition=none "
            "policy.evaluated-disposition=none (p=none,d=none,d.eval=none) policy.policy-from=p "
            "header.from=example.com;\r\n    iprev=pass smtp.remote-ip=203.0.113.5 (out.example.com);\r\n"
            "    spf=pass smtp.mailfrom=alice@example.com smtp.helo=out.example.com;\r\n"
            "    x-aligned-from=pass (Address match); x-me-sender=none; x-ptr=pass smtp.helo=out.example.com "
            "policy.ptr=out.example.com")
#: Postfix with OpenDMARC (topmost, written last), OpenDKIM and policyd-spf: one header each
OPENDMARC = f"{MX}; dmarc=pass (p=none dis=none) header.from=example.com"
OPENDKIM = (f"{MX};\r\n\tdkim=pass (2048-bit key; unprotected) header.d=example.com header.i=@example.com "
            'header.a=rsa-sha256 header.s=mail header.b="AbCdEf12"; dkim-atps=neutral')
POLICYD_SPF = f"{MX}; spf=pass (sender SPF authorized) smtp.mailfrom=example.com"


@pytest.mark.parametrize(("headers", "authserv_id", "sender", "verdict"), [
    ([GMAIL], "mx.google.com", "alice@example.com", "pass"),
    ([GMAIL], "mx.google.com", "alice@other.example", None),
    ([FASTMAIL], "mx3.messagingengine.com", "alice@example.com", "pass"),
    ([OPENDMARC, OPENDKIM, POLICYD_SPF], MX, "alice@example.com", "pass"),
    ([OPENDKIM, POLICYD_SPF], MX, "alice@example.com", "pass"),
    ([OPENDMARC.replace("dmarc=pass (p=none", "dmarc=fail (p=reject"), OPENDKIM], MX, "alice@example.com", "fail"),
    # a mail from Microsoft 365 (its own header below ours) and from Gmail, received by Postfix
    ([f"{MX}; dkim=pass header.d=contoso.com; dmarc=pass header.from=contoso.com", MICROSOFT], MX,
     "bob@contoso.com", "pass"),
    ([f"{MX}; dkim=fail header.d=example.com; spf=softfail smtp.mailfrom=example.com", GMAIL], MX,
     "alice@example.com", "fail"),
    # Microsoft 365 as the receiving server: no authserv-id to trust, so nothing is read
    ([MICROSOFT], "contoso.com", "bob@contoso.com", None),
])
def test_real_servers_headers(headers: list[str], authserv_id: str, sender: str, verdict: str | None):
    assert sender_verdict(headers, [], authserv_id, sender) == verdict
