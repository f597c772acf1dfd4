"""Finding the orders in a mail body: the BEGIN ... END block, or the player's own (unquoted) text.

The BEGIN line names the game, the robot and the turn, and may carry the player's key::

    BEGIN RR-7 Twonky turn 4 key 8f3k2q
    1: FWD2 670
    ...
    END

Words are case-insensitive; the robot's name may contain spaces (``BEGIN RR-7 Hulk X90 turn 4``);
``KEY`` and the key are optional (the key may also ride on the reply address, see issue 4). A bare
``BEGIN`` line starts a block that names nothing.

What is read (documented for players in docs/orders.md):

1. Everything from an Outlook-style original on (``-----Original Message-----``, a ``From:`` /
   ``Sent:`` header block, ``Begin forwarded message:``) is never read: those clients paste the
   original unquoted, and the original is our own turn mail.
2. Quoted lines (starting with ``>``) are never read, not even inside a block, and a BEGIN line that
   is quoted does not start a block: a reply that quotes the turn mail (with its template block)
   must not count as orders. The reply to such a mail explains how to send the block unquoted.
3. Attribution lines (``On ... wrote:``, ``Am ... schrieb ...:``, also wrapped over two or three
   lines) are dropped. When the text right after an attribution is not quoted, the client pasted
   the original without quoting it, so everything from there on is dropped; otherwise unquoted text
   after the quote (a bottom-posted or inline reply) is still the player's.
4. If exactly one unquoted BEGIN line remains, only its block is read, up to the next unquoted
   ``END`` line (without one: up to the next quote, attribution, signature or the end, with a note).
   Two or more BEGIN lines are an error: the mail is ambiguous.
5. Without a block, the remaining unquoted lines are read, less signatures (from a ``-- `` line, or
   a "Sent from my iPhone" line, to the next quote or the end).
6. The one exception to 2 (issue 18, ruled by :mod:`.reply_model` since issue 30): with ``quoted_form``,
   a mail without an unquoted BEGIN line has the one quoted order form read that the reply model
   allows: a turn mail's form the player changed (an echo or an answer quoted is never orders; an
   error answer's template only when the change is proved against it as sent, ``replied``). The
   caller asks for it only when the mail came to the player's reply address or the quoted BEGIN line
   carries the player's key, and :func:`referee.orders.read_orders` drops it when the new text holds
   orders of its own (the new text always wins).

The shapes of attributions, pasted originals and "sent from" lines in the languages of the common
clients are in :mod:`.reply_shapes`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..common.keys import same_key
from .language import OrderError
from .reply_model import Replied, Reply, parse_reply
from .reply_shapes import attribution_at, header_block_at, is_original_marker, is_sent_from

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_SPACES = re.compile(r"[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+")

BEGIN_RE = re.compile(r"^BEGIN(?:\s+(?P<game>\S+)\s+(?P<robot>\S.*?)\s+TURN\s*(?P<turn>\d{1,6})"
                      r"(?:\s+KEY\s*[:=]?\s*(?P<key>\S+))?)?\s*$", re.IGNORECASE)
END_RE = re.compile(r"^END\s*[.!]?$", re.IGNORECASE)
#: a GM command block's first line (matched against a :func:`clean` line, so never a quoted one)
GM_BEGIN_RE = re.compile(r"^BEGIN\s+GM\b(?P<rest>.*)$", re.IGNORECASE)
_SIGNATURE = re.compile(r"^--\s*$")


@dataclass(frozen=True)
class BlockHeader:
    """What a BEGIN line says (``None`` for what it leaves out)."""

    game: str | None
    robot: str | None
    turn: int | None
    key: str | None
    line: int

    def render(self) -> str:
        return begin_line(self.game, self.robot, self.turn, self.key)


@dataclass
class Extracted:
    #: (line number in the body, line) for the parser
    lines: list[tuple[int, str]] = field(default_factory=list)
    #: the BEGIN line read, when the orders came in a block
    header: BlockHeader | None = None
    #: a BEGIN block with registers filled in appeared, but only in quoted text (so it was not read)
    quoted_block: bool = False
    #: with a block: the player's own lines outside it (not read, but checked for stray orders)
    outside: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)

    #: the block read was the order form filled in within the quoted text (rule 6)
    from_quote: bool = False

    @property
    def in_block(self) -> bool:
        return self.header is not None


def begin_line(game: str | None, robot: str | None, turn: int | None, key: str | None = None) -> str:
    """The BEGIN line for a template: ``BEGIN RR-7 Twonky turn 4 key 8f3k2q``."""
    if game is None or robot is None or turn is None:
        return "BEGIN"
    return f"BEGIN {game} {robot} turn {turn}" + (f" key {key}" if key else "")


def clean(line: str) -> str:
    return _SPACES.sub(" ", line.translate(_INVISIBLE)).strip()


def body_lines(text: str) -> list[str]:
    """The lines of a mail body, whatever its line ends (CRLF, CR, LF)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@dataclass(frozen=True)
class GmHeader:
    """What a ``BEGIN GM`` line says: the game and the key (``None`` for what it leaves out)."""

    #: 0-based index of the line in :func:`body_lines`
    index: int
    game: str | None
    key: str | None


def find_gm_begin(text: str) -> GmHeader | None:
    """The first unquoted ``BEGIN GM`` line of a mail body, read as every BEGIN line is: invisible
    characters and odd spaces (a mail converted from HTML) do not matter, nor leading spaces or case;
    quoted lines (``>``) never count. ``KEY <key>`` may stand anywhere after GM; the first other word
    is the game. The one finder of GM blocks: the intake (is this a GM mail?) and
    :mod:`referee.gm.language` (the block itself) both use it."""
    for index, raw in enumerate(body_lines(text)):
        line = clean(raw)
        m = GM_BEGIN_RE.match(line)
        if m is None:
            continue
        words = m.group("rest").split()
        game = key = None
        j = 0
        while j < len(words):
            if words[j].lower() == "key" and j + 1 < len(words):
                key = words[j + 1]
                j += 2
                continue
            if game is None:
                game = words[j]
            j += 1
        return GmHeader(index, game, key)
    return None


def _unquote(line: str) -> str:
    return clean(re.sub(r"^[\s>]+", "", clean(line)))


def _original_start(cl: list[str]) -> int:
    """Index of the first line of an unquoted pasted original (Outlook style), or len(cl)."""
    for i, line in enumerate(cl):
        if is_original_marker(line) or header_block_at(cl, i):
            return i
    return len(cl)


def _attributions(cl: list[str], stop: int) -> list[tuple[int, int]]:
    """(first, last) indexes of each attribution (``On ... wrote:``) before ``stop``."""
    found: list[tuple[int, int]] = []
    i = 0
    while i < stop:
        last = attribution_at(cl, i, stop)
        if last is None:
            i += 1
            continue
        found.append((i, last))
        i = last + 1
    return found


def _read_quoted_form(out: Extracted, lines: list[str], reply: Reply) -> bool:
    """Rule 6: read the one quoted order form the reading rules allow (:mod:`.reply_model`) into ``out``;
    False when there is none."""
    form = reply.form_to_read()
    if form is None:
        return False
    m = BEGIN_RE.match(_unquote(lines[form.begin]))
    if m is None:
        return False
    turn = m.group("turn")
    out.header = BlockHeader(game=m.group("game"), robot=m.group("robot"), turn=int(turn) if turn else None,
                             key=m.group("key"), line=form.begin + 1)
    stop = form.end if form.end is not None else len(lines)
    out.lines = [(k + 1, _unquote(lines[k])) for k in range(form.begin + 1, stop)
                 if reply.origin_of(k) == form.origin and _unquote(lines[k])]
    out.from_quote = True
    out.notes.append("read the order form you filled in within the quoted turn mail")
    return True


def extract(text: str, *, quoted_form: bool = False, replied: Replied | None = None) -> Extracted:
    """The lines of ``text`` that hold the player's orders (see the module docstring). Never raises.
    ``quoted_form``: rule 6 applies (the caller has checked the reply address or the key); ``replied``:
    the referee's mail this one answers, when the caller knows it (see :mod:`.reply_model`)."""
    out = Extracted()
    try:
        lines = body_lines(text)
    except Exception:
        out.errors.append(OrderError(None, "", "the mail text could not be read"))
        return out
    cl = [clean(x) for x in lines]
    quoted = [x.startswith(">") for x in cl]
    stop = _original_start(cl)
    skip = [False] * len(lines)        # attribution lines and unquoted originals
    for first, last in _attributions(cl, stop):
        for k in range(first, last + 1):
            skip[k] = True
        nxt = next((k for k in range(last + 1, stop) if cl[k]), None)
        if nxt is not None and not quoted[nxt]:
            stop = min(stop, last + 1)
    readable = [i for i in range(stop) if not skip[i] and not quoted[i]]
    begins = [i for i in readable if BEGIN_RE.match(cl[i])]
    reply = parse_reply(lines, replied)
    out.quoted_block = reply.filled_form_quoted

    if len(begins) > 1:
        where = ", ".join(str(i + 1) for i in begins[:5]) + (", ..." if len(begins) > 5 else "")
        out.errors.append(OrderError(begins[1] + 1, cl[begins[1]][:80],
                                     f"this mail has {len(begins)} BEGIN lines (lines {where}); "
                                     "send one BEGIN ... END block per mail"))
        return out
    if not begins and quoted_form and out.quoted_block and _read_quoted_form(out, lines, reply):
        return out
    if begins:
        start = begins[0]
        m = BEGIN_RE.match(cl[start])
        assert m is not None
        turn = m.group("turn")
        out.header = BlockHeader(game=m.group("game"), robot=m.group("robot"),
                                 turn=int(turn) if turn else None, key=m.group("key"), line=start + 1)
        end = next((k for k in readable if k > start and END_RE.match(cl[k])), None)
        closed = end is not None
        if end is None:
            end = next((k for k in range(start + 1, stop)
                        if skip[k] or quoted[k] or _SIGNATURE.match(lines[k].rstrip())), stop)
            out.notes.append(f"the BEGIN block on line {start + 1} has no END line; read it up to line {end}")
        keep = set(readable)
        out.lines = [(k + 1, lines[k]) for k in range(start + 1, end) if k in keep]
        last = end if closed else end - 1
        out.outside = [(k + 1, lines[k]) for k in readable if k < start or k > last]
        return out
    in_signature = False
    for k in range(stop):
        if skip[k] or quoted[k]:
            in_signature = False
            continue
        if _SIGNATURE.match(lines[k].rstrip()) or is_sent_from(cl[k]):
            in_signature = True
            continue
        if not in_signature:
            out.lines.append((k + 1, lines[k]))
    return out


def check_header(header: BlockHeader, *, game: str | None = None, robot: str | None = None,
                 turn: int | None = None, key: str | None = None, require_key: bool = False) -> list[OrderError]:
    """Errors for a BEGIN line that names another game, robot or turn, or carries a wrong key.

    Names and keys compare without regard to case (so issue lowercase keys). Orders for an earlier
    turn are stale; orders for a later one are early. Both are refused.
    """
    errors: list[OrderError] = []
    text = header.render() if header.key is None else begin_line(header.game, header.robot, header.turn, "...")

    def err(message: str) -> None:
        errors.append(OrderError(header.line, text, message))

    if header.game is None:
        if game is not None or robot is not None or turn is not None:
            err("this BEGIN line names no game, robot and turn; write "
                + begin_line(game or "<game>", robot or "<robot>", turn if turn is not None else 0).replace(
                    " turn 0", " turn <n>"))
        return errors
    if game is not None and header.game.casefold() != game.casefold():
        err(f"these orders are for game {header.game}, but this is game {game}")
    if robot is not None and (header.robot or "").casefold() != robot.casefold():
        err(f"these orders are for robot {header.robot}, but your robot is {robot}")
    if turn is not None and header.turn is not None and header.turn != turn:
        if header.turn < turn:
            err(f"these orders are for turn {header.turn}, which is over: turn {turn} is being played "
                "(stale orders are not used)")
        else:
            err(f"these orders are for turn {header.turn}, but turn {turn} is being played")
    if key is not None:
        if header.key is None:
            if require_key:
                err("this BEGIN line has no key: end it with KEY and your key, as in the turn mail")
        elif not same_key(header.key, key, ignore_case=True):
            err("the key on this BEGIN line is not your key")
    return errors
