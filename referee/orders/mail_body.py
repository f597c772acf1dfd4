"""The text of a mail's body (:func:`referee.orders.mailtext.read_mail`'s second half): the text parts, never
an attachment, decoded by its charset (the rules are in :mod:`.mailtext`'s docstring), an HTML-only mail turned
into text, format=flowed undone."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from email.message import EmailMessage, Message
from itertools import islice
from typing import TYPE_CHECKING

import html2text

if TYPE_CHECKING:
    from .mail_fields import MailText


def _is_attachment(part: Message) -> bool:
    try:
        disposition = (part.get_content_disposition() or "").lower()
    except Exception:
        disposition = ""
    return disposition == "attachment"

#: charsets that are codecs in Python but no way to write mail text
NOT_MAIL_CHARSETS = {"unicode_escape", "raw_unicode_escape", "punycode", "idna", "undefined"}
_WESTERN_1BYTE = {"ascii", "latin_1", "iso8859_1", "iso8859_15", "cp1252"}
#: at most this many MIME parts of a mail are looked at
MAX_PARTS = 100


def parts(msg: Message) -> Iterator[Message]:
    """The mail's MIME parts, at most :data:`MAX_PARTS` of them."""
    return islice(msg.walk(), MAX_PARTS)


def _text_parts(msg: Message) -> tuple[list[Message], list[Message], int]:
    """The inline text/plain and text/html parts, in order, and the number of attachments skipped."""
    plain: list[Message] = []
    html: list[Message] = []
    skipped = 0
    for part in parts(msg):
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if ctype == "message/rfc822" or _is_attachment(part) or part.get_filename():
            skipped += 1
            continue
        if ctype == "text/plain":
            plain.append(part)
        elif ctype == "text/html":
            html.append(part)
        elif part is not msg:
            skipped += 1
    return plain, html, skipped


def read_body(msg: EmailMessage, mail: MailText) -> None:
    if msg.get_content_maintype() == "multipart" and not isinstance(msg.get_payload(), list):
        # broken MIME: a multipart without usable parts; read what is there as text
        payload = msg.get_payload()
        data = payload.encode("ascii", "surrogateescape") if isinstance(payload, str) else b""
        mail.body = _plain(_decode(data, msg.get_content_charset(), mail), False, False)
        mail.body_type = "text/plain"
        mail.notes.append("the mail's MIME structure is broken; its raw text was read")
        if not mail.body.strip():
            mail.rejected = "the mail has no text"
        return
    plain, html, skipped = _text_parts(msg)
    if skipped:
        mail.notes.append(f"{skipped} attachment{'s' if skipped != 1 else ''} not read")
    for part in plain:
        text = _part_text(part, mail)
        if text.strip():
            mail.body, mail.body_type = text, "text/plain"
            return
    for part in html:
        text = _plain(_html_text(_decode(_payload(part, mail), part.get_content_charset(), mail)), False, False)
        if text.strip():
            mail.body, mail.body_type = text, "text/html"
            return
    mail.rejected = "the mail has no text (orders must be in the body of the mail, not in an attachment)"


def _payload(part: Message, mail: MailText | None = None) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    damaged = [d for d in getattr(part, "defects", ()) if "Base64" in type(d).__name__]
    if damaged and mail is not None:
        mail.notes.append("the mail's base64 encoding is damaged; its text may be garbled")
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    return raw.encode("ascii", "surrogateescape") if isinstance(raw, str) else b""


def _part_text(part: Message, mail: MailText) -> str:
    text = _decode(_payload(part, mail), part.get_content_charset(), mail)
    try:
        flowed = (part.get_param("format") or "").lower() == "flowed"
        delsp = (part.get_param("delsp") or "").lower() == "yes"
    except Exception:
        flowed = delsp = False
    return _plain(text, flowed, delsp)


def _codec(name: str | None) -> str | None:
    if not name:
        return None
    try:
        info = codecs.lookup(name.strip().strip('"'))
    except (LookupError, ValueError, TypeError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name.replace("-", "_") in NOT_MAIL_CHARSETS:
        return None
    return info.name.replace("-", "_")


def _decode(data: bytes, charset: str | None, mail: MailText) -> str:
    declared = _codec(charset)
    if charset and declared is None:
        mail.notes.append(f"unknown charset {charset[:40]!r}; the text was read as UTF-8 or Windows-1252")
    if declared in _WESTERN_1BYTE and any(b > 0x7F for b in data):
        # Western text is almost never also valid UTF-8 (that takes pairs like "Ã©"), so when it is,
        # the label is wrong; unless the UTF-8 reading holds C1 controls, which no one writes
        try:
            text = data.decode("utf-8")
            if not re.search("[\x80-\x9f]", text):
                mail.notes.append(f"the text is marked {charset} but is UTF-8; it was read as UTF-8")
                return text
        except UnicodeDecodeError:
            pass
    if declared:
        try:
            return data.decode(declared)
        except (UnicodeDecodeError, LookupError, ValueError):
            mail.notes.append(f"the text is not valid {charset}; what could not be read was replaced")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if declared and declared not in _WESTERN_1BYTE and declared != "utf_8":
        try:   # a damaged text in a multi-byte charset: keep what can be read
            return data.decode(declared, errors="replace")
        except (LookupError, ValueError):
            pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _plain(text: str, flowed: bool, delsp: bool) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return _unflow(text, delsp) if flowed else text


_FORM_LABEL = re.compile(r"^\s*[1-5A-E]\s*[:.)]\s*$", re.IGNORECASE)


def _unflow(text: str, delsp: bool) -> str:
    """Join the soft line breaks of format=flowed text (RFC 3676)."""
    out: list[str] = []
    buf: str | None = None
    depth = 0

    def flush() -> None:
        if buf is not None:
            out.append((">" * depth + " " if depth else "") + buf)

    for line in text.split("\n"):
        d = len(line) - len(line.lstrip(">"))
        content = line[d:]
        if content.startswith(" "):
            content = content[1:]
        # an order form's empty register line ("1: ", as forms were written before issue 30) is a line of
        # its own, not a flowed paragraph: joined, the quoted empty form would read as a filled one
        soft = content.endswith(" ") and content != "-- " and not _FORM_LABEL.match(content)
        if soft and delsp:
            content = content[:-1]
        if buf is not None and d == depth:
            buf += content
        else:
            flush()
            buf, depth = content, d
        if not soft:
            flush()
            buf = None
    flush()
    return "\n".join(out)


_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|])")
_TABLE_RULE = re.compile(r"^[\s|:-]*-[\s|:-]*$")


def _html_text(html: str) -> str:
    """Html as plain text: quotes (blockquote) become ``>`` lines, no wrapping, no markup escapes."""
    conv = html2text.HTML2Text()
    conv.body_width = 0
    conv.ignore_images = True
    conv.ignore_emphasis = True
    conv.ignore_links = True
    conv.unicode_snob = True
    try:
        text = conv.handle(html)
    except Exception:   # html2text gave up: keep the words, drop the tags
        text = re.sub(r"<[^>]*>", " ", html)
    lines = []
    for line in text.split("\n"):
        line = _MD_ESCAPE.sub(r"\1", line.rstrip())
        if _TABLE_RULE.match(line) and "|" in line:
            continue
        lines.append(line.replace("|", " ") if "|" in line and not line.lstrip().startswith(">") else line)
    return "\n".join(lines)


def size(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} MB"
    if n >= 1000:
        return f"{n / 1000:.0f} kB"
    return f"{n} bytes"


