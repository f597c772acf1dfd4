"""The order language: a player's program and standing orders, read from plain text.

``parse_orders(text, context)`` reads the lines of one mail (or of its BEGIN ... END block) and
returns an :class:`OrderResult`. It never raises: anything it cannot use becomes an
:class:`OrderError` that names the line. The language is case-insensitive; docs/orders.md is the
player's guide. The choices made here:

* A card is ``FWD2 670`` / ``Move-2 P670`` (type and priority), a priority alone (``670`` or
  ``P670``), a hand position (``3``: the third card of the hand as mailed; hands hold at most nine
  cards, priorities start at 10, so a number is never both), or a type alone (``FWD1``), which takes
  that type's cards in hand order, in register order, after the exactly named cards are placed.
* Registers are either numbered (``1: FWD2 670``, ``a) Move-2 P670``, ``register 3: 4``, several
  on a line) or listed in order, on one line or several (``FWD2 670, FWD1 500, 3, 1, 7``); the two
  may not be mixed. A list fills the free registers in order, or all five when it has five cards
  (locked ones must then repeat the locked card). Locked registers fill themselves; ``5: locked``
  may be written. ``1 FWD2 670`` alone on a line is register 1 (but ``1 670`` and ``1 3`` are two
  cards). Commas always separate cards; ``LF90 40`` is one (wrong) card, not two.
* A mail with any error changes nothing; the reply lists every error at once.
* Outside a BEGIN block, a line that does not read as a program (fewer than half its words name
  cards: :func:`reads_as_program`) and is not led by an order word is prose and is skipped, but
  reported back in ``ignored``: a signature ``A.``, "2 more flags to go.", a phone number. Prose that
  mentions an order word (``I might reboot``) is an error rather than a guess. Inside a block every
  line must be an order (``#`` starts a comment).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import BY_PRIORITY, Card, CardError, CardType, card_type, parse_card
from referee.engine.option_orders import BY_SUBJECT, CONDITIONAL, DUAL_PROCESSOR, FLYWHEEL, RECOMPILE
from referee.engine.programs import ProgramError, check_program

from . import options as opt
from .element_clauses import read_element_clause

#: the weapon every robot has; option weapons come from the robot's option cards
MAIN_LASER = "main laser"
#: the option-sacrifice threshold when the player says nothing (turn report rules)
DEFAULT_SACRIFICE_HP = 6
#: longer lines are refused without being read (a pasted blob is not an order)
MAX_LINE = 400
#: a mail with more non-blank lines to read than this is refused (orders take a few dozen)
MAX_LINES = 500
#: at most this many errors are listed; the rest are counted
MAX_ERRORS = 25
COMMANDS = ("help", "status", "cards")
DIRECTIONS = {"N": 0, "NORTH": 0, "E": 1, "EAST": 1, "S": 2, "SOUTH": 2, "W": 3, "WEST": 3}
DIRECTION_NAMES = ("N", "E", "S", "W")


@dataclass(frozen=True)
class OrderContext:
    """What the parser must know about the robot: the hand as mailed, locked registers, options."""

    hand: Sequence[Card] = ()
    #: register number (1-5) -> the card fused there
    locked: Mapping[int, Card] = field(default_factory=dict)
    #: names of the robot's option cards (weapons among them may be named in FIRE orders)
    options: Sequence[str] = ()

    @property
    def free_registers(self) -> list[int]:
        return [r for r in range(1, 6) if r not in self.locked]


@dataclass(frozen=True)
class OrderError:
    line: int | None   # 1-based line of the mail text, None when the error is about the whole program
    text: str          # the line as written (shortened when long)
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line is not None else self.message


@dataclass(frozen=True)
class Register:
    number: int
    card: Card
    locked: bool = False
    line: int | None = None   # where the player gave it (None: filled in automatically)


@dataclass
class StandingOrders:
    """Orders besides the program. ``None`` (or an empty dict) means "not said in this mail"."""

    #: True: power down (reboot) next turn; False: do not (cancels an earlier REBOOT)
    power_down: bool | None = None
    #: HP from which an option is given up instead of a hit; 0 means never
    sacrifice_at: int | None = None
    #: "repair" or "option" on a two-wrench site
    two_wrenches: str | None = None
    #: facing 0-3 (N, E, S, W) when the robot re-enters
    reenter_facing: int | None = None
    #: register -> weapon to fire in that register phase
    fire: dict[int, str] = field(default_factory=dict)
    #: option cards' standing orders: subject -> answer (see :mod:`referee.engine.option_orders`)
    options: dict[str, Any] = field(default_factory=dict)

    def merged(self, newer: StandingOrders) -> StandingOrders:
        """These orders with everything ``newer`` says on top (a new set of FIRE orders replaces the old)."""
        return StandingOrders(
            power_down=self.power_down if newer.power_down is None else newer.power_down,
            sacrifice_at=self.sacrifice_at if newer.sacrifice_at is None else newer.sacrifice_at,
            two_wrenches=self.two_wrenches if newer.two_wrenches is None else newer.two_wrenches,
            reenter_facing=self.reenter_facing if newer.reenter_facing is None else newer.reenter_facing,
            fire=dict(newer.fire) if newer.fire else dict(self.fire),
            options=opt.merge(self.options, newer.options),
        )

    def is_empty(self) -> bool:
        return self == StandingOrders()

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: only what was said (``fire`` keys become strings)."""
        out: dict[str, object] = {k: v for k, v in (("power_down", self.power_down),
                                                     ("sacrifice_at", self.sacrifice_at),
                                                     ("two_wrenches", self.two_wrenches),
                                                     ("reenter_facing", self.reenter_facing)) if v is not None}
        if self.fire:
            out["fire"] = {str(r): w for r, w in sorted(self.fire.items())}
        if self.options:
            out["options"] = dict(self.options)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> StandingOrders:
        """The inverse of :meth:`to_dict`; values of the wrong kind are left out rather than trusted."""
        data = data or {}
        out = cls()
        if isinstance(data.get("power_down"), bool):
            out.power_down = bool(data["power_down"])
        value = data.get("sacrifice_at")
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10:
            out.sacrifice_at = value
        if data.get("two_wrenches") in ("repair", "option"):
            out.two_wrenches = str(data["two_wrenches"])
        value = data.get("reenter_facing")
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
            out.reenter_facing = value
        fire = data.get("fire")
        if isinstance(fire, Mapping):
            out.fire = {int(r): str(w) for r, w in fire.items() if str(r) in ("1", "2", "3", "4", "5")}
        options = data.get("options")
        if isinstance(options, Mapping):
            out.options = {str(k): v for k, v in options.items() if k in BY_SUBJECT}
        return out


@dataclass
class OrderResult:
    #: the five effective registers when the mail gave a complete, valid program; else None
    registers: list[Register] | None = None
    standing: StandingOrders = field(default_factory=StandingOrders)
    #: "help", "status", "cards", in the order asked, each once
    commands: list[str] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    #: lines skipped as prose (outside a BEGIN block only): (line, text)
    ignored: list[tuple[int, str]] = field(default_factory=list)
    #: register -> card for every register that was understood, even when the program has errors
    #: (what a corrected template is pre-filled with); locked registers are always in it
    draft: dict[int, Card] = field(default_factory=dict)
    #: whether the mail tried to give a program at all
    program_given: bool = False
    #: option orders for this turn only: subject -> answer, or -> {"<register>": answer}
    option_orders: dict[str, Any] = field(default_factory=dict)

    @property
    def recompile(self) -> bool:
        """Whether the mail asks for a second hand (Recompile)."""
        return bool(self.option_orders.get(RECOMPILE))

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def program(self) -> list[Card] | None:
        return [r.card for r in self.registers] if self.registers else None


# ---------------------------------------------------------------------------------------------
# card references


@dataclass(frozen=True)
class _Ref:
    """One card as written: exactly (type and priority), by priority, by hand position, or by type."""

    line: int
    text: str
    card: Card | None = None         # exact or by priority
    position: int | None = None      # 1-based hand position
    ctype: CardType | None = None    # type alone


class _Bad(Exception):
    """A line that cannot be read; the message is for the player."""


_NUMBER = re.compile(r"#?(\d{1,6})")
_PRIORITY = re.compile(r"P(\d{1,6})")
_GLUED_TAIL = re.compile(r"[-:/]?P?(\d{2,3})")
_TOKEN_SPLIT = re.compile(r"[\s|/()\[\]{}+]+")
_HARD_SPLIT = re.compile(r"[,;&]|\bAND\b|\bTHEN\b")


def _type_of(word: str) -> CardType | None:
    try:
        return card_type(word)
    except CardError:
        return None


def _exact(ctype: CardType, priority: int, line: int, text: str) -> _Ref:
    try:
        card = parse_card(f"{ctype.code} {priority}")
    except CardError:
        others = BY_PRIORITY.get(priority)
        hint = f"; {priority} is {others}" if others else ""
        raise _Bad(f"there is no {ctype.code} card with priority {priority}{hint}") from None
    return _Ref(line, text, card=card)


def _scan_cards(text: str, line: int) -> list[_Ref]:
    """The cards written in ``text``, in order. Raises _Bad for a word that is not a card.

    Commas, semicolons, "and" and "then" always separate cards; within one stretch a type followed
    by a priority is one card (``LF90 90``), so ``LF90 40`` is an error rather than two cards.
    """
    refs: list[_Ref] = []
    for chunk in _HARD_SPLIT.split(text.upper()):
        refs.extend(_scan_chunk(chunk, line))
    return refs


def _scan_chunk(text: str, line: int) -> list[_Ref]:
    tokens = [t.strip(".:!?'\"") for t in _TOKEN_SPLIT.split(text)]
    tokens = [t for t in tokens if t.strip("-")]
    refs: list[_Ref] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        m = _NUMBER.fullmatch(tok) or _PRIORITY.fullmatch(tok)
        if m:
            value = int(m.group(1))
            if tok.startswith("P") or value >= 10:
                card = BY_PRIORITY.get(value)
                if card is None:
                    raise _Bad(f"there is no card with priority {value}")
                refs.append(_Ref(line, tok, card=card))
            else:
                refs.append(_Ref(line, tok, position=value))
            i += 1
            continue
        ctype = None
        if i + 1 < len(tokens):
            ctype = _type_of(f"{tok} {tokens[i + 1]}")
            if ctype is not None:
                word = f"{tok} {tokens[i + 1]}"
                i += 2
        if ctype is None:
            ctype = _type_of(tok)
            word = tok
            i += 1
        if ctype is None:
            for cut in range(1, len(tok)):
                glued_type = _type_of(tok[:cut])
                tail = _GLUED_TAIL.fullmatch(tok[cut:])
                if glued_type is not None and tail:
                    refs.append(_exact(glued_type, int(tail.group(1)), line, tok))
                    break
            else:
                raise _Bad(f"{_short(tok, 30)!r} is not a card (a card is written like FWD2 670, Move-2 P670, "
                           f"a hand position like 3, or a type alone like FWD1)")
            continue
        if i < len(tokens):
            m = _PRIORITY.fullmatch(tokens[i]) or _NUMBER.fullmatch(tokens[i])
            if m and not tokens[i].startswith("#") and (tokens[i].startswith("P") or int(m.group(1)) >= 10):
                refs.append(_exact(ctype, int(m.group(1)), line, f"{word} {tokens[i]}"))
                i += 1
                continue
        refs.append(_Ref(line, word, ctype=ctype))
    return refs


def _is_cardish(text: str) -> bool:
    """Whether a line starts with a card (a number, a type, or a type glued to its priority)."""
    words = text.upper().split()
    if len(words) > 1 and _type_of(f"{words[0]} {words[1]}".strip(".:,;!?()")) is not None:
        return True   # MOVE 2, U TURN, BACK UP
    word = re.split(r"[,;]", words[0].strip(".:,;!?()"))[0] if words else ""  # "1,2,3,4,5" starts with 1
    if _NUMBER.fullmatch(word) or _PRIORITY.fullmatch(word):
        return True
    if _type_of(word) is not None:
        return True
    return any(_type_of(word[:k]) is not None and _GLUED_TAIL.fullmatch(word[k:]) for k in range(1, len(word)))


def _cardlike(token: str) -> bool:
    """A word that names a card, or nearly: a hand position, a priority, a type, a type glued to a number."""
    if not token:
        return False
    m = _NUMBER.fullmatch(token)
    if m:
        value = int(m.group(1))
        return 1 <= value <= 9 or value in BY_PRIORITY
    if _PRIORITY.fullmatch(token) or _type_of(token) is not None:
        return True
    return any(_type_of(token[:k]) is not None and re.fullmatch(r"[-:/]?P?\d{1,4}", token[k:])
               for k in range(1, len(token)))


_FILLER = {"AND", "THEN", "LOCKED", "FUSED", "(LOCKED)", "REGISTER", "REG", "PHASE", "MY", "PROGRAM", "ORDERS",
           "ORDER", "CARDS"}
_LEADING_LABEL = re.compile(r"^[1-5A-E](?:[:.)=]|\s*-\s)\s*|^[1-5A-E]\s+(?=\S+\s*\S)")
_INITIAL = re.compile(r"^[A-Z]\s*[.:)]?$")


def reads_as_program(text: str) -> bool:
    """Whether a line (normalized, upper case) reads as a program, if a broken one: at least half its
    words name cards (or nearly). Outside a BEGIN block other lines are prose, skipped and listed (a
    signature "A. Miller", "2 more flags to go.", a phone number, an address), so one stray line never
    sinks a mail."""
    text = _LEADING_LABEL.sub("", text.strip())
    words = [w.strip(".:!?'\"()[]{}=") for w in re.split(r"[\s,;]+", text)]
    words = [w for w in words if w.strip("-") and w not in _FILLER]
    if not words:
        return False
    cards = i = 0
    while i < len(words):
        if i + 1 < len(words) and _type_of(f"{words[i]} {words[i + 1]}") is not None:   # U TURN, MOVE 2
            cards, i = cards + 2, i + 2
            continue
        cards += _cardlike(words[i])
        i += 1
    return cards * 2 >= len(words)


# ---------------------------------------------------------------------------------------------
# line patterns (matched against the normalized, upper-cased line)

_COMMENT = re.compile(r"#(?!\d).*$")
_BULLET = re.compile(r"^(?:[*•·‣◦]+|-(?=\s))\s*")
_PUNCT_ONLY = re.compile(r"^[\W_]*$")
_POWER = re.compile(r"^(?:REBOOT|POWER[\s-]*DOWN)(?:\s+(?:FOR\s+)?(?:THE\s+)?NEXT\s+TURN)?$")
_NO_POWER = re.compile(r"^(?:NO|DON'?T|DO\s+NOT|CANCEL(?:\s+THE)?)\s+(?:REBOOT|POWER[\s-]*DOWN)"
                       r"(?:\s+(?:FOR\s+)?(?:THE\s+)?NEXT\s+TURN)?$")
_SACRIFICE = re.compile(r"^SACRIFICE(?:\s+(?:AN?\s+)?OPTIONS?)?(?:\s+(?:AT|FROM|BELOW))?\s*[:=]?\s*"
                        r"(?:HP\s*)?(\d{1,3}|NEVER)(?:\s*HP)?$")
_NEVER_SACRIFICE = re.compile(r"^(?:NEVER|NO|DON'?T|DO\s+NOT)\s+SACRIFICE(?:\s+(?:AN?\s+)?OPTIONS?)?$")
_WRENCH = re.compile(r"^(?:ON\s+(?:A\s+)?)?(?:TWO|2|DOUBLE)[\s-]*WRENCH(?:ES)?(?:\s+SITES?)?\s*[:=-]?\s*"
                     r"(REPAIRS?|OPTIONS?)$")
_REENTER = re.compile(r"^RE-?ENT(?:ER|RY)(?:\s+FACING)?\s*[:=]?\s*([A-Z]+)$")
_FIRE = re.compile(r"^FIRE\b\s*(?:IN\s+)?(?:(?:REGISTERS?|REGS?|PHASES?)\s*)?"
                   r"(ALL|(?:[1-5A-E](?:\s*-\s*[1-5A-E])?)(?:\s*[, ]\s*(?:AND\s+)?[1-5A-E](?:\s*-\s*[1-5A-E])?)*)?\b"
                   r"\s*[:=]?\s*(?:(?:WITH|USING)\s+)?(.*)$")
_LABEL = re.compile(r"^(?:(?:REGISTER|REG|PHASE)\s*)?([1-5A-E])\s*(?:[:.)=]|-(?=\s))\s*(.*)$")
_KEYWORD_LABEL = re.compile(r"^(?:REGISTER|REG|PHASE)\s*([1-5A-E])\s*-?\s*(.*)$")
_BARE_LABEL = re.compile(r"^([1-5A-E])\s+(.+)$")
_NEXT_LABEL = re.compile(r"(?<!REGISTER)(?<!REG)(?<!PHASE)(?:\s*[,;]\s*|\s+)"
                         r"(?=(?:(?:REGISTER|REG|PHASE)\s*)?[1-5A-E]\s*[:.)=]\s)")
_PREFIX = re.compile(r"^(?:MY\s+)?(?:PROGRAM|ORDERS?|CARDS|REGISTERS)\s*[:=-]\s*(\S.*)$")
_LOCK_MARK = re.compile(r"\s*\(?\b(?:LOCKED|FUSED)\b\)?\s*$")
_MENTIONS = re.compile(r"\b(?:REBOOT|POWER[\s-]*DOWN|SACRIFICE|WRENCH(?:ES)?|RE-?ENTER|RE-?ENTRY|FIRE)\b")
_COMMAND = re.compile(r"^(?:PLEASE\s+)?(HELP|STATUS|CARDS|PREVIEW|HINT)S?(?:\s+PLEASE)?$")
_ORDER_WORDS = ("REBOOT", "POWERDOWN", "POWER-DOWN", "SACRIFICE", "REENTER", "RE-ENTER", "REENTRY",
                "RE-ENTRY", "FIRE", "BEGIN", "CANCEL")
_ORDER_PAIRS = {("NO", "REBOOT"), ("NO", "POWER"), ("NO", "POWERDOWN"), ("POWER", "DOWN"), ("ON", "TWO"),
                ("ON", "2"), ("ON", "DOUBLE"), ("TWO", "WRENCHES"), ("2", "WRENCHES"), ("DOUBLE", "WRENCH"),
                ("NEVER", "SACRIFICE"), ("DON'T", "REBOOT")}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_SPACES = re.compile(r"[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_DASHES = re.compile(r"[\u2010-\u2015\u2212]")


_OPTION_PROBLEM = re.compile(r"^the (Flywheel|Conditional Program|Dual Processor in register (\d))")


def _reg_number(label: str) -> int:
    return int(label) if label.isdigit() else "ABCDE".index(label) + 1


def normalize_line(raw: str) -> str:
    """A line as the parser sees it: comments, bullets, odd spaces and dashes removed, upper case."""
    text = raw.translate(_INVISIBLE)
    text = _DASHES.sub("-", text)
    text = _SPACES.sub(" ", text).strip()
    text = text.replace("\u2019", "'")
    text = _COMMENT.sub("", text).strip()
    text = _BULLET.sub("", text.upper()).strip()
    return text


def _short(text: str, width: int = 80) -> str:
    text = text.strip()
    return text if len(text) <= width else text[: width - 3] + "..."


# ---------------------------------------------------------------------------------------------
# the parser


class _Parser:
    def __init__(self, ctx: OrderContext, strict: bool) -> None:
        self.ctx = ctx
        self.strict = strict
        self.result = OrderResult()
        self.labeled: dict[int, tuple[list[_Ref], int, str]] = {}   # register -> (refs, line, text)
        self.listed: list[_Ref] = []
        self.list_lines: list[tuple[int, str]] = []
        self.said: dict[str, tuple[object, int, str]] = {}          # standing order -> (value, line, text)
        self.fire_all: tuple[str, int, str] | None = None
        self.fire_regs: dict[int, tuple[str, int, str]] = {}
        self.failed_regs: set[int] = set()      # registers of the current line that could not be read
        self.unreadable_regs: set[int] = set()  # registers whose line was an error (not also "missing")
        self.failed_list = False
        self.unreadable_list = False            # a line of listed cards was an error
        #: (subject, register or None, standing) -> (answer, line, text) for option orders
        self.option_said: dict[tuple[str, int | None, bool], tuple[Any, int, str]] = {}
        self.checked = False   # the program (with the cards put on options) went through check_program

    def error(self, line: int | None, text: str, message: str) -> None:
        self.result.errors.append(OrderError(line, _short(text), message))

    # one line --------------------------------------------------------------------------------
    def line(self, number: int, raw: str) -> None:
        self.failed_regs = set()
        self.failed_list = False
        if len(raw) > MAX_LINE:
            self.error(number, raw, f"this line is too long to be an order ({len(raw)} characters)")
            return
        text = normalize_line(raw)
        if not text or _PUNCT_ONLY.match(text):
            return
        try:
            self.read(number, raw, text)
        except _Bad as exc:
            self.error(number, raw, str(exc))
        self.unreadable_regs |= self.failed_regs
        self.unreadable_list |= self.failed_list

    def read(self, number: int, raw: str, text: str) -> None:
        bare = text.rstrip(".!?").strip()
        m = _COMMAND.match(bare)
        if m:
            if m.group(1).lower() not in self.result.commands:
                self.result.commands.append(m.group(1).lower())
            return
        words = text.split()
        first = words[0]
        pair = (first, words[1] if len(words) > 1 else "")
        if bare == "END":
            return
        if first == "BEGIN":
            raise _Bad("a BEGIN line reads BEGIN <game> <robot> TURN <n>, optionally followed by KEY <key>, "
                       "e.g. BEGIN RR-7 Twonky TURN 4 KEY 8f3k2q")
        if self.option_clause(number, raw, text):
            return
        if _POWER.match(text):
            self.standing(number, raw, "power_down", True)
            return
        if _NO_POWER.match(text):
            self.standing(number, raw, "power_down", False)
            return
        if bare == "CANCEL":
            raise _Bad("CANCEL what? To call off a power down write NO REBOOT")
        m = _SACRIFICE.match(text)
        if m:
            value = 0 if m.group(1) == "NEVER" else int(m.group(1))
            if not 0 <= value <= 10:
                raise _Bad(f"HP {value} is out of range: write SACRIFICE AT HP 1 to 10, or SACRIFICE NEVER")
            self.standing(number, raw, "sacrifice_at", value)
            return
        if _NEVER_SACRIFICE.match(text):
            self.standing(number, raw, "sacrifice_at", 0)
            return
        m = _WRENCH.match(text)
        if m:
            self.standing(number, raw, "two_wrenches", "repair" if m.group(1).startswith("REPAIR") else "option")
            return
        m = _REENTER.match(text)
        if m:
            facing = DIRECTIONS.get(m.group(1))
            if facing is None:
                raise _Bad(f"{_short(m.group(1), 20)!r} is not a facing: write REENTER FACING N, E, S or W")
            self.standing(number, raw, "reenter_facing", facing)
            return
        if first == "FIRE":
            self.fire(number, raw, text)
            return
        if first in _ORDER_WORDS or pair in _ORDER_PAIRS:
            raise _Bad(self.hint(first, pair))
        if not self.strict and _INITIAL.match(text):
            self.result.ignored.append((number, _short(raw)))   # "A." under a mail is a name, not register a
            return
        try:
            if self.program_line(number, raw, text):
                return
        except _Bad:
            if self.strict or reads_as_program(text):
                raise
            self.failed_regs.clear()   # read as prose after all ("2 more flags to go.", "A. Miller")
            self.failed_list = False
        if first in ("REGISTER", "REG", "PHASE"):
            raise _Bad(self.hint(first, pair))
        if self.strict or reads_as_program(text):
            raise _Bad("I could not read this line as an order (write HELP for the order language)")
        m = _MENTIONS.search(text)
        if m:
            raise _Bad(f"this line mentions {m.group(0)} but is not an order; write the order on a line of its own "
                       "(write HELP for the order language)")
        self.result.ignored.append((number, _short(raw)))

    def program_line(self, number: int, raw: str, text: str) -> bool:
        """Read a register line or a line of listed cards; False when the line is neither."""
        m = _PREFIX.match(text)
        if m:
            text = m.group(1)
        if _LABEL.match(text) or _KEYWORD_LABEL.match(text):
            # "1: FWD2 670, 2: FWD1 500": several numbered registers on one line
            for part in _NEXT_LABEL.split(text):
                m = _LABEL.match(part) or _KEYWORD_LABEL.match(part)
                if m is None:
                    raise _Bad(f"{_short(part, 30)!r} is not a register (write 1: FWD2 670)")
                self.label(number, raw, _reg_number(m.group(1)), m.group(2))
            return True
        m = _BARE_LABEL.match(text)
        if m and self.bare_label(number, raw, m.group(1), m.group(2)):
            return True
        if not _is_cardish(text):
            return False
        try:
            refs = _scan_cards(text, number)
        except _Bad:
            self.failed_list = True
            raise
        self.listed.extend(refs)
        self.list_lines.append((number, raw))
        return True

    @staticmethod
    def hint(first: str, pair: tuple[str, str]) -> str:
        if first in ("REBOOT", "POWERDOWN", "POWER-DOWN", "CANCEL") or pair in {("POWER", "DOWN"), ("NO", "REBOOT"),
                                                                                ("NO", "POWER"), ("DON'T", "REBOOT"),
                                                                                ("NO", "POWERDOWN")}:
            return "write REBOOT (or POWER DOWN) to power down next turn, NO REBOOT to call it off"
        if first == "SACRIFICE" or pair == ("NEVER", "SACRIFICE"):
            return "write SACRIFICE AT HP 6 (any HP from 1 to 10) or SACRIFICE NEVER"
        if first in ("REENTER", "RE-ENTER", "REENTRY", "RE-ENTRY"):
            return "write REENTER FACING N (or E, S, W)"
        if first in ("REGISTER", "REG", "PHASE"):
            return "write a register as 1: FWD2 670 (registers 1-5, or phases a-e)"
        return "write ON TWO WRENCHES: REPAIR or ON TWO WRENCHES: OPTION"

    def standing(self, number: int, raw: str, key: str, value: object) -> None:
        before = self.said.get(key)
        if before is not None and before[0] != value:
            self.error(number, raw, f"this contradicts line {before[1]} ({_short(before[2], 40)!r})")
            return
        if before is None:
            self.said[key] = (value, number, raw)
            setattr(self.result.standing, key, value)

    # option orders ---------------------------------------------------------------------------
    def option_clause(self, number: int, raw: str, text: str) -> bool:
        """Read an option card's order (:mod:`.options`); False when the line is none."""
        try:
            clause = opt.read_clause(text, self.ctx.options, self.ctx.hand) or read_element_clause(text)
        except opt.OptionBad as exc:
            raise _Bad(str(exc)) from None
        if clause is None:
            return False
        answers = clause.registers if clause.registers is not None else {None: clause.value}
        for reg, value in answers.items():
            key = (clause.subject, reg, clause.standing)
            before = self.option_said.get(key)
            if before is not None and before[0] != value:
                raise _Bad(f"this contradicts line {before[1]} ({_short(before[2], 40)!r})")
            self.option_said[key] = (value, number, raw)
        return True

    def option_said_cards(self, subject: str) -> list[tuple[int, str]]:
        """(register, card) for each register an option taking a card from the hand was given for."""
        out = []
        for (said, reg, _), (value, _, _) in sorted(self.option_said.items(), key=lambda kv: kv[1][1]):
            if said == subject and reg is not None:
                out.append((reg, value["card"] if isinstance(value, Mapping) else str(value)))
        return out

    def option_results(self) -> None:
        """Put the option orders read into the result; check the cards they take from the hand."""
        res = self.result
        program = set(res.draft.values()) if res.program_given else set()
        taken: dict[str, int] = {}
        for (subject, reg, standing), (value, number, raw) in self.option_said.items():
            target = res.standing.options if standing else res.option_orders
            if reg is None:
                target[subject] = value
            else:
                target.setdefault(subject, {})[str(reg)] = value
            if subject in (CONDITIONAL, DUAL_PROCESSOR, FLYWHEEL) and not self.checked:   # else check_program's
                card = value["card"] if isinstance(value, Mapping) else value
                if card in taken:
                    self.error(number, raw, f"{card} is already taken by line {taken[card]}")
                elif any(str(c) == card for c in program):
                    self.error(number, raw, f"{card} is in your program; {BY_SUBJECT[subject].card} takes an "
                                            "unused card from the hand")
                taken[card] = number
            if subject == CONDITIONAL and len(self.option_said_cards(CONDITIONAL)) > 1 \
                    and reg != self.option_said_cards(CONDITIONAL)[0][0]:
                self.error(number, raw, "Conditional Program holds one card, for one register: line "
                                        f"{min(n for (s, _, _), (_, n, _) in self.option_said.items() if s == subject)}"
                                        " already names it")
            if subject == DUAL_PROCESSOR and reg in res.draft and res.program_given and not self.checked:
                problem = opt.dual_problem(res.draft[reg], str(value))
                if problem:
                    self.error(number, raw, problem)
            if subject == RECOMPILE and res.program_given:
                self.error(number, raw, "RECOMPILE deals you a new hand, so a program cannot go with it: send "
                                        "RECOMPILE alone, then your program for the new hand")

    # fire orders -----------------------------------------------------------------------------
    def weapon(self, name: str) -> str:
        key = re.sub(r"[\s_-]+", " ", name).strip().upper()
        if key in ("LASER", "MAIN LASER", "MAIN", "MAIN GUN"):
            return MAIN_LASER
        for option in self.ctx.options:
            if re.sub(r"[\s_-]+", " ", option).strip().upper() == key:
                return option
        named = opt.weapon_named(name, self.ctx.options)
        if named is not None:
            return named
        has = ", ".join([MAIN_LASER, *self.ctx.options])
        raise _Bad(f"your robot has no weapon called {_short(name.lower(), 40)!r} (it has: {has})")

    def fire(self, number: int, raw: str, text: str) -> None:
        m = _FIRE.match(text)
        weapon_text = (m.group(2) if m else "").strip()
        if not m or not weapon_text:
            raise _Bad("FIRE orders read FIRE <registers>: <weapon>, e.g. FIRE 1-5: MAIN LASER or FIRE 3: LASER")
        weapon = self.weapon(weapon_text)
        regs_text = m.group(1)
        if regs_text is None or regs_text == "ALL":
            if self.fire_all is not None and self.fire_all[0] != weapon:
                raise _Bad(f"this contradicts line {self.fire_all[1]} ({_short(self.fire_all[2], 40)!r})")
            self.fire_all = (weapon, number, raw)
            return
        regs: list[int] = []
        regs_text = re.sub(r"\s*-\s*", "-", regs_text)
        for part in re.split(r"\s*(?:,|\s|AND)\s*", regs_text):
            if not part:
                continue
            ends = [s.strip() for s in part.split("-")]
            lo, hi = _reg_number(ends[0]), _reg_number(ends[-1])
            if lo > hi:
                raise _Bad(f"register range {part} runs backwards")
            regs.extend(range(lo, hi + 1))
        for reg in regs:
            before = self.fire_regs.get(reg)
            if before is not None and before[0] != weapon:
                raise _Bad(f"register {reg} already fires {before[0]} (line {before[1]})")
            self.fire_regs[reg] = (weapon, number, raw)

    # registers -------------------------------------------------------------------------------
    def label(self, number: int, raw: str, reg: int, rest: str) -> None:
        try:
            self._label(number, raw, reg, rest)
        except _Bad:
            self.failed_regs.add(reg)
            raise

    def _label(self, number: int, raw: str, reg: int, rest: str) -> None:
        lock_ack = bool(_LOCK_MARK.search(rest))
        rest = _LOCK_MARK.sub("", rest).strip()
        if reg in self.labeled:
            raise _Bad(f"register {reg} is already given on line {self.labeled[reg][1]}")
        refs = _scan_cards(rest, number) if rest else []
        if len(refs) > 1:
            raise _Bad(f"register {reg} can hold only one card; this line names {len(refs)}")
        if lock_ack and reg not in self.ctx.locked:
            raise _Bad(f"register {reg} is not locked")
        self.labeled[reg] = (refs, number, raw)

    def bare_label(self, number: int, raw: str, label: str, rest: str) -> bool:
        """``1 FWD2 670`` or ``a 3``: a register label without a separator, when the rest is one card."""
        if _HARD_SPLIT.search(rest):
            return False
        try:
            refs = _scan_cards(_LOCK_MARK.sub("", rest), number)
        except _Bad:
            return False
        if len(refs) != 1 or (label.isdigit() and re.match(r"#?P?\d", rest)):
            return False   # "1 670" and "1 3" are two cards, not register 1
        self._label(number, raw, _reg_number(label), rest)
        return True

    # the whole program -----------------------------------------------------------------------
    def finish(self) -> OrderResult:
        res = self.result
        fire = {r: self.fire_all[0] for r in range(1, 6)} if self.fire_all else {}
        fire.update({r: w for r, (w, _, _) in self.fire_regs.items()})
        res.standing.fire = dict(sorted(fire.items()))
        ctx = self.ctx
        res.draft = dict(ctx.locked)
        try:
            return self.program()
        finally:
            self.option_results()

    def program(self) -> OrderResult:
        res, ctx = self.result, self.ctx
        if not self.labeled and not self.listed and not self.unreadable_regs and not self.unreadable_list:
            return res
        res.program_given = True
        if not ctx.hand and ctx.free_registers:
            firsts = self.list_lines[:1] + sorted((v[1], v[2]) for v in self.labeled.values())[:1]
            line, raw = min(firsts) if firsts else (None, "")
            self.error(line, raw, "you have no cards in hand this turn, so there is no program to send")
            return res
        if self.labeled and self.listed:
            first_label = min(line for _, line, _ in self.labeled.values())
            line, raw = self.list_lines[0]
            self.error(line, raw, f"line {first_label} numbers its register but this line does not: "
                                  "number every register or list all the cards in order")
            self.draft_only({reg: refs[0] for reg, (refs, _, _) in self.labeled.items() if refs})
            return res
        slots: dict[int, _Ref] = {}
        if self.unreadable_list and not self.labeled:
            return res   # a line of cards was an error: the count and the places of the rest mean nothing
        if self.labeled or self.unreadable_regs:
            for reg, (refs, line, raw) in sorted(self.labeled.items()):
                if refs:
                    slots[reg] = refs[0]
                elif reg not in ctx.locked:
                    self.error(line, raw, f"register {reg} has no card")
            missing = [r for r in ctx.free_registers if r not in self.labeled and r not in self.unreadable_regs]
            if missing:
                self.error(None, "", f"{_regs_phrase(missing)} {'is' if len(missing) == 1 else 'are'} missing "
                                     f"(this program needs {_regs_phrase(ctx.free_registers)})")
        else:
            free = ctx.free_registers
            if len(self.listed) == len(free):
                slots = dict(zip(free, self.listed, strict=True))
            elif len(self.listed) == 5:
                slots = dict(zip(range(1, 6), self.listed, strict=True))
            else:
                need = len(free)
                where = self.listed[need] if len(self.listed) > need else self.listed[-1]
                raw = next(r for n, r in self.list_lines if n == where.line)
                locked = f"; {_regs_phrase(sorted(ctx.locked))} locked" if ctx.locked else ""
                self.error(where.line, raw, f"you listed {len(self.listed)} card{'s' if len(self.listed) != 1 else ''}"
                                            f"; this program needs {need} ({_regs_phrase(free)}{locked})")
                self.draft_only(dict(zip(free, self.listed, strict=False)))
                return res
        self.resolve(slots)
        if not res.errors:
            self.check(slots)
        if not res.errors:
            res.registers = [Register(r, res.draft[r], r in ctx.locked,
                                      slots[r].line if r in slots else None) for r in range(1, 6)]
        return res

    def check(self, slots: dict[int, _Ref]) -> None:
        """The engine's program rules (``engine.programs.check_program``) have the last word: the lines read
        above name the card and line; whatever those rules still refuse is reported at its register's line."""
        ctx, res = self.ctx, self.result
        said = {subject: value for (subject, _, standing), (value, _, _) in self.option_said.items() if not standing}
        conditional = self.option_said_cards(CONDITIONAL)
        try:
            check_program("your robot", ctx.hand, ctx.locked, [res.draft.get(r) for r in range(1, 6)],
                          flywheel=said.get(FLYWHEEL), conditional=conditional[0][1] if conditional else None,
                          dual={reg: card for reg, card in self.option_said_cards(DUAL_PROCESSOR)})
        except ProgramError as exc:
            for problem in exc.problems:
                option = _OPTION_PROBLEM.match(problem)
                if option:   # a card put on an option: reported at the option's line
                    subject = {"Flywheel": FLYWHEEL, "Conditional Program": CONDITIONAL}.get(option.group(1),
                                                                                          DUAL_PROCESSOR)
                    reg = int(option.group(2)) if option.group(2) else None
                    _, line, raw = next((v for (said, r, _), v in self.option_said.items()
                                         if said == subject and (reg is None or r == reg)), (None, None, ""))
                    self.error(line, raw, problem)
                    continue
                m = re.match(r"register (\d)", problem)
                ref = slots.get(int(m.group(1))) if m else None
                raw = next((r for _, line, r in self.labeled.values() if ref and line == ref.line),
                           next((r for n, r in self.list_lines if ref and n == ref.line), ""))
                self.error(ref.line if ref else None, raw, problem)
        self.checked = True

    def draft_only(self, slots: dict[int, _Ref]) -> None:
        """Put what was understood into the draft (for the reply's template) without reporting more errors."""
        errors = list(self.result.errors)
        try:
            self.resolve(slots)
        finally:
            self.result.errors = errors

    def resolve(self, slots: dict[int, _Ref]) -> None:
        ctx, res = self.ctx, self.result
        hand = list(ctx.hand)
        used: dict[Card, tuple[int, _Ref]] = {}

        def raw_of(ref: _Ref) -> str:
            for _, line, raw in self.labeled.values():
                if line == ref.line:
                    return raw
            return next((r for n, r in self.list_lines if n == ref.line), ref.text)

        def place(reg: int, ref: _Ref, card: Card) -> None:
            if reg in ctx.locked:
                if card != ctx.locked[reg]:
                    self.error(ref.line, raw_of(ref), f"register {reg} is locked with {ctx.locked[reg]}; "
                                                      "a locked register cannot be changed")
                return
            if card not in hand:
                self.error(ref.line, raw_of(ref), f"{card} is not in your hand ({_hand_phrase(hand)})")
                return
            if card in used:
                other_reg, other = used[card]
                where = f" (line {other.line})" if other.line != ref.line else ""
                self.error(ref.line, raw_of(ref), f"{card} is used twice: it is already in register {other_reg}{where}")
                return
            used[card] = (reg, ref)
            res.draft[reg] = card

        for reg, ref in sorted(slots.items()):
            if ref.card is not None:
                place(reg, ref, ref.card)
            elif ref.position is not None:
                if not 1 <= ref.position <= len(hand):
                    self.error(ref.line, raw_of(ref), f"there is no card number {ref.position} in your hand "
                                                      f"(it holds {len(hand)})")
                    continue
                place(reg, ref, hand[ref.position - 1])
        for reg, ref in sorted(slots.items()):
            if ref.ctype is None:
                continue
            if reg in ctx.locked:
                if ctx.locked[reg].type is not ref.ctype:
                    self.error(ref.line, raw_of(ref), f"register {reg} is locked with {ctx.locked[reg]}; "
                                                      "a locked register cannot be changed")
                continue
            card = next((c for c in hand if c.type is ref.ctype and c not in used), None)
            if card is None:
                taken = [f"{c} is in register {used[c][0]}" for c in hand if c.type is ref.ctype and c in used]
                self.error(ref.line, raw_of(ref), f"no {ref.ctype.code} card is left for register {reg} "
                                                  f"({'; '.join(taken) if taken else 'your hand has none'})")
                continue
            place(reg, ref, card)


def _regs_phrase(regs: Sequence[int]) -> str:
    if not regs:
        return "no registers"
    if len(regs) == 1:
        return f"register {regs[0]}"
    if list(regs) == list(range(regs[0], regs[-1] + 1)):
        return f"registers {regs[0]}-{regs[-1]}"
    return "registers " + ", ".join(map(str, regs[:-1])) + f" and {regs[-1]}"


def _hand_phrase(hand: Sequence[Card]) -> str:
    if not hand:
        return "your hand is empty"
    return "your hand: " + ", ".join(str(c) for c in hand)


def parse_orders(text: str | Sequence[tuple[int, str]], context: OrderContext | None = None, *,
                 strict: bool = False) -> OrderResult:
    """Read orders from ``text`` (a string, or ``(line number, line)`` pairs from :mod:`.extract`).

    ``strict``: every non-blank line must be an order (used inside a BEGIN ... END block).
    Never raises.
    """
    ctx = context or OrderContext()
    try:
        if isinstance(text, str):
            lines = list(enumerate(text.splitlines(), start=1))
        else:
            lines = [(int(n), str(t)) for n, t in text]
    except Exception:   # a caller passing something odd still gets an answer
        return OrderResult(errors=[OrderError(None, "", "the orders could not be read as text")])
    parser = _Parser(ctx, strict)
    filled = [(n, t) for n, t in lines if t.strip()]
    if len(filled) > MAX_LINES:
        return OrderResult(errors=[OrderError(filled[MAX_LINES][0], filled[MAX_LINES][1][:80],
                                              f"this mail has {len(filled)} lines to read; orders take far fewer, "
                                              f"so it was not read (at most {MAX_LINES})")])
    for number, raw in lines:
        try:
            parser.line(number, raw)
        except Exception as exc:   # a safety net: a parser bug must not lose the mail
            parser.error(number, raw, f"the referee could not read this line (internal error: {type(exc).__name__})")
    try:
        result = parser.finish()
    except Exception as exc:
        result = parser.result
        result.registers = None
        parser.error(None, "", f"the referee could not assemble the program (internal error: {type(exc).__name__})")
    if len(result.errors) > MAX_ERRORS:
        extra = len(result.errors) - MAX_ERRORS
        result.errors = [*result.errors[:MAX_ERRORS], OrderError(None, "", f"... and {extra} more errors")]
    if result.errors:
        result.registers = None
    return result


def facing_name(facing: int) -> str:
    return DIRECTION_NAMES[facing % 4]
