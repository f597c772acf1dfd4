"""What the receiving mail server found of a mail's sender: ``Authentication-Results`` (RFC 8601) and
``ARC-Authentication-Results`` (RFC 8617) headers of a trusted ``authserv-id``.

Only headers whose authserv-id is the configured one (``trusted_authserv_id``: the name the operator's own
receiving server writes, e.g. ``mx.example.org``) are read; anyone can write such a header into a mail,
so the server must remove headers carrying its own id from incoming mail (Postfix with OpenDKIM and
OpenDMARC, rspamd and most hosted services do). The topmost trusted header is the one that counts.

:func:`sender_verdict` says ``pass`` (DMARC passed, or a DKIM signature or an SPF check passed for the
From's domain or a parent or sub-domain of it), ``fail`` (the server checked, and nothing vouches for
the From's domain: DMARC failed, or DKIM and SPF found no aligned pass while one of them failed) or
None (no trusted header, or it says nothing either way). Pure: no DNS, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_RESULT = re.compile(r"\b(dkim|spf|dmarc)\s*=\s*([a-z]+)\b([^;]*)", re.IGNORECASE)
_PROP = re.compile(r"\b(header\.d|header\.i|smtp\.mailfrom|header\.from|smtp\.helo)\s*=\s*\"?([^\s;\"]+)",
                   re.IGNORECASE)
_FAILS = {"fail", "softfail", "permerror", "neutral"}


def _aligned(domain: str, other: str) -> bool:
    other = other.rpartition("@")[2].lower().strip(".")
    return bool(other) and (other == domain or other.endswith("." + domain) or domain.endswith("." + other))


def _unfolded(value: str) -> str:
    return re.sub(r"\(.*?\)", " ", " ".join(value.split()))


def trusted_header(values: Iterable[str], authserv_id: str) -> str | None:
    """The topmost header (as given, topmost first) whose authserv-id is ``authserv_id``."""
    want = authserv_id.strip().lower()
    for value in values:
        text = _unfolded(value)
        text = re.sub(r"^\s*i\s*=\s*\d+\s*;", "", text)   # ARC-Authentication-Results: i=1; <authserv-id>; ...
        first = text.split(";", 1)[0].strip().split()
        if first and first[0].lower() == want:
            return text
    return None


def sender_verdict(auth_results: Iterable[str], arc_results: Iterable[str], authserv_id: str,
                   from_address: str) -> str | None:
    """``pass``, ``fail`` or None for the From address ``from_address`` (see the module docstring)."""
    if not authserv_id.strip():
        return None
    header = trusted_header(auth_results, authserv_id) or trusted_header(arc_results, authserv_id)
    if header is None:
        return None
    domain = from_address.rpartition("@")[2].lower()
    seen: dict[str, list[tuple[str, str]]] = {"dkim": [], "spf": [], "dmarc": []}
    for method, result, rest in _RESULT.findall(header):
        props = " ".join(v for _, v in _PROP.findall(rest))
        seen[method.lower()].append((result.lower(), props))
    if any(result == "pass" for result, _ in seen["dmarc"]):
        return "pass"
    for method in ("dkim", "spf"):
        if any(result == "pass" and _aligned(domain, props.split()[0] if props else "")
               for result, props in seen[method]):
            return "pass"
    if any(result == "fail" for result, _ in seen["dmarc"]):
        return "fail"
    failed = [result for method in ("dkim", "spf") for result, _ in seen[method] if result in _FAILS]
    return "fail" if failed else None
