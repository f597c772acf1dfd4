"""Who sent a mail: the one reader of a ``From`` header, used everywhere the referee asks.

The address is read as the mail standard (RFC 5322) and DMARC read it: the address in angle
brackets when there is one, whatever the display name says (``gm@ref.example <evil@attacker.example>``
is ``evil@attacker.example``); comments and quotes are taken away (``"alice"@example.org`` is
``alice@example.org``); a From with no address, with several addresses or with a broken one gives
None (no usable sender: such a mail is never obeyed nor answered).

The reader is one pass over the text with counters, no recursion, so any header (2,000 nested
comments, a megabyte of angle brackets) is read in linear time and never raises. Intake (the stored
``from_addr``), processing (who may send, GM checks, loop checks) and answer limits all use
:func:`sender_address`; limits key on :func:`limit_key`.

    sender_address('Alice (home) <Alice@Example.ORG>')   ->  'alice@example.org'
    sender_address('gm@ref.example <evil@attacker.example>')  ->  'evil@attacker.example'
    limit_key('"alice+x"@example.org')                  ->  'alice@example.org'
"""

from __future__ import annotations

import re

#: a From header longer than this is no one's address
MAX_HEADER = 64_000
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = re.compile(rf"{_ATOM}(?:\.{_ATOM})*")
_LABEL = r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)"
_DOMAIN = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_LITERAL = re.compile(r"\[[\x21-\x5a\x5e-\x7e]{1,253}\]")
_WS = re.compile(r"[ \t\r\n]+")
#: a line break that is no folding (a header fragment: ``v@x.org\r\nBcc: w@x.org``), or a control character
_BROKEN = re.compile(r"[\r\n](?![ \t\r\n])|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _mailboxes(value: str) -> list[str] | None:
    """The mailboxes of an address list, as text without comments (quoted strings kept, quotes and
    all); None when the text is broken (an unclosed quote, comment or angle bracket)."""
    out: list[str] = []
    buf: list[str] = []
    depth = 0          # comment nesting
    quoted = angle = False
    escaped = False
    for ch in value:
        if escaped:
            escaped = False
            if depth == 0:
                buf.append(ch)
            continue
        if ch == "\\" and (quoted or depth):
            escaped = True
            if depth == 0:
                buf.append(ch)
            continue
        if depth:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            continue
        if quoted:
            buf.append(ch)
            if ch == '"':
                quoted = False
            continue
        if ch == "(":
            depth = 1
            buf.append(" ")
        elif ch == '"':
            quoted = True
            buf.append(ch)
        elif ch == "<":
            if angle:
                return None
            angle = True
            buf.append(ch)
        elif ch == ">":
            if not angle:
                return None
            angle = False
            buf.append(ch)
        elif ch in ",;" and not angle:
            out.append("".join(buf))
            buf = []
        elif ch == ":" and not angle:
            buf = []   # a group's name: its members follow
        else:
            buf.append(ch)
    if depth or quoted or angle or escaped:
        return None
    out.append("".join(buf))
    # a piece without an @ is no mailbox (an unquoted comma in a name: ``Doe, John <j@x.example>``)
    return [m for m in (b.strip() for b in out) if "@" in m]


def _addr_spec(mailbox: str) -> str | None:
    """The address of one mailbox: in angle brackets when there are some, else the whole text."""
    start = _outside_quotes(mailbox, "<")
    if start >= 0:
        end = mailbox.find(">", start)
        if end < 0 or _outside_quotes(mailbox[end + 1:], "<") >= 0:
            return None
        spec = mailbox[start + 1:end]
        if ":" in spec:   # an obsolete source route (<@a.example:alice@example.org>)
            spec = spec.rsplit(":", 1)[1]
        return spec
    return mailbox


def _outside_quotes(text: str, char: str) -> int:
    quoted = escaped = False
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == char and not quoted:
            return i
    return -1


def _normal(spec: str) -> str | None:
    """``local@domain`` in lower case, quotes taken off a local part that needs none; None when broken."""
    local, at, domain = spec.rpartition("@")
    if not at or not local:
        return None
    local = local.strip(" \t\r\n")
    domain = _WS.sub("", domain).lower().rstrip(".")
    if local.startswith('"') and local.endswith('"') and len(local) >= 2:
        inner = re.sub(r"\\(.)", r"\1", local[1:-1])
        if not inner or not inner.isprintable() or '"' in inner or "\\" in inner:
            return None
        local = inner if _DOT_ATOM.fullmatch(inner) else f'"{inner}"'
    else:
        local = _WS.sub("", local)
        if not _DOT_ATOM.fullmatch(local) and not (local.isprintable() and not local.isascii()
                                                   and _DOT_ATOM.fullmatch(re.sub(r"[^\x00-\x7f]", "a", local))):
            return None
    if not domain.isascii():
        try:
            domain = domain.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    if not (_DOMAIN.fullmatch(domain) or _LITERAL.fullmatch(domain)) or len(local) > 64 or len(domain) > 253:
        return None
    return f"{local.lower()}@{domain}"


def sender_address(value: str | None) -> str | None:
    """The one address of a ``From`` header's text (unfolded or not), normalised; None when it has
    none, several, or a broken one. Never raises."""
    if not value or len(value) > MAX_HEADER or _BROKEN.search(value):
        return None
    try:
        boxes = _mailboxes(value)
        if not boxes or len(boxes) != 1:
            return None
        spec = _addr_spec(boxes[0])
        return _normal(spec) if spec else None
    except Exception:   # a safety net: no usable sender rather than a crash
        return None


def address_list(value: str | None, limit: int = 100) -> list[str]:
    """Every address of an address-list header (To, Cc), normalised; broken ones left out."""
    if not value or len(value) > MAX_HEADER:
        return []
    try:
        boxes = _mailboxes(value) or []
        found = [_normal(s) for b in boxes[:limit] if (s := _addr_spec(b))]
        return [a for a in found if a]
    except Exception:
        return []


def limit_key(address: str) -> str:
    """The key answer limits count under: the address without a ``+tag`` or quotes, in lower case."""
    normal = sender_address(address) or address.strip().lower()
    local, _, domain = normal.rpartition("@")
    local = local.strip('"').split("+", 1)[0] or local
    return f"{local}@{domain}"[:400]


def same_address(a: str | None, b: str | None) -> bool:
    """Whether two addresses name the same mailbox (as written in a From header or stored)."""
    x, y = sender_address(a), sender_address(b)
    return x is not None and x == y
