"""From the raw bytes of a mail to what the order parser reads, and loop protection.

``read_mail(raw)`` never raises: whatever arrives, it returns a :class:`MailText` holding either the
body text or a ``rejected`` reason (too big, no text part, unreadable). The body is the text/plain
part, or the html part turned into text when there is no usable plain text; attachments are never
read. Charsets: the declared one when it decodes cleanly (but a single-byte western charset over bytes
that are valid UTF-8 is taken as the UTF-8 it almost surely is), else UTF-8, else Windows-1252, else
Latin-1 (which decodes anything); every fallback leaves a note.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses

from ..mailparse.senders import sender_address
from .mail_body import read_body, size
from .mail_fields import MailText

#: incoming mails larger than this are refused unread (configurable per call)
DEFAULT_MAX_BYTES = 1_000_000
#: the header block of a refused mail is still read for its sender, up to this size
_HEADER_PEEK = 64_000
#: our game header: a mail that carries it at the top comes from a referee, never from a player
GAME_HEADER = "X-Referee-Game"
#: the standard library's header parser is slow on long structured headers (quadratic in places), so
#: before the mail is parsed, Content-* headers are cut to this length in every part ...
_STRUCTURE_CAP = 512
#: ... and every other header of the mail itself to this (long To or References lists stay readable)
_HEADER_CAP = 16_000
#: ... and a mail with more lines that could be part boundaries is refused unparsed (parsing costs)
_MAX_BOUNDARIES = 1_000
#: headers kept for loop protection (lower case)
LOOP_HEADERS = ("auto-submitted", "precedence", "list-id", "x-loop", "return-path", "x-autoreply",
                "x-autorespond", "content-type", GAME_HEADER.lower(), "authentication-results",
                "arc-authentication-results")
_DAEMONS = {"mailer-daemon", "mailer_daemon", "maildaemon", "postmaster"}


def read_mail(raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> MailText:
    """Read one RFC 5322 mail. Never raises; see the module docstring."""
    try:
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        return _read_mail(bytes(raw), max_bytes)
    except Exception as exc:   # the last safety net: the mail is recorded with a reason
        return MailText(rejected=f"the mail could not be read ({type(exc).__name__})")


def _read_mail(raw: bytes, max_bytes: int) -> MailText:
    mail = MailText(size=len(raw))
    if len(raw) > max_bytes:
        _peek_headers(raw, mail)
        mail.rejected = (f"the mail is {size(len(raw))}, more than the {size(max_bytes)} accepted; "
                         "send your orders as plain text without attachments")
        return mail
    if len(_BOUNDARY_LINE.findall(raw)) > _MAX_BOUNDARIES:
        _peek_headers(raw, mail)
        mail.rejected = "the mail has too many MIME parts; send your orders as plain text"
        return mail
    raw, cut = _shorten_headers(raw)
    if cut:
        mail.notes.append(f"very long headers were shortened: {', '.join(sorted(set(cut)))[:200]}")
    try:
        msg = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception as exc:
        mail.rejected = f"the mail could not be parsed ({type(exc).__name__})"
        return mail
    try:
        _read_headers(msg, mail)
    except Exception as exc:   # a safety net, like the body's below
        mail.notes.append(f"some headers could not be read ({type(exc).__name__})")
    try:
        read_body(msg, mail)
    except Exception as exc:   # a safety net: the mail is still recorded, with a reason
        mail.body, mail.body_type = "", ""
        mail.rejected = f"the text of the mail could not be read ({type(exc).__name__})"
    return mail


# ---------------------------------------------------------------------------------------------
# headers


def _peek_headers(raw: bytes, mail: MailText) -> None:
    """Read only the header block of a mail that is refused, so that the refusal can be answered."""
    head = raw[:_HEADER_PEEK]
    cut = re.search(rb"\r?\n\r?\n", head)
    try:
        head = _shorten_headers(head[: cut.end()] if cut else head)[0]
        _read_headers(BytesParser(policy=policy.default).parsebytes(head, headersonly=True), mail)
    except Exception:
        pass


_TOP_HEADER = re.compile(rb"^[^ \t\r\n][^\n]*\n?(?:[ \t][^\n]*\n?)*", re.MULTILINE)
_CONTENT_HEADER = re.compile(rb"^content-[a-z-]*[ \t]*:[^\n]*\n?(?:[ \t][^\n]*\n?)*", re.MULTILINE | re.IGNORECASE)
_BOUNDARY_LINE = re.compile(rb"^--", re.MULTILINE)


def _shorten_headers(raw: bytes) -> tuple[bytes, list[str]]:
    """Cut over-long headers in the raw mail (see _STRUCTURE_CAP), before the parser sees them.

    Every header of the mail's own header block is cut to _HEADER_CAP bytes; every ``Content-*``
    header anywhere (the parts' headers) to _STRUCTURE_CAP. Returns the new bytes and the names cut.
    """
    cut: list[str] = []

    def shorten(cap: int) -> Callable[[re.Match[bytes]], bytes]:
        def one(m: re.Match[bytes]) -> bytes:
            text = m.group(0)
            if len(text) <= cap:
                return text
            cut.append(text.split(b":", 1)[0].decode("ascii", "replace").strip())
            return text[:cap].rstrip(b"\r\n") + b"\r\n"
        return one

    end = re.search(rb"\r?\n\r?\n", raw)
    head, body = (raw[: end.end()], raw[end.end():]) if end else (raw, b"")
    head = _TOP_HEADER.sub(shorten(_HEADER_CAP), head)
    head = _CONTENT_HEADER.sub(shorten(_STRUCTURE_CAP), head)
    body = _CONTENT_HEADER.sub(shorten(_STRUCTURE_CAP), body)
    return head + body, cut


def _header_values(msg: Message, name: str) -> list[str]:
    try:
        values = msg.get_all(name) or []
        return [_one_line(str(v)) for v in values]
    except Exception:
        pass
    try:   # the structured parse failed: fall back to the raw text of the header
        return [_one_line(str(v)) for k, v in msg.raw_items() if k.lower() == name.lower()]
    except Exception:
        return []


_ADDRESS = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+")


def _one_line(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip()


def _addresses(msg: Message, name: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    try:
        for header in msg.get_all(name) or []:
            for addr in getattr(header, "addresses", ()):
                if addr.addr_spec and "@" in addr.addr_spec:
                    out.append((str(addr.display_name or ""), addr.addr_spec))
        if out:
            return out
    except Exception:
        pass
    values = _header_values(msg, name)
    try:
        return [(n, a) for n, a in getaddresses(values) if "@" in a]
    except Exception:   # both parsers recurse on nested comments; a plain pattern does not
        return [("", a) for v in values for a in _ADDRESS.findall(v)]


def _read_headers(msg: Message, mail: MailText) -> None:
    froms = [str(v) for k, v in msg.raw_items() if k.lower() == "from"]
    mail.sender = sender_address(froms[0]) if len(froms) == 1 else None   # one reader of From everywhere
    if mail.sender is not None:
        frm = _addresses(msg, "From")
        mail.sender_name = frm[0][0] if frm else ""
    mail.subject = (_header_values(msg, "Subject") or [""])[0]
    ids = _header_values(msg, "Message-ID")
    mail.message_id = ids[0] if ids and ids[0] else None
    irt = _header_values(msg, "In-Reply-To")
    mail.in_reply_to = irt[0] if irt and irt[0] else None
    mail.references = tuple(" ".join(_header_values(msg, "References")).split())
    reply = _addresses(msg, "Reply-To")
    mail.reply_to = reply[0][1].strip().lower() if reply else None
    recipients: list[str] = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        for _, addr in _addresses(msg, name):
            if addr.lower() not in recipients:
                recipients.append(addr.strip().lower())
    mail.recipients = tuple(recipients)
    mail.loop_headers = {h: tuple(vals) for h in LOOP_HEADERS if (vals := _header_values(msg, h))}


# ---------------------------------------------------------------------------------------------
# loop and bounce protection


def loop_reason(mail: MailText, loop_id: str | None = None) -> str | None:
    """Why this mail must not be answered (an automatic reply, a bounce, a list, our own), or None.

    ``loop_id`` is the value our outgoing mail carries in ``X-Loop`` (e.g. the referee's address).
    """
    h = mail.loop_headers
    for value in h.get("auto-submitted", ()):
        token = value.split(";")[0].strip().lower()
        if token and token != "no":
            return f"automatic mail (Auto-Submitted: {value[:60]})"
    for value in h.get("precedence", ()):
        if value.strip().lower() in ("bulk", "junk", "list"):
            return f"bulk or list mail (Precedence: {value[:60]})"
    if h.get("list-id"):
        return "mailing-list mail (List-Id)"
    if h.get("x-autoreply") or h.get("x-autorespond"):
        return "automatic reply (X-Autoreply)"
    if h.get(GAME_HEADER.lower()):
        return f"mail from a referee ({GAME_HEADER})"
    if loop_id and any(v.strip().lower() == loop_id.strip().lower() for v in h.get("x-loop", ())):
        return "our own mail came back (X-Loop)"
    sender = (mail.sender or "").lower()
    if sender.split("@")[0] in _DAEMONS:
        return f"bounce or system mail (from {sender})"
    if any(v.strip() == "<>" for v in h.get("return-path", ())):
        return "bounce (empty Return-Path)"
    if any(v.lower().startswith("multipart/report") for v in h.get("content-type", ())):
        return "delivery report (multipart/report)"
    return None


def outgoing_headers(loop_id: str, *, game: str | None = None, reply: bool = True) -> dict[str, str]:
    """Headers every mail the referee sends must carry, so that robots and autoresponders stay quiet.

    ``reply``: an answer to a player's mail (``auto-replied``) or a mail of our own, such as the turn
    mail (``auto-generated``). ``game`` adds our game header (which :func:`loop_reason` refuses).
    """
    headers = {
        "Auto-Submitted": "auto-replied" if reply else "auto-generated",
        "X-Loop": loop_id,
        "X-Auto-Response-Suppress": "All",
    }
    if game:
        headers[GAME_HEADER] = game
    return headers
