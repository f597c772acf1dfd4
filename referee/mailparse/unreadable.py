"""Mail no parser should be asked to read: recursion bombs and other poison, told apart before parsing.

The standard library's mail parsers recurse on nested comments, nested MIME parts and the like; a
2 KB ``From`` with 2,000 nested comments exceeds Python's recursion limit. Such a mail is stored
all the same, raw, with the outcome ``unreadable`` and the reason this module gives; it is never
processed nor answered, and the mail server (or the MTA piping it to ``referee ingest``) is told it
was taken, so it is never retried. :func:`why_unreadable` reads the raw bytes once, with counters
and regular expressions (linear time, no recursion, never raises).
"""

from __future__ import annotations

import re

#: more header lines than this in a mail's own header block is no mail anyone wrote
MAX_HEADERS = 1_000
#: comments (or angle brackets) nested deeper than this in one header
MAX_NESTING = 20
#: multipart or message/rfc822 parts in one mail (each may nest in the one before)
MAX_CONTAINERS = 60
#: encoded-word openers in a row with no end between them (``=?utf-8?q?=?utf-8?q?...``)
MAX_OPEN_WORDS = 5

_BLANK = re.compile(rb"\r?\n\r?\n")
_HEADER_LINE = re.compile(rb"^[^ \t\r\n]", re.MULTILINE)
_CONTAINER = re.compile(rb"^content-type[ \t]*:[ \t\r\n]*(?:multipart/|message/rfc822)", re.MULTILINE | re.IGNORECASE)
_NESTED_WORDS = re.compile(rb"(?:=\?[^?\s]{0,40}\?[bqBQ]\?){%d}" % MAX_OPEN_WORDS)


def _depth(head: bytes, opening: int, closing: int) -> int:
    """The deepest nesting of ``opening``/``closing`` bytes within one header (a line break and a
    non-blank start a new header)."""
    deepest = depth = 0
    previous = 0
    for byte in head:
        if byte == opening:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif byte == closing:
            depth = max(0, depth - 1)
        elif previous == 0x0A and byte not in (0x20, 0x09):
            depth = 0
        previous = byte
    return deepest


def why_unreadable(raw: bytes) -> str | None:
    """Why this mail must not be parsed (a recursion bomb, a flood of headers), or None."""
    try:
        end = _BLANK.search(raw)
        head = raw[: end.start()] if end else raw
        headers = len(_HEADER_LINE.findall(head))
        if headers > MAX_HEADERS:
            return f"the mail has {headers} header lines (at most {MAX_HEADERS} are read)"
        if head.count(b"(") > MAX_NESTING and (depth := _depth(head, 0x28, 0x29)) > MAX_NESTING:
            return f"a header holds comments nested {depth} deep (at most {MAX_NESTING})"
        if head.count(b"<") > MAX_NESTING and (depth := _depth(head, 0x3C, 0x3E)) > MAX_NESTING:
            return f"a header holds angle brackets nested {depth} deep (at most {MAX_NESTING})"
        if b"=?" in head and _NESTED_WORDS.search(head):
            return "a header holds encoded words nested in encoded words"
        containers = len(_CONTAINER.findall(raw))
        if containers > MAX_CONTAINERS:
            return f"the mail has {containers} nested MIME containers (at most {MAX_CONTAINERS})"
        return None
    except Exception as exc:   # a safety net: a mail this check cannot read is no mail to parse either
        return f"the mail could not be checked ({type(exc).__name__})"
