"""Signed tokens for the community's mails: ``<purpose letter>.<row id>.<signature>``.

A confirmation mail (``c``: a new address of record, an observer) and an observer's unsubscribe
address (``o``) carry one. The signature is the reply tokens' (:func:`referee.games.tokens.short_mac`: an
HMAC-SHA256 cut to 80 bits, in lower-case base32, as mail systems may change the case of a subject or an address) under
``settings.signing_key`` (:func:`referee.games.tokens.signing_key`), over the purpose and the row's id.
"""

from __future__ import annotations

import hmac
import re

from ..common.config import Settings
from .tokens import short_mac, signing_key

SALT = "referee.community"
_TOKEN = re.compile(r"^([a-z])\.(\d{1,12})\.([a-z2-7]{16})$")


def _mac(settings: Settings, purpose: str, row: int) -> str:
    return short_mac(f"{signing_key(settings)}\0{SALT}".encode(), f"{purpose}.{row}".encode())


def sign(settings: Settings, purpose: str, row: int) -> str:
    """The token for row ``row`` of ``purpose`` (one letter)."""
    return f"{purpose}.{row}.{_mac(settings, purpose, row)}"


def verify(settings: Settings, purpose: str, token: str) -> int | None:
    """The row id a good token of ``purpose`` names, or None."""
    m = _TOKEN.match((token or "").strip().lower())
    if m is None or m.group(1) != purpose:
        return None
    row = int(m.group(2))
    return row if hmac.compare_digest(_mac(settings, purpose, row), m.group(3)) else None
