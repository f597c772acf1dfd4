"""Option orders in the order language: one generic reader over the cards' own declarations.

Every option card declares, in its engine module, the words its order is written with and the shape
of its answer (:class:`referee.engine.option_cards.MailOrder`); this module reads any card's order
from those declarations, writes it back (echoes, order forms) and explains it (:func:`usage_lines`).
A clause reads into the shapes of :mod:`referee.engine.option_orders`: an answer for this turn
(``{subject: value}`` or ``{subject: {"<register>": value}}``) or a standing order kept until changed
(the same shape, under ``standing["options"]``). Weapon cards ride the FIRE orders
(:mod:`.clauses.fire`), which ask :func:`weapon_named` and :func:`weapon_order`. docs/orders.md is the
player's guide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.engine.cards import BY_PRIORITY, Card, CardError, parse_card
from referee.engine.decisions import MAIN_LASER
from referee.engine.option_cards import CARDS, OptionCard, cards
from referee.engine.option_orders import BY_SUBJECT, SACRIFICE_ORDER


def card_names() -> tuple[str, ...]:
    """Every registered option card, as the cards are named, in deck order."""
    return tuple(c.name for c in cards())


def card_of_subject() -> dict[str, str]:
    return {o.subject: o.card for o in BY_SUBJECT.values() if o.card != "(any)"}


#: subject -> the card that gives the order
CARD_OF: dict[str, str] = card_of_subject()


class OptionBad(ValueError):
    """A clause that names an option card but cannot be used; the message is for the player."""


def norm(name: str) -> str:
    """A card name compared loosely: case, hyphens, underscores and spacing do not matter."""
    return re.sub(r"[\s_-]+", " ", name).strip().lower()


def card_named(text: str, pool: Iterable[str] | None = None) -> str | None:
    """The card of ``pool`` (every card by default) that ``text`` names: its whole name, or the unique
    card it begins (``PRESSOR`` for Pressor Beam, ``GYRO`` for Gyroscopic Stabilizer)."""
    key = norm(text)
    if not key:
        return None
    pool = list(card_names() if pool is None else pool)
    exact = [c for c in pool if norm(c) == key]
    if exact:
        return exact[0]
    starts = [c for c in pool if norm(c).startswith(key)]
    return starts[0] if len(starts) == 1 else None


def holds(options: Sequence[str], card: str) -> bool:
    """Whether a robot's options (as the engine names them) include ``card``."""
    return any(norm(o) == norm(card) for o in options)


def declared_card(name: str) -> OptionCard | None:
    return next((c for c in CARDS.values() if norm(c.name) == norm(name)), None)


@dataclass(frozen=True)
class OptionClause:
    """One option order as read: for this turn (``standing`` False) or kept until changed."""

    subject: str
    #: None for a turn-wide or standing answer; else register -> answer
    value: Any
    registers: Mapping[int, Any] | None = None
    standing: bool = False

    @property
    def card(self) -> str:
        return card_of_subject().get(self.subject, "(any)")


# the pieces every shape is built from ------------------------------------------------------------
_RANGE = r"[1-5A-E](?:\s*-\s*[1-5A-E])?"
_REGS_NC = r"(?:REGISTERS?|REGS?|PHASES?)?\s*(?:" + _RANGE + r"(?:\s*(?:,|AND|\s)\s*" + _RANGE + r")*)"
_REGS = r"(?:REGISTERS?|REGS?|PHASES?)?\s*(" + _RANGE + r"(?:\s*(?:,|AND|\s)\s*" + _RANGE + r")*)"
_SCOPE = r"(?:\s+(THIS\s+TURN|EVERY\s+TURN|ALWAYS|STANDING|UNTIL\s+CHANGED))?"
_ON_OFF = r"(ON|OFF|YES|NO|TRUE|FALSE|ACTIVE|INACTIVE)"
_SACRIFICE = re.compile(r"^SACRIFICE\s+ORDER\s*[:=]?\s*(.+)$")
_USE = re.compile(r"^USE\s+(?:THE\s+|MY\s+)?(.+)$")
_GROUP_SEP = r"(?:\s*[,;]\s*(?:AND\s+)?|\s+AND\s+|\s+)"
_CONDITION = re.compile(r"^(?:NOT\s+)?(?:FACING\s+[NESW]|AT\s+R\d{1,2}C\d{1,2}|ROBOT\s+AHEAD|WALL\s+AHEAD|"
                        r"DAMAGE\s*>=\s*\d)$")
CONDITIONS = "FACING N (E, S, W), AT r5c4, ROBOT AHEAD, WALL AHEAD or DAMAGE >= 3, each may follow NOT"


def _words(card: OptionCard) -> str:
    """The card's lead words as one pattern, longest first (a space matches spaces, a hyphen or nothing)."""
    assert card.mail is not None
    alts = sorted(card.mail.words, key=len, reverse=True)
    return "(?:" + "|".join(r"[\s-]*".join(re.escape(w) for w in phrase.split()) for phrase in alts) + ")"


def _choices(card: OptionCard) -> str:
    assert card.mail is not None
    words = sorted((w for _, ws in card.mail.choices for w in ws), key=len, reverse=True)
    return "(" + "|".join(re.escape(w) for w in words) + ")"


@cache
def _patterns(name: str) -> dict[str, re.Pattern[str]]:
    """The full-line patterns of a card's order, by the part of the shape they read."""
    card = CARDS[name]
    mail = card.mail
    assert mail is not None
    w = _words(card)
    shape, scope = mail.shape, ("" if mail.keeps == "always standing" else _SCOPE)
    out: dict[str, str] = {}
    if shape == "registers":
        out["registers"] = r"^" + w + r"\s*(?:(?:IN|ON|AT)\s+)?[:=]?\s*" + _REGS + r"$"
    elif shape == "choice":
        choice = _choices(card)
        group = _REGS_NC + r"\s*[:=]?\s*" + choice.replace("(", "(?:", 1)
        out["groups"] = (r"^" + w + r"\s*(?:(?:IN|ON)\s+)?[:=]?\s*(" + group + r"(?:" + _GROUP_SEP + group + r")*)"
                         + (scope if mail.keeps != "turn" else "") + r"$")
        if mail.keeps != "turn":
            out["turn-wide"] = r"^" + w + r"\s*(?:IN\s+)?[:=]?\s*" + choice + scope + r"$"
    elif shape == "register card":
        out["register card"] = r"^" + w + r"\s*(?:IN\s+)?(?:REGISTER\s*)?([1-5A-E])\s*[:=]?\s*(?:WITH\s+)?(.+)$"
    elif shape == "register card if":
        out["register card if"] = (r"^" + w + r"\s*(?:IN\s+)?(?:REGISTER\s*)?([1-5A-E])\s*[:=]?\s*(.+?)"
                                   r"\s+(?:IF|WHEN)\s+(.+)$")
    elif shape == "card":
        out["card"] = r"^" + w + r"\s*[:=]?\s*(?:KEEP\s+)?(.+)$"
        out["keep on"] = r"^KEEP\s+(.+?)\s+ON\s+(?:THE\s+|MY\s+)?" + w + r"$"
    elif shape == "switch":
        out["switch"] = r"^" + w + r"\s*[:=]?\s*" + _ON_OFF + scope + r"$"
    elif shape == "register or never":
        out["register or never"] = (r"^" + w + r"\s*(?:AT\s+|IN\s+)?[:=]?\s*(?:REGISTER\s*)?([1-5A-E]|NEVER|NO|OFF|0)"
                                    + scope + r"$")
    elif shape == "flag":
        out["flag"] = r"^" + w + r"(?:\s+(?:MY\s+)?HAND)?(?:\s+PLEASE)?$"
    elif shape == "weapon":
        out["weapon"] = r"^" + w + r"\s*(?:(?:IN|ON|AT)\s+)?[:=]?\s*(ALL|" + _REGS_NC + r")$"
    return {part: re.compile(p) for part, p in out.items()}


@cache
def _lead(name: str) -> re.Pattern[str]:
    return re.compile(r"^" + _words(CARDS[name]) + r"(?=[:=]*(?:\s|$))")


def ordered_cards() -> list[OptionCard]:
    return [c for c in cards() if c.mail is not None]


def led_by(text: str) -> OptionCard | None:
    """The card whose words start a normalized line (the longest such words win), or None."""
    best: tuple[int, OptionCard] | None = None
    for card in ordered_cards():
        m = _lead(card.name).match(text)
        if m and (best is None or m.end() > best[0]):
            best = (m.end(), card)
    return best[1] if best else None


def _reg(label: str) -> int:
    return int(label) if label.isdigit() else "ABCDE".index(label) + 1


def registers(text: str) -> list[int]:
    """``2, 4``, ``2-4``, ``b and d``: register numbers in order, each once."""
    out: list[int] = []
    text = re.sub(r"^(?:REGISTERS?|REGS?|PHASES?)\s*", "", text.strip())
    for part in re.split(r"\s*(?:,|\bAND\b|\s)\s*", re.sub(r"\s*-\s*", "-", text.strip())):
        if not part:
            continue
        ends = part.split("-")
        lo, hi = _reg(ends[0]), _reg(ends[-1])
        if lo > hi:
            raise OptionBad(f"register range {part} runs backwards")
        out.extend(r for r in range(lo, hi + 1) if r not in out)
    return out


def _switch(word: str) -> bool:
    return word in ("ON", "YES", "TRUE", "ACTIVE")


def _standing_scope(scope: str | None, default: bool) -> bool:
    if scope is None:
        return default
    return not scope.startswith("THIS")


def _card(text: str, hand: Sequence[Card], what: str) -> Card:
    """A card as an option order writes it: type and priority, a priority, or a position in the hand (1-9)."""
    text = text.strip()
    position = re.fullmatch(r"#?([1-9])", text)
    if position and hand:
        n = int(position.group(1))
        if n > len(hand):
            raise OptionBad(f"there is no card number {n} in your hand (it holds {len(hand)})")
        return hand[n - 1]
    try:
        card = parse_card(text)
    except CardError:
        # priorities are unique: "R 80", "U 50", "M2 490" name their card by the number
        m = re.fullmatch(r"(?:[A-Z][A-Z0-9 -]*?)?\s*-?P?(\d{2,3})", text)
        found = BY_PRIORITY.get(int(m.group(1))) if m else None
        if found is None:
            raise OptionBad(f"{text!r} is not a card (write it like RT90 80 or FWD2 670, type and priority, "
                            "or its number in your hand)") from None
        card = found
    if hand and card not in hand:
        raise OptionBad(f"{card} is not in your hand, so it cannot be {what}")
    return card


def _condition(text: str) -> str:
    """A Conditional Program condition in the engine's words (``IF FACING NORTH`` -> ``FACING N``)."""
    c = re.sub(r"\s+", " ", text).strip()
    c = re.sub(r"\bFACING (NORTH|EAST|SOUTH|WEST)\b", lambda m: "FACING " + m.group(1)[0], c)
    c = re.sub(r"\b(WALL|ROBOT) (?:IN FRONT|AHEAD OF (?:ME|IT|MY ROBOT))$", r"\1 AHEAD", c)
    c = re.sub(r"\bA (WALL|ROBOT) AHEAD$", r"\1 AHEAD", c)
    c = re.sub(r"^(NOT )?DAMAGE\s*(?:>=|=>|IS AT LEAST|AT LEAST)\s*(\d+)$", r"\1DAMAGE >= \2", c)
    c = re.sub(r"^(NOT )?DAMAGE\s*(?:>|IS MORE THAN|MORE THAN|ABOVE|OVER)\s*(\d+)$",
               lambda m: f"{m.group(1) or ''}DAMAGE >= {int(m.group(2)) + 1}", c)
    c = re.sub(r"\s*>=\s*", " >= ", c)
    if not _CONDITION.match(c.replace(" >= ", ">=")):
        raise OptionBad(f"{text.strip()!r} is not a condition: write {CONDITIONS}")
    return re.sub(r"AT R(\d+)C(\d+)", r"AT r\1c\2", c)


# reading ---------------------------------------------------------------------------------------
def read_clause(text: str, options: Sequence[str], hand: Sequence[Card] = ()) -> OptionClause | None:
    """The option order a normalized (upper-case) line gives, None when it is no option clause (a weapon's
    line is the FIRE clause's: :func:`weapon_order`).

    Raises :class:`OptionBad` for a clause of a card the robot does not hold, or one that is
    written wrongly (the message says how to write it).
    """
    m = _SACRIFICE.match(text)
    if m:
        return _sacrifice_order(m.group(1), options)
    use = _USE.match(text)
    line = use.group(1) if use else text
    for card in ordered_cards():
        if card.weapon:
            continue
        for part, pattern in _patterns(card.name).items():
            m = pattern.match(line)
            if m is None:
                continue
            if not holds(options, card.name):
                held = ", ".join(options) if options else "none"
                raise OptionBad(f"your robot does not hold {card.name}, so this order cannot be taken "
                                f"(its options: {held})")
            return _build(card, part, m, options, hand)
    led = led_by(line)
    if led is None:
        if text.startswith("SACRIFICE ORDER"):
            raise OptionBad("this option order is not written as the referee reads it: write e.g. "
                            f"{BY_SUBJECT[SACRIFICE_ORDER].clause}")
        return None
    if led.weapon or not holds(options, led.name):
        return None   # a weapon's line is the FIRE clause's; a card not held: prose ("REVERSE" in a sentence)
    assert led.order is not None
    raise OptionBad(f"this {led.name} order is not written as the referee reads it: write e.g. {led.order.clause}")


def _build(card: OptionCard, part: str, m: re.Match[str], options: Sequence[str],
           hand: Sequence[Card]) -> OptionClause:
    mail, order = card.mail, card.order
    assert mail is not None and order is not None
    subject, default_standing = order.subject, mail.keeps != "turn"
    if part == "registers":
        return OptionClause(subject, None, dict.fromkeys(registers(m.group(1)), True))
    if part == "groups":
        scope = m.group(2) if mail.keeps != "turn" else None
        if scope:
            example = next(words[0] for answer, words in mail.choices if answer != order.default)
            raise OptionBad(f"{mail.words[0]} with registers is for this turn only; for every turn leave the "
                            f"registers out: {mail.words[0]}: {example}")
        group = re.compile(_REGS + r"\s*[:=]?\s*" + _choices(card))
        answers: dict[int, Any] = {}
        for g in group.finditer(m.group(1)):
            value = _choice(card, g.group(2))
            for reg in registers(g.group(1)):
                if answers.get(reg, value) != value:
                    raise OptionBad(f"register {reg} is given two answers on this line")
                answers[reg] = value
        return OptionClause(subject, None, answers)
    if part == "turn-wide":
        return OptionClause(subject, _choice(card, m.group(1)), standing=_standing_scope(m.group(2), True))
    if part == "register card":
        taken = _card(m.group(2), hand, "shared with a move card")
        if mail.card_kind == "turn" and (taken.type.move != 0 or taken.type.turn == 0):
            raise OptionBad(f"{card.name} pairs a turn card with a move card: {taken} is not a turn card")
        return OptionClause(subject, None, {_reg(m.group(1)): str(taken)})
    if part == "register card if":
        taken = _card(m.group(2), hand, f"put on {card.name}")
        return OptionClause(subject, None, {_reg(m.group(1)): {"card": str(taken), "if": _condition(m.group(3))}})
    if part in ("card", "keep on"):
        return OptionClause(subject, str(_card(m.group(1), hand, f"kept on {card.name}")))
    if part == "switch":
        standing = True if mail.keeps == "always standing" else _standing_scope(m.group(2), default_standing)
        return OptionClause(subject, _switch(m.group(1)), standing=standing)
    if part == "register or never":
        word = m.group(1)
        value = 0 if word in ("NEVER", "NO", "OFF", "0") else _reg(word)
        return OptionClause(subject, value, standing=_standing_scope(m.group(2), default_standing))
    if part == "flag":
        return OptionClause(subject, True)
    raise OptionBad("unknown option order")   # pragma: no cover - every shape above is handled


def _choice(card: OptionCard, word: str) -> str:
    assert card.mail is not None
    return next(answer for answer, words in card.mail.choices if word in words)


def _sacrifice_order(text: str, options: Sequence[str]) -> OptionClause:
    names = []
    for part in re.split(r"\s*(?:,|;|\bTHEN\b|\bAND\b)\s*", text):
        if not part.strip():
            continue
        name = card_named(part, options) or card_named(part)
        if name is None:
            raise OptionBad(f"{part.strip().lower()!r} is not an option card "
                            "(e.g. SACRIFICE ORDER: BRAKES, SHIELD)")
        names.append(next((o for o in options if norm(o) == norm(name)), name))
    return OptionClause(SACRIFICE_ORDER, names, standing=True)


# weapons ---------------------------------------------------------------------------------------
def weapons_held(options: Sequence[str]) -> list[str]:
    """The robot's option weapons, as it names them."""
    return [o for o in options if (c := declared_card(o)) is not None and c.weapon]


def weapon_named(text: str, options: Sequence[str]) -> str | None:
    """The option weapon among the robot's options that ``text`` names: its name, one of its words
    (``HOWITZER``), or the unique weapon it begins (``PRESSOR`` for Pressor Beam)."""
    held = weapons_held(options)
    key = " ".join(re.sub(r"[\s_-]+", " ", text).split()).upper()
    for option in held:
        card = declared_card(option)
        assert card is not None and card.mail is not None
        if any(" ".join(w.split()) == key for w in card.mail.words):
            return option
    return card_named(text, held)


def not_a_weapon(text: str, options: Sequence[str]) -> str | None:
    """Why ``text`` (a FIRE order's weapon) names no weapon, when it names an option card the robot holds
    that is none (Brakes, Shield)."""
    name = card_named(text, options)
    card = declared_card(name) if name else None
    if card is None or card.weapon:
        return None
    weapons = ", ".join([MAIN_LASER, *weapons_held(options)])
    return f"{card.name} is not a weapon: FIRE orders name a weapon (yours: {weapons})"


def weapon_order(text: str, options: Sequence[str]) -> tuple[str, str] | None:
    """A weapon card's own line (``PRESSOR BEAM 2``, ``USE MINI HOWITZER IN 2-3``): (registers as
    written, the weapon as the robot names it); None when the line is none. Raises :class:`OptionBad`
    for a weapon the robot does not hold, and for a line led by a held weapon's words that is no order."""
    use = _USE.match(text)
    line = use.group(1) if use else text
    for card in ordered_cards():
        if not card.weapon:
            continue
        m = _patterns(card.name)["weapon"].match(line)
        if m is None:
            continue
        held = next((o for o in options if norm(o) == norm(card.name)), None)
        if held is None:
            raise OptionBad(f"your robot does not hold {card.name}, so it cannot fire it "
                            f"(its options: {', '.join(options) if options else 'none'})")
        return m.group(1), held
    led = led_by(line)
    if led is not None and led.weapon and holds(options, led.name):
        assert led.mail is not None
        word = led.mail.words[0]
        raise OptionBad(f"this {led.name} order is not written as the referee reads it: write e.g. FIRE 3: {word} "
                        f"or {word} 3")
    return None


# checked against the program of the same mail ---------------------------------------------------
