"""Building (never sending) a player's turn mail.

The message is::

    multipart/alternative
      text/plain                   the private section and the report, fixed-width
      multipart/related
        text/html                  the same, with <img src="cid:...">
        image/png ...              the pictures and the key to them, inline, by Content-ID; then, in a
                                   player's mail on a wide course, the pictures cut around their robot
        image/gif                  the whole turn animated, inline too (shown at the end of the HTML)

Everything comes in as arguments, and nothing random goes in: the Message-ID, the Content-IDs and the
MIME boundaries are derived from the game, the turn and the recipient, so building the same mail twice
gives the same bytes (an outbox that resends after a crash sends the same message, which clients dedupe).
"""

from __future__ import annotations

import binascii
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.policy import EmailPolicy
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from ..store.wire import share
from .report_types import PrivateSection, TurnReport
from .templates import render_template
from .textgrid import WIDTH


@dataclass(frozen=True, slots=True)
class Picture:
    """An inline picture: ``key`` is what the report calls it (``start``, ``stage1``... ``end``)."""

    key: str
    filename: str
    data: bytes
    subtype: str = "png"


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes
    maintype: str
    subtype: str


_TOKEN = re.compile(r"[^A-Za-z0-9.-]+")


def _token(text: str) -> str:
    return _TOKEN.sub("-", text).strip("-").lower() or "x"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


def message_id(game: str, turn: int, recipient: str, domain: str, kind: str = "turn") -> str:
    """A Message-ID that is the same every time for one game, turn, kind and recipient.

    The address is hashed, not written out, so it does not leak into headers others may see.
    """
    return f"<{_token(game)}.t{turn}.{_token(kind)}.{_digest(game, str(turn), kind, recipient.lower())}@{domain}>"


def content_id(game: str, turn: int, key: str, domain: str) -> str:
    """The Content-ID of one picture of a turn (the same picture in every player's mail)."""
    return f"<{_token(game)}.t{turn}.{_token(key)}@{domain}>"


def _cte(text: str) -> str:
    """7bit for plain ASCII with short lines (readable as it travels), else quoted-printable (never 8bit)."""
    if not text.isascii():
        return "quoted-printable"
    # the lines between "\n"s hold the lines between any line ends (the check splitlines makes) and are cut faster
    if len(text) <= 998 or max(map(len, text.split("\n"))) <= 998:
        return "7bit"
    return "7bit" if max(map(len, text.splitlines()), default=0) <= 998 else "quoted-printable"


class _Registry(HeaderRegistry):
    """The default header registry, but each header name's class is made once, not on every call (the
    stdlib makes a new class each time it is asked, for every header set and every header parsed)."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type] = {}

    def map_to_type(self, name: str, cls: Any) -> None:
        super().map_to_type(name, cls)
        self._classes.clear()

    def __getitem__(self, name: str) -> Any:
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls


class _BuildPolicy(EmailPolicy):
    """The default policy, but a header seen before (the same name and value: the sender, the Date, a
    part's Content-Type, in every mail of a turn) is parsed once; header objects are never changed. Header
    classes come from :class:`_Registry`."""

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if isinstance(value, str) and not hasattr(value, "name"):
            plain = _plain_header(name, value)
            return name, plain if plain is not None else _parsed_header(name, value)
        return super().header_store_parse(name, value)


#: the headers of its own each mail has that the referee writes in one plain form (a Message-ID as
#: :func:`message_id` and :func:`referee.store.msgids.wire_id` make them; a multipart's boundary, an inline
#: picture's file name), which the parser keeps as they are: they are made without it (the cache would not
#: help: each value is new)
_PLAIN = {"message-id": re.compile(r"<[A-Za-z0-9.-]+@[A-Za-z0-9.-]+>"),
          "content-type": re.compile(r'(multipart)/([a-z]+); (boundary)="([A-Za-z0-9._=-]+)"'),
          "content-disposition": re.compile(r'(inline)(); (filename)="([A-Za-z0-9._-]+)"')}


def _plain_header(name: str, value: str) -> Any:
    """The header object the parser would make of ``value``, made without it when ``value`` has the plain form
    of :data:`_PLAIN` and its line fits in 78 characters (so it folds to ``name: value``); else None."""
    key = name.lower()
    form = _PLAIN.get(key)
    found = form.fullmatch(value) if form is not None and len(name) + 2 + len(value) <= 78 else None
    if found is None:
        return None
    header = str.__new__(_PLAIN_CLASSES[key], value)
    header._name, header._parse_tree, header._defects = name, None, []
    if key != "message-id":
        header._params = {found[3]: found[4]}
        if key == "content-type":
            header._maintype, header._subtype = found[1], found[2]
        else:
            header._content_disposition = found[1]
    return header


def _plain_fold(self: Any, *, policy: Any) -> str:
    """How a plain header (:func:`_plain_header`) folds: on one line (the parser's header, longer than the
    policy's lines)."""
    line = f"{self.name}: {self}"
    if policy.max_line_length is not None and len(line) > policy.max_line_length:
        return _parsed_header(self.name, str(self)).fold(policy=policy)  # type: ignore[no-any-return]
    return line + policy.linesep


def _plain_reduce(self: Any) -> tuple[Any, tuple[str, str]]:
    """A plain header copied (``copy.deepcopy``, pickle) is made again as one (the registry's own way would
    make a class of its bases, without :func:`_plain_fold`)."""
    return _plain_header, (self.name, str(self))


#: the classes of plain headers: the registry's kinds of header (the same bases), folding on one line
_PLAIN_CLASSES = {key: type(f"_Plain{key.title().replace('-', '')}", _Registry()[key].__bases__,
                            {"fold": _plain_fold, "__reduce__": _plain_reduce}) for key in _PLAIN}


_BUILD = _BuildPolicy(header_factory=_Registry())


@lru_cache(maxsize=1024)
def _parsed_header(name: str, value: str) -> Any:
    return EmailPolicy.header_store_parse(_BUILD, name, value)[1]


def _base64(data: bytes, line: int) -> str:
    """``data`` in base64 lines as ``email.contentmanager`` writes them (``line // 4 * 3`` bytes a line, each
    line ended by a newline), but encoded in one piece and cut after (the stdlib encodes line by line)."""
    if not data:
        return ""
    width = line // 4 * 4
    text = binascii.b2a_base64(data, newline=False).decode("ascii")
    return "\n".join([text[i:i + width] for i in range(0, len(text), width)]) + "\n"


@lru_cache(maxsize=24)  # a turn's pictures, the key and the GIF, with room to spare; a few MB at most
def _inline_part(cid: str, pic: Picture) -> EmailMessage:
    """The MIME part of an inline picture, as ``add_related`` makes it. Built once for every mail that
    shows the same picture under the same Content-ID (a turn's pictures, in each player's mail), and
    shared between them: it is never changed after (see :func:`referee.store.wire.share`). Its headers are
    set by ``set_content`` (of no bytes: they do not depend on them), its payload by :func:`_base64`."""
    part = EmailMessage(policy=_BUILD)
    part.set_content(b"", "image", pic.subtype, cid=cid, disposition="inline", filename=pic.filename)
    part.set_payload(_base64(pic.data, part.policy.max_line_length or 78))
    share(part)
    return part


def build_message(*, sender: str, recipient: str, subject: str, msg_id: str, text: str, html: str | None = None,
                  inline: Sequence[tuple[str, Picture]] = (), attachments: Sequence[Attachment] = (),
                  headers: Mapping[str, str] | None = None) -> EmailMessage:
    """A multipart message: text, then HTML with ``inline`` pictures as (content id, picture), then attachments.

    ``headers`` are added as given (Date, Reply-To, In-Reply-To, Auto-Submitted, X-Loop...).
    """
    msg = EmailMessage(policy=_BUILD)
    msg["From"] = sender
    msg["To"] = recipient
    msg["Subject"] = subject
    msg["Message-ID"] = msg_id
    for name, value in (headers or {}).items():
        if name.lower() in ("from", "to", "subject", "message-id"):
            raise ValueError(f"header {name} is set from its own argument")
        msg[name] = value
    msg.set_content(text, subtype="plain", charset="utf-8", cte=_cte(text))
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8", cte=_cte(html))
        if inline:
            html_part = list(msg.iter_parts())[-1]  # the part add_alternative added (what get_body finds)
            html_part.make_related()
            for cid, pic in inline:
                html_part.attach(_inline_part(cid, pic))
    for att in attachments:
        msg.add_attachment(att.data, att.maintype, att.subtype, filename=att.filename)
    seed = _digest(msg_id, recipient)
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_{seed}.{i}")
    return msg


def _crop_slot(key: str) -> str:
    """What the shared report has where a reader's piece of picture ``key`` goes (see :func:`for_reader`)."""
    return f"cid:%%crop:{key}%%"


def for_reader(report_html: str, robot: str | None, crop_urls: Mapping[str, str]) -> str:
    """The report's HTML, rendered once for every mail of a turn, made one reader's: their robot's rows
    shaded (``templates/_tables.html`` marks each robot's row) and their pieces of the pictures in the
    slots left for them."""
    if robot is not None:
        row = f'<tr data-robot="{escape(robot)}">'
        report_html = report_html.replace(row, row[:-1] + ' class="mine" style="background:#fff8e0">')
    for key, url in crop_urls.items():
        report_html = report_html.replace(_crop_slot(key), url)
    return report_html


def turn_mail(*, report: TurnReport, pictures: Sequence[Picture], gif: Attachment | None, sender: str,
              recipient: str, subject: str, domain: str, private: PrivateSection | None = None,
              headers: Mapping[str, str] | None = None, kind: str = "turn", width: int = WIDTH,
              notice: str | None = None, legend: Picture | None = None,
              shared: dict[tuple[Any, ...], str] | None = None,
              crops: Mapping[str, Picture] | None = None) -> EmailMessage:
    """One player's turn mail: their private section (if any) and the public report, in text and in HTML.
    ``notice``: a line put above everything (e.g. that this report corrects an earlier one). The GIF is shown
    in the HTML (an inline part, like the pictures) and ``legend``, the key to the pictures, after the stages.
    ``crops``: picture key -> that picture cut around the reader's robot (:mod:`.crops`), shown in its place on
    a narrow screen, the whole picture (when ``pictures`` has it) one tap away, else on every screen.
    ``shared``: a dict kept for the mails of one turn, in which the public report (the same in each) is
    rendered once and reused."""
    crops = dict(crops or {})
    shown = [*pictures, *([legend] if legend is not None else [])]  # in the order the HTML shows them
    files = {p.key: p.filename for p in shown}
    shown += crops.values()  # the reader's own pieces, after the pictures everyone gets
    if gif is not None:
        shown.append(Picture("animation", gif.filename, gif.data, gif.subtype))
        files["animation"] = gif.filename
    cids = {p.key: content_id(report.game, report.turn, p.key, domain) for p in shown}
    urls = {key: f"cid:{cid.strip('<>')}" for key, cid in cids.items()}
    crop_urls = {key: urls[pic.key] for key, pic in crops.items()}
    me = private.robot if private is not None else None
    context = {"report": report, "private": private, "width": width, "image_files": files, "notice": notice}
    image_urls = {key: urls[key] for key in files}
    html_context = {"image_urls": image_urls, "gif_url": urls.get("animation"), "legend_url": urls.get("legend"),
                    "crop_urls": {key: _crop_slot(key) for key in crop_urls}}
    text_key = ("report.txt", id(report), width, tuple(files.items()))
    html_key = ("report.html", id(report), tuple(image_urls.items()), tuple(crop_urls))
    cache = shared if shared is not None else {}
    if text_key not in cache:
        cache[text_key] = render_template("report.txt", report=report, image_files=files, width=width)
    if html_key not in cache:
        cache[html_key] = render_template("report.html", report=report, **html_context)
    report_html = for_reader(cache[html_key], me, crop_urls)
    context |= {"report_text": cache[text_key], "report_html": Markup(report_html)}
    html_context |= {"crop_urls": crop_urls, "me": me}
    text = render_template("mail.txt", **context)
    html = render_template("mail.html", **context, **html_context)
    return build_message(
        sender=sender, recipient=recipient, subject=subject,
        msg_id=message_id(report.game, report.turn, recipient, domain, kind),
        text=text, html=html, inline=[(cids[p.key], p) for p in shown], headers=headers)
