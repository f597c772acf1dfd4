"""The Message-IDs the referee's mails carry on the wire: unique per installation and per content.

Mails are built with a readable, deterministic Message-ID (game, turn, kind, recipient...). That id only
says *which* mail it is; a fresh database (a trial season, then the real one) builds the same ones again
for different mails, and stores that drop a Message-ID they already hold (Gmail does) would lose them.
So :func:`wire_id` turns it into the id that is sent: the readable part kept as a prefix, then a digest
of a random salt kept in this installation's database (``service_state``, key ``installation``), the
built id and the mail's content (every header and part but Date and Message-ID). The same mail queued
again gets the same id, and is queued once; the outbox sends a row's stored bytes, so its retries keep
their id too. A mail with other content (a turn resolved again) gets a new id.
"""

from __future__ import annotations

import copy
import hashlib
import re
import secrets
from email import policy
from email.message import EmailMessage

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import ServiceState
from .types import utcnow
from .wire import head_lines, split_head, wire_bytes

SALT_KEY = "installation"
_ID = re.compile(r"^<([^@<>]*)@([^@<>]+)>$")
_TAG = re.compile(r"[^A-Za-z0-9.-]+")


def installation_salt(s: Session) -> str:
    """This installation's salt, made (randomly) the first time it is asked for. Once read from the
    database it is kept in the session's ``info`` and in the database connection's (it never changes): one
    query a connection, not one a mail or a session (a tick opens a session for each turn it resolves)."""
    if SALT_KEY in s.info:
        return str(s.info[SALT_KEY])
    conn_info = s.connection().info
    if SALT_KEY in conn_info:
        s.info[SALT_KEY] = conn_info[SALT_KEY]
        return str(conn_info[SALT_KEY])
    row = s.get(ServiceState, SALT_KEY)
    if row is not None and isinstance(row.value, dict) and row.value.get("salt"):
        s.info[SALT_KEY] = conn_info[SALT_KEY] = str(row.value["salt"])
        return str(row.value["salt"])
    salt = secrets.token_hex(16)
    try:
        with s.begin_nested():
            s.add(ServiceState(key=SALT_KEY, value={"salt": salt}, updated_at=utcnow()))
    except IntegrityError:  # another process made it a moment ago: theirs counts
        row = s.get(ServiceState, SALT_KEY, populate_existing=True)
        assert row is not None
        return str(row.value["salt"])
    # made here: kept by this session only (not by the connection: this transaction may yet be rolled back)
    s.info[SALT_KEY] = salt
    return salt


def content_digest(message: EmailMessage) -> str:
    """A digest of everything in ``message`` but its Date and Message-ID headers."""
    clone = copy.copy(message)  # shares the parts; deleting headers gives the clone its own header list
    del clone["Date"]
    del clone["Message-ID"]
    return hashlib.sha256(clone.as_bytes(policy=policy.SMTP)).hexdigest()


def wire_id(salt: str, built_id: str, digest: str) -> str:
    """The Message-ID to send for a mail built with ``built_id`` whose content has ``digest``."""
    match = _ID.match(built_id.strip())
    local, domain = (match.group(1), match.group(2)) if match else ("mail", "referee.invalid")
    parts = local.split(".")
    tag = _TAG.sub("-", ".".join(parts[:-1]) if len(parts) > 1 else local)[:24].strip(".-") or "mail"
    mac = hashlib.sha256(f"{salt}\0{built_id.strip()}\0{digest}".encode()).hexdigest()[:20]
    return f"<{tag}.{mac}@{domain}>"


def stamp(s: Session, message: EmailMessage) -> str:
    """Give ``message`` its wire Message-ID (see the module docstring) and return it."""
    built = str(message["Message-ID"] or "").strip()
    final = wire_id(installation_salt(s), built, content_digest(message))
    message.replace_header("Message-ID", final)
    return final


def stamp_and_serialise(s: Session, message: EmailMessage) -> tuple[str, bytes]:
    """:func:`stamp`, then the mail's bytes as sent (``as_bytes(policy=SMTP)``), serialising the mail once:
    the digest is taken over the same bytes less the Date and Message-ID lines, and the new Message-ID
    line is put in front of the body already written."""
    raw = wire_bytes(message)
    split = split_head(message, raw)
    if split is None:  # headers not written as expected: the slow way, as stamp does
        final = stamp(s, message)
        return final, wire_bytes(message)
    lines, body = split
    kept = b"".join(line for name, line in lines if name.lower() not in ("date", "message-id"))
    hashed = hashlib.sha256(kept)
    hashed.update(body)  # (not kept + body: the mail is not copied to be hashed)
    digest = hashed.hexdigest()
    built = str(message["Message-ID"] or "").strip()
    final = wire_id(installation_salt(s), built, digest)
    message.replace_header("Message-ID", final)
    new_id = [line for name, line in head_lines(message, only="message-id")]
    head = b"".join(new_id.pop(0) if name.lower() == "message-id" else line for name, line in lines)
    return final, head + body
