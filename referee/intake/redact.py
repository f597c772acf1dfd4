"""A GM's key is never kept in plaintext (issue 41): docs/gm.md says only a digest of it is kept.

A GM mail carries the key on its ``BEGIN GM`` line. Once the mail is read (its text is in memory for the
GM handler), :func:`without_key` takes every copy of that key out of the stored raw mail, in its plain,
quoted-printable and base64 parts alike, writing in its place a mark with the first characters of its
SHA-256 digest (enough to tell two keys apart, not to find one); answers are kept the same way. A GM mail
processed again afterwards (``referee mail reprocess``) therefore no longer carries a key, and is refused.
"""

from __future__ import annotations

import hashlib
from email import encoders, message_from_bytes, policy

#: a "key" shorter than this is not looked for: it would take ordinary words out of the mail
SHORTEST = 6


def mark(key: str) -> str:
    digest = hashlib.sha256(key.strip().encode("utf-8", "surrogatepass")).hexdigest()
    return f"[GM key withheld, sha256 {digest[:12]}]"


def without_key(raw: bytes, key: str | None) -> bytes:
    """``raw`` with every copy of ``key`` replaced by :func:`mark` (``raw`` itself when there is none)."""
    if not key or len(key.strip()) < SHORTEST:
        return raw
    try:
        needle = key.strip().encode("utf-8")
    except UnicodeError:
        return raw
    replaced = mark(key).encode()
    out = raw.replace(needle, replaced)
    try:
        msg = message_from_bytes(out, policy=policy.compat32)
        changed = False
        for part in msg.walk():
            if part.is_multipart():
                continue
            encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
            if encoding not in ("base64", "quoted-printable"):
                continue
            data = part.get_payload(decode=True)
            if not isinstance(data, bytes) or needle not in data:
                continue
            del part["Content-Transfer-Encoding"]
            part.set_payload(data.replace(needle, replaced))
            (encoders.encode_base64 if encoding == "base64" else encoders.encode_quopri)(part)
            changed = True
        if changed:
            out = msg.as_bytes(policy=policy.compat32)
    except Exception:   # a mail the parser cannot write back keeps its plain replacements only
        return out
    return out


def text_without_key(text: str, key: str | None) -> str:
    """An answer's text with the key replaced (a GM answer may quote a line that carried it)."""
    if not key or len(key.strip()) < SHORTEST:
        return text
    return text.replace(key.strip(), mark(key))
