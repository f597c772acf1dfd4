"""What the receiving mail server found of a mail's sender: ``Authentication-Results`` (RFC 8601) and, when
the operator says so, ``ARC-Authentication-Results`` (RFC 8617) headers of a trusted ``authserv-id``.

Each header is read by the RFC 8601 grammar (the ``authres`` library), so a quoted local part such as
``smtp.mailfrom="x;dmarc=pass"@evil.example`` or a comment such as ``(dmarc=pass)`` is a value or a
comment, never a result. A header that does not parse says nothing (None), whatever it seems to say.

Only headers whose authserv-id is the configured one (``trusted_authserv_id``: the name the operator's own
receiving server writes, e.g. ``mx.example.org``) are read; anyone can write such a header into a mail,
so the server must remove headers carrying its own id from incoming mail (Postfix with OpenDKIM and
OpenDMARC, rspamd and most hosted services do). The topmost run of trusted headers is what counts (a
server's filters often write one each); a header of another id ends the run, and lower ones are not read.
``ARC-Authentication-Results`` headers are read only with ``trust_arc``, and only when the server wrote
no ``Authentication-Results`` of its id: a forger can write an ARC set as easily as anything else, so
only a server that seals ARC itself and removes sets of its own id makes them worth reading.

Alignment is DMARC's relaxed alignment: a DKIM signing domain (``header.d``) or an SPF envelope domain
(``smtp.mailfrom``) vouches for the From's domain when both have the same organizational domain by the
Public Suffix List (the ``publicsuffixlist`` library, which ships the list): ``mail.example.org`` is
aligned with ``example.org``; ``org`` (a public suffix) is aligned with nothing but itself.

:func:`sender_verdict` says ``fail`` when DMARC failed for the From's domain, ``pass`` when DMARC passed for
it or a DKIM signature or an SPF check passed for an aligned domain, ``fail`` when DKIM and SPF found no
aligned pass while one of them failed (the server checked, and nothing vouches for the From's domain) or None (no
trusted header, it does not parse, or it says nothing either way). Pure: no DNS, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import authres
from publicsuffixlist import PublicSuffixList

#: a header longer than this is not parsed (the parser's cost grows with it; no server writes one so long)
MAX_HEADER_CHARS = 8_000
#: results of DKIM or SPF that count as a failure when nothing aligned passed
_FAILS = frozenset({"fail", "softfail", "permerror", "neutral"})
#: ARC-Authentication-Results start with the instance: ``i=1; <authserv-id>; ...`` (RFC 8617 4.1.1)
_ARC_INSTANCE = re.compile(r"^\s*i\s*=\s*\d+\s*;")
#: the authserv-id as a loose first word, to know whose header did not parse
_FIRST_WORD = re.compile(r"^\s*(?:\([^)]*\)\s*)*([^\s;()]+)")

Verdict = Literal["pass", "fail"] | None


@dataclass(frozen=True)
class Result:
    """One ``method=result`` of a header with its properties (``header.d`` -> value), in lower case."""

    method: str
    result: str
    props: dict[str, str]


@cache
def _psl() -> PublicSuffixList:
    return PublicSuffixList()


def organization(domain: str) -> str | None:
    """The organizational domain of ``domain`` (the registrable name under its public suffix), or None for a
    public suffix itself, a single label or an empty or broken name."""
    domain = domain.strip().strip(".").lower()
    if not domain or ".." in domain:
        return None
    return _psl().privatesuffix(domain)


def aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment: the same name, or the same organizational domain by the Public Suffix List."""
    domain, from_domain = domain.strip().strip(".").lower(), from_domain.strip().strip(".").lower()
    if not domain or not from_domain:
        return False
    if domain == from_domain:
        return True
    org = organization(domain)
    return org is not None and org == organization(from_domain)


def same_organization(a: str, b: str) -> bool:
    """Whether two domains belong to one organization (names without a public suffix compare as written)."""
    a, b = a.strip().strip(".").lower(), b.strip().strip(".").lower()
    return (organization(a) or a) == (organization(b) or b)


def domain_of(value: str) -> str:
    """The domain of an address or a bare domain (``"a;b"@x.example``, ``@x.example``, ``x.example``)."""
    return value.rpartition("@")[2].strip().strip(">").strip(".").lower()


def without_comments(text: str) -> str | None:
    """``text`` with its RFC 5322 comments (nested, with quoted pairs) made single spaces, quoted strings kept
    as written; None when a comment or a quoted string is not closed. One pass, no recursion."""
    out: list[str] = []
    depth, quoted, escaped = 0, False, False
    for ch in text:
        if escaped:
            escaped = False
            if not depth:
                out.append(ch)
        elif ch == "\\" and (quoted or depth):
            escaped = True
            if not depth:
                out.append(ch)
        elif quoted:
            out.append(ch)
            quoted = ch != '"'
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if not depth:
                return None
            depth -= 1
            if not depth:
                out.append(" ")
        elif depth:
            continue
        else:
            out.append(ch)
            quoted = ch == '"'
    return None if depth or quoted or escaped else "".join(out)


def parse(value: str, *, arc: bool = False) -> tuple[str, list[Result]] | None:
    """The authserv-id and results of one header value (unfolded or not), or None when it does not parse."""
    text = " ".join(value.split())
    if arc:
        text, n = _ARC_INSTANCE.subn("", text, count=1)
        if not n:
            return None
    if len(text) > MAX_HEADER_CHARS:
        return None
    bare = without_comments(text)   # comments say nothing; the library trips on some legal places of them
    if bare is None:
        return None
    try:
        header = authres.AuthenticationResultsHeader.parse_value(" ".join(bare.split()))
    except (authres.AuthResError, ValueError, IndexError, AttributeError, TypeError):
        return None
    results = [Result(str(r.method).lower(), str(r.result).lower(),
                      {f"{p.type}.{p.name}".lower(): str(p.value) for p in r.properties})
               for r in header.results if getattr(r, "method", None)]
    return str(header.authserv_id or "").lower(), results


def trusted_results(values: Iterable[str], authserv_id: str, *, arc: bool = False) -> tuple[bool, list[Result] | None]:
    """Whether a header (as given, topmost first) has the authserv-id ``authserv_id``, and the results of the
    topmost run of such headers (a server's filters write one each: OpenDKIM, then OpenDMARC); the run ends
    at a header of another id. The results are None when a header of the run does not parse."""
    want = authserv_id.strip().lower()
    found: list[Result] | None = None
    for value in values:
        parsed = parse(value, arc=arc)
        if parsed is None:
            loose = _FIRST_WORD.match(_ARC_INSTANCE.sub("", value, count=1) if arc else value)
            if loose and loose.group(1).lower() == want:
                return True, None
        elif parsed[0] == want:
            found = (found or []) + parsed[1]
        if found is not None and (parsed is None or parsed[0] != want):
            break
    return found is not None, found


def verdict_of(results: Sequence[Result], from_domain: str) -> Verdict:
    """``pass``, ``fail`` or None for the From's domain by the results of the trusted header."""
    dmarc = [r for r in results if r.method == "dmarc"
             and domain_of(r.props.get("header.from", from_domain)) == from_domain]
    if any(r.result == "fail" for r in dmarc):
        return "fail"
    if any(r.result == "pass" for r in dmarc):
        return "pass"
    for r in results:
        if r.result != "pass":
            continue
        if r.method == "dkim" and aligned(domain_of(r.props.get("header.d") or r.props.get("header.i", "")),
                                          from_domain):
            return "pass"
        if r.method == "spf" and aligned(domain_of(r.props.get("smtp.mailfrom", "")), from_domain):
            return "pass"
    failed = [r for r in results if r.method in ("dkim", "spf") and r.result in _FAILS]
    return "fail" if failed else None


def sender_verdict(auth_results: Iterable[str], arc_results: Iterable[str], authserv_id: str,
                   from_address: str, *, trust_arc: bool = False) -> Verdict:
    """``pass``, ``fail`` or None for the From address ``from_address`` (see the module docstring)."""
    if not authserv_id.strip():
        return None
    found, results = trusted_results(auth_results, authserv_id)
    if not found and trust_arc:
        found, results = trusted_results(arc_results, authserv_id, arc=True)
    if results is None:
        return None
    return verdict_of(results, domain_of(from_address))
