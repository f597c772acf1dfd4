"""One reading of a reply: its parts, each knowing where it came from, and the reading rules stated once.

A player's mail is new text (what she wrote) and quotes. A quote is of a mail the referee sent, or of
anything else. The referee's mails are known by their own markers (every answer's first line
``[referee answer ... - not orders, do not send back]``, the comment line in an echo's block, the
first words of an answer), by the mail replied to (In-Reply-To, which the intake looks up and hands
in as :class:`Replied`), and by content (a BEGIN ... END order form)::

    NEW        the player's own lines
    TURN_MAIL  a turn mail, start mail or reminder: its order form is there to be filled in
    ECHO       an "orders accepted" answer: what was on file when it was sent
    ERROR      a "could not be used" answer: the errors and a template
    ANSWER     any other answer of ours (HELP, STATUS, PREVIEW, HINT, notices)
    OTHER      a quote of anything else

The reading rules (docs/orders.md has them as a table for players):

1. The new text always wins: when it holds orders, no quote is read.
2. An echo or an answer is never orders, however filled its block is.
3. A quoted order form counts only if the player changed it (compared with the form as sent when the
   mail replied to is known, else: a free register filled in) and it comes from a turn mail (or from an
   error answer's template, when the change can be proved against the template as sent); whether it
   belongs to the current turn is checked on its BEGIN line like any other (a changed form of an
   earlier turn is refused as stale, an unchanged one is never read).
4. Exactly one such form, or none is read.

Pure: no database, no clock. :mod:`.extract` uses it for its rule 6; the intake builds :class:`Replied`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from .reply_shapes import attribution_at, header_block_at, is_original_marker

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_SPACES = re.compile(r"[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_BEGIN = re.compile(r"^BEGIN\s+(?!GM\b)\S+\s+\S.*?\s+TURN\s*\d{1,6}\b.*$|^BEGIN\s*$", re.IGNORECASE)
_END = re.compile(r"^END\s*[.!]?$", re.IGNORECASE)
#: the first line of every answer of the referee (:func:`referee.intake.loops.marker_line`)
ANSWER_MARKER = re.compile(r"\[referee answer [0-9a-f]{12}\b[^\]]*\]", re.IGNORECASE)
#: the comment line in an echo's block (:data:`ECHO_MARK`), and in an error answer's template
ECHO_MARK = "# as on file when this was sent: a quoted copy is never read"
TEMPLATE_MARK = "# a template: fill it in and send it back unquoted"
_ECHO_LINE = re.compile(r"^#\s*as on file\b", re.IGNORECASE)
_TEMPLATE_LINE = re.compile(r"^#\s*a template\b", re.IGNORECASE)
_ECHO_WORDS = re.compile(r"^(?:Orders accepted for|Your orders for .* are already on file|Second hand dealt)",
                         re.IGNORECASE)
#: the first line of an answer of ours that carries a block, unquoted at the start of a line: our text pasted back
ANSWER_START = re.compile(r"^[ \t]*(?:Orders accepted for \S.*\.|Your orders for \S.* (?:are already on file: "
                          r"nothing changed|could not be used)\.)[ \t]*$", re.MULTILINE)
_ERROR_WORDS = re.compile(r"^(?:Your orders for .* could not be used|Your mail could not be read)", re.IGNORECASE)
_FILLED_REGISTER = re.compile(r"^[1-5A-E]\s*[:.)]\s*(?![1-5A-E]\s*[:.)])(?!\(?(?:locked|fused)\)?\s*$)"
                              r"(?!\S+\s+\S+\s+\((?:locked|fused)\))\S", re.IGNORECASE)


class Origin(StrEnum):
    NEW = "new"
    TURN_MAIL = "turn_mail"
    ECHO = "echo"
    ERROR = "error"
    ANSWER = "answer"
    OTHER = "other"


#: what an outgoing mail's kind (``OutgoingMail.kind``) is, as a quote of it
KIND_ORIGIN: dict[str, Origin] = {
    "turn_report": Origin.TURN_MAIL, "turn_start": Origin.TURN_MAIL, "reminder": Origin.TURN_MAIL,
    "echo": Origin.ECHO, "echo_copy": Origin.ECHO, "rejection": Origin.ERROR, "answer": Origin.ANSWER,
    "digest": Origin.ANSWER, "announcement": Origin.ANSWER, "notice": Origin.ANSWER,
}
#: a quote of these may hold a form the player fills in
FORM_ORIGINS = (Origin.TURN_MAIL, Origin.ERROR)


@dataclass(frozen=True)
class Replied:
    """The referee's mail a reply answers (found by its In-Reply-To): what it was, and its text."""

    origin: Origin
    text: str = ""

    @classmethod
    def of_kind(cls, kind: str, text: str = "") -> Replied:
        return cls(KIND_ORIGIN.get(kind, Origin.ANSWER), text)

    def form(self) -> str | None:
        """The order form in the mail as sent, as comparable lines (None: it had none)."""
        lines = [clean(x) for x in self.text.replace("\r\n", "\n").split("\n")]
        begin = next((i for i, x in enumerate(lines) if _BEGIN.match(x)), None)
        if begin is None:
            return None
        end = next((i for i in range(begin + 1, len(lines)) if _END.match(lines[i])), len(lines))
        return _comparable(lines[begin:end + 1])


@dataclass(frozen=True)
class Part:
    """A run of lines of one origin: ``first`` to ``last`` (0-based indexes into the mail's lines)."""

    origin: Origin
    first: int
    last: int
    #: quote depth (0: the player's own text)
    depth: int


@dataclass(frozen=True)
class QuotedForm:
    """A BEGIN ... END block found in quoted text."""

    begin: int
    #: the END line (None: the quote ended first)
    end: int | None
    origin: Origin
    changed: bool

    @property
    def readable(self) -> bool:
        """Rule 2 and 3: a form of a turn mail (or a proved change of an error answer's template)."""
        return self.changed and self.origin in FORM_ORIGINS


@dataclass
class Reply:
    """A reply parsed into its parts."""

    parts: list[Part] = field(default_factory=list)
    forms: list[QuotedForm] = field(default_factory=list)

    def origin_of(self, index: int) -> Origin:
        for part in self.parts:
            if part.first <= index <= part.last:
                return part.origin
        return Origin.NEW

    def form_to_read(self) -> QuotedForm | None:
        """Rule 4: the one quoted form to read, or None."""
        readable = [f for f in self.forms if f.readable]
        return readable[0] if len(readable) == 1 else None

    @property
    def filled_form_quoted(self) -> bool:
        """A form of ours, filled in, is quoted (for the hint "copy it without the > marks")."""
        return any(f.readable for f in self.forms)

    def quoted_origins(self) -> set[Origin]:
        return {p.origin for p in self.parts if p.depth > 0}


def clean(line: str) -> str:
    return _SPACES.sub(" ", line.translate(_INVISIBLE)).strip()


def depth_of(line: str) -> int:
    """How deep a (cleaned) line is quoted: ``> > x`` and ``>> x`` are 2."""
    m = re.match(r"^[>\s]*", line)
    return m.group(0).count(">") if m else 0


def unquote(line: str) -> str:
    return clean(re.sub(r"^[\s>]+", "", clean(line)))


def _comparable(lines: list[str]) -> str:
    """Form lines as compared: spaces, line breaks and case do not matter (so ``1:`` = ``1: ``, and a
    form whose lines a format=flowed reply joined is the form as sent)."""
    return "".join("".join(unquote(y).upper().split()) for y in lines)


def _content_origin(texts: list[str]) -> Origin | None:
    """What a quote is by its own words: our answers' markers and first lines, an echo's comment line."""
    marked = any(ANSWER_MARKER.search(t) for t in texts)
    if any(_ECHO_LINE.match(t) for t in texts) or (marked and any(_ECHO_WORDS.match(t) for t in texts)):
        return Origin.ECHO
    if any(_TEMPLATE_LINE.match(t) for t in texts) or (marked and any(_ERROR_WORDS.match(t) for t in texts)):
        return Origin.ERROR
    if marked:
        return Origin.ANSWER
    return None


def parse_reply(lines: list[str], replied: Replied | None = None) -> Reply:
    """Split a mail's lines (:func:`referee.orders.extract.body_lines`) into parts and find the quoted forms.

    A part is a run of quoted lines of one depth between attributions (so a reply to an echo that
    quotes the player's own earlier mail one level deeper is two parts); blank lines inside a quote
    belong to it. The first quote at depth 1 is the mail replied to: without markers of its own it
    takes the origin of ``replied``."""
    cl = [clean(x) for x in lines]
    bare = [unquote(x) for x in cl]
    depth = [depth_of(x) if x.startswith(">") else 0 for x in cl]
    # runs of (depth, indexes): blank lines continue the run they are in
    runs: list[tuple[int, list[int]]] = []
    current: tuple[int, list[int]] | None = None
    for i, d in enumerate(depth):
        text = bare[i] if d else cl[i]
        if d == 0 and not cl[i] and current is not None and current[0] > 0:
            current[1].append(i)
            continue
        boundary = d > 0 and (is_original_marker(text) or attribution_at(bare, i, len(cl)) is not None
                              or header_block_at(bare, i))
        if current is None or current[0] != d or boundary:
            current = (d, [i])
            runs.append(current)
        else:
            current[1].append(i)
    reply = Reply()
    first_quote = True
    for d, idx in runs:
        if d == 0:
            reply.parts.append(Part(Origin.NEW, idx[0], idx[-1], 0))
            continue
        texts = [unquote(cl[i]) for i in idx]
        origin = _content_origin(texts)
        if origin is None and first_quote and d == 1 and replied is not None:
            origin = replied.origin
        if origin is None:
            origin = Origin.TURN_MAIL if any(_BEGIN.match(t) for t in texts) else Origin.OTHER
        if d == 1:
            first_quote = False
        reply.parts.append(Part(origin, idx[0], idx[-1], d))
        reply.forms.extend(_forms(idx, texts, origin, replied if d == 1 else None))
    return reply


def _forms(idx: list[int], texts: list[str], origin: Origin, replied: Replied | None) -> list[QuotedForm]:
    """The BEGIN ... END blocks of one quoted part, each judged changed or not."""
    sent = replied.form() if replied is not None and replied.origin == origin else None
    out: list[QuotedForm] = []
    k = 0
    while k < len(texts):
        if not _BEGIN.match(texts[k]):
            k += 1
            continue
        end = next((j for j in range(k + 1, len(texts)) if _END.match(texts[j])), None)
        body = texts[k:(end + 1 if end is not None else len(texts))]
        if sent is not None:
            mine = _comparable(body)
            changed = (not sent.startswith(mine)) if end is None else mine != sent
        elif origin == Origin.TURN_MAIL:
            changed = any(_FILLED_REGISTER.match(t) for t in body)
        else:
            changed = False   # an error answer's template: only a change proved against it as sent
        out.append(QuotedForm(idx[k], idx[end] if end is not None else None, origin, changed))
        k = end + 1 if end is not None else len(texts)
    return out
