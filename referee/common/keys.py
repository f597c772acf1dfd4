"""Comparing a key from a mail with a secret on file: one function for GM and player keys.

A key typed in a mail may hold anything (non-ASCII letters, lone surrogates from a damaged
charset, a megabyte of text); whatever it holds, the answer is True or False, never an exception,
and the comparison takes the same time wherever the first difference is (``hmac.compare_digest``
on bytes: on ``str`` it refuses non-ASCII characters with a TypeError).
"""

from __future__ import annotations

import hmac

#: a key longer than this is wrong without looking (no secret is this long)
MAX_KEY = 200


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def same_key(given: str | None, secret: str | None, *, ignore_case: bool = False) -> bool:
    """Whether ``given`` (from a mail) is ``secret``; player keys compare without regard to case."""
    if not given or not secret or len(given) > MAX_KEY:
        return False
    if ignore_case:
        given, secret = given.casefold(), secret.casefold()
    try:
        return hmac.compare_digest(_bytes(given.strip()), _bytes(secret))
    except (TypeError, ValueError, UnicodeError):
        return False
