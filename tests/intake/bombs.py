"""Poison mails: recursion bombs for the standard library's mail parsers, and a flood of headers.

Each is a complete mail of a few KB (the header flood: about 800 KB) with a Message-ID of its own.
"""

from __future__ import annotations

import uuid


def _head(frm: str = "alice@example.test", extra: bytes = b"") -> bytes:
    return (b"From: " + frm.encode() + b"\r\nTo: referee@example.test\r\nSubject: orders\r\n"
            + f"Message-ID: <{uuid.uuid4().hex}@bomb.example.test>\r\n".encode() + extra)


def nested_comments_from(depth: int = 1000) -> bytes:
    """The issue's mail: a From with ``depth`` nested comments (2 KB)."""
    return _head("(" * depth + ")" * depth + " alice@example.test") + b"\r\nHELP\r\n"


def nested_comments_content_type(depth: int = 1000) -> bytes:
    return _head(extra=b"Content-Type: text/plain; charset=" + b"(" * depth + b")" * depth + b"\r\n") + b"\r\nHELP\r\n"


def nested_angles_from(depth: int = 2000) -> bytes:
    return _head("<" * depth + "alice@example.test" + ">" * depth) + b"\r\nHELP\r\n"


def nested_multiparts(depth: int = 400) -> bytes:
    """``depth`` multiparts, each the only part of the one before."""
    out = _head(extra=b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b0\r\n") + b"\r\n"
    for i in range(1, depth):
        out += b"--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n" % (i - 1, i)
    out += b"--b%d\r\nContent-Type: text/plain\r\n\r\nHELP\r\n" % (depth - 1)
    for i in reversed(range(depth)):
        out += b"--b%d--\r\n" % i
    return out


def nested_encoded_words(depth: int = 300) -> bytes:
    return _head(extra=b"Subject: " + b"=?utf-8?q?" * depth + b"x" + b"?=" * depth + b"\r\n") + b"\r\nHELP\r\n"


def header_flood(count: int = 100_000) -> bytes:
    return _head(extra=b"X-Flood: yes\r\n" * count) + b"\r\nHELP\r\n"


BOMBS = {
    "nested comments in From": nested_comments_from,
    "nested comments in Content-Type": nested_comments_content_type,
    "nested angle brackets in From": nested_angles_from,
    "nested multiparts": nested_multiparts,
    "nested encoded words": nested_encoded_words,
    "100,000 headers": header_flood,
}
