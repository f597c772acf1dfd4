"""The reply token in the subject line, for mail servers without sub-addressing (``reply_token``).

Every mail is written with its reply token in the Reply-To plus address (``referee+12.4.k3x9...@d``). As
it goes out, with ``reply_token = "subject"`` the Reply-To becomes the plain address and the token is
added to the subject (``RR-1 turn 4 results [#12.4.k3x9...]``); with ``"both"`` the Reply-To keeps the plus
address and the subject gets the token too. Only the header changes, byte for byte elsewhere: the token
goes on a folded line of its own at the end of the Subject, which works after encoded words as well.
A player's ``Re:`` brings the subject back and :func:`referee.games.tokens.read_token` reads it there.
"""

from __future__ import annotations

import re

from ..common.config import Settings
from ..games.tokens import delimiter

_TOKEN = r"\d{1,12}\.\d{1,6}\.[a-z2-7]{16}"


def _split(raw: bytes) -> tuple[bytes, bytes, bytes]:
    """(head, separator, body) with the line ending the mail uses."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        head, found, body = raw.partition(sep)
        if found:
            return head, sep, body
    return raw, b"", b""


def _fields(head: bytes, eol: bytes) -> list[bytes]:
    """The header's fields, each with its folded continuation lines."""
    out: list[bytes] = []
    for line in head.split(eol):
        if out and line[:1] in (b" ", b"\t"):
            out[-1] += eol + line
        else:
            out.append(line)
    return out


def move_to_subject(raw: bytes, settings: Settings) -> bytes:
    """``raw`` with its reply token added to the subject (and, unless the address carries it too, taken off
    the Reply-To). A mail without a reply token, or a configuration that keeps tokens in the address only,
    is returned as it is."""
    places = settings.token_places
    if "subject" not in places:
        return raw
    local, _, _ = settings.referee_address.rpartition("@")
    plus = re.compile(re.escape(local.encode()) + re.escape(delimiter(settings).encode()) + rb"(" +
                      _TOKEN.encode() + rb")@", re.IGNORECASE)
    head, sep, body = _split(raw)
    eol = sep[: len(sep) // 2] or b"\r\n"
    fields = _fields(head, eol)
    token: bytes | None = None
    for i, field in enumerate(fields):
        if field.lower().startswith(b"reply-to:"):
            m = plus.search(field)
            if m is None:
                continue
            token = m.group(1)
            if "address" not in places:
                fields[i] = field[: m.start()] + local.encode() + b"@" + field[m.end():]
    if token is None:
        return raw
    for i, field in enumerate(fields):
        if field.lower().startswith(b"subject:"):
            if b"[#" + token.lower() + b"]" not in field.lower():
                fields[i] = field + eol + b" [#" + token + b"]"
            break
    else:
        fields.append(b"Subject: [#" + token + b"]")
    return eol.join(fields) + sep + body
