"""Option orders in the order language: one clause per option card that needs its player's choice.

Each clause reads into the shapes of :mod:`referee.engine.option_orders`: an answer for this turn
(``{subject: value}`` or ``{subject: {"<register>": value}}``) or a standing order kept until
changed (the same shape, under ``standing["options"]``). Weapon cards ride the FIRE orders
(:mod:`.language`); here they are only matched by name. docs/orders.md is the player's guide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine.cards import BY_PRIORITY, Card, CardError, parse_card
from referee.engine.decisions import DecisionKey
from referee.engine.option_orders import (
    ABORT_SWITCH,
    BRAKES,
    BY_SUBJECT,
    CIRCUIT_BREAKER,
    CONDITIONAL,
    CRAB_LEGS,
    DUAL_PROCESSOR,
    FIRE_CONTROL,
    FLYWHEEL,
    FOURTH_GEAR,
    GYROSCOPE,
    RECOMPILE,
    REVERSE_GEARS,
    SACRIFICE_ORDER,
    WEAPONS,
    order_key,
)

#: the classic option deck (and Shield), as the cards are named
CARD_NAMES: tuple[str, ...] = (
    "Ablative Coat", "Abort Switch", "Brakes", "Circuit Breaker", "Conditional Program", "Crab Legs",
    "Double-Barreled Laser", "Dual Processor", "Extra Memory", "Fire Control", "Flywheel", "Fourth Gear",
    "Gyroscopic Stabilizer", "High-Power Laser", "Mechanical Arm", "Mini Howitzer", "Power-Down Shield",
    "Pressor Beam", "Radio Control", "Ramming Gear", "Rear-Firing Laser", "Recompile", "Reverse Gears",
    "Scrambler", "Superior Archive", "Tractor Beam", "Shield",
)

#: subject -> the card that gives the order
CARD_OF: dict[str, str] = {o.subject: o.card for o in BY_SUBJECT.values() if o.card != "(any)"}


class OptionBad(ValueError):
    """A clause that names an option card but cannot be used; the message is for the player."""


def norm(name: str) -> str:
    """A card name compared loosely: case, hyphens, underscores and spacing do not matter."""
    return re.sub(r"[\s_-]+", " ", name).strip().lower()


def card_named(text: str, pool: Iterable[str] = CARD_NAMES) -> str | None:
    """The card of ``pool`` that ``text`` names: its whole name, or the unique card it begins
    (``PRESSOR`` for Pressor Beam, ``GYRO`` for Gyroscopic Stabilizer)."""
    key = norm(text)
    if not key:
        return None
    pool = list(pool)
    exact = [c for c in pool if norm(c) == key]
    if exact:
        return exact[0]
    starts = [c for c in pool if norm(c).startswith(key)]
    return starts[0] if len(starts) == 1 else None


def holds(options: Sequence[str], card: str) -> bool:
    """Whether a robot's options (as the engine names them) include ``card``."""
    return any(norm(o) == norm(card) for o in options)


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
        return CARD_OF.get(self.subject, "(any)")


_RANGE = r"[1-5A-E](?:\s*-\s*[1-5A-E])?"
_REGS = r"(?:REGISTERS?|REGS?|PHASES?)?\s*(" + _RANGE + r"(?:\s*(?:,|AND|\s)\s*" + _RANGE + r")*)"
_SCOPE = r"(?:\s+(THIS\s+TURN|EVERY\s+TURN|ALWAYS|STANDING|UNTIL\s+CHANGED))?"
_ON_OFF = r"(ON|OFF|YES|NO|TRUE|FALSE|ACTIVE|INACTIVE)"
_CLAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (SACRIFICE_ORDER, re.compile(r"^SACRIFICE\s+ORDER\s*[:=]?\s*(.+)$")),
    (ABORT_SWITCH, re.compile(r"^ABORT(?:\s+SWITCH)?\s*(?:AT\s+|IN\s+)?[:=]?\s*(?:REGISTER\s*)?"
                              r"([1-5A-E]|NEVER|NO|OFF|0)" + _SCOPE + r"$")),
    (BRAKES, re.compile(r"^BRAKES?\s*(?:IN\s+)?[:=]?\s*" + _REGS + r"$")),
    (CIRCUIT_BREAKER, re.compile(r"^CIRCUIT(?:[\s-]*BREAKER)?\s*[:=]?\s*" + _ON_OFF + r"$")),
    (CONDITIONAL, re.compile(r"^COND(?:ITIONAL)?(?:\s+PROGRAM)?\s*(?:IN\s+)?(?:REGISTER\s*)?([1-5A-E])\s*[:=]?\s*(.+?)"
                             r"\s+(?:IF|WHEN)\s+(.+)$")),
    (CRAB_LEGS, re.compile(r"^CRAB(?:[\s-]*LEGS)?\s*(?:IN\s+)?[:=]?\s*" + _REGS + r"\s*[:=]?\s*(LEFT|RIGHT|L|R)$")),
    (DUAL_PROCESSOR, re.compile(r"^DUAL(?:[\s-]*PROCESSOR)?\s*(?:IN\s+)?(?:REGISTER\s*)?([1-5A-E])\s*[:=]?\s*"
                                r"(?:WITH\s+)?(.+)$")),
    (FIRE_CONTROL, re.compile(r"^FIRE[\s-]*CONTROL\s*(?:IN\s+)?(?:" + _REGS + r")?\s*[:=]?\s*"
                              r"(DAMAGE|OPTIONS?|REGISTERS?|LOCK)" + _SCOPE + r"$")),
    (FLYWHEEL, re.compile(r"^FLY[\s-]*WHEEL\s*[:=]?\s*(?:KEEP\s+)?(.+)$")),
    (FOURTH_GEAR, re.compile(r"^(?:FOURTH|4TH)[\s-]*GEAR\s*(?:IN\s+)?[:=]?\s*" + _REGS + r"$")),
    (GYROSCOPE, re.compile(r"^GYRO(?:SCOPE|SCOPIC)?(?:\s+STABILI[SZ]ER)?\s*[:=]?\s*" + _ON_OFF + _SCOPE + r"$")),
    (RECOMPILE, re.compile(r"^RE-?COMPILE(?:\s+(?:MY\s+)?HAND)?(?:\s+PLEASE)?$")),
    (REVERSE_GEARS, re.compile(r"^REVERSE(?:[\s-]*GEARS?)?\s*(?:IN\s+)?[:=]?\s*" + _REGS + r"$")),
)
#: the first words of option clauses: a line led by one is an option order or an error, never prose
LEADS = ("ABORT", "BRAKE", "BRAKES", "CIRCUIT", "COND", "CONDITIONAL", "CRAB", "DUAL", "FLYWHEEL", "FLY-WHEEL",
         "FOURTH", "4TH", "GYRO", "GYROSCOPE", "GYROSCOPIC", "RECOMPILE", "RE-COMPILE", "REVERSE")
HINTS: dict[str, str] = {o.subject: o.clause for o in BY_SUBJECT.values()}
_CONDITION = re.compile(r"^(?:NOT\s+)?(?:FACING\s+[NESW]|AT\s+R\d{1,2}C\d{1,2}|ROBOT\s+AHEAD|WALL\s+AHEAD|"
                        r"DAMAGE\s*>=\s*\d)$")


def leads_option(text: str) -> bool:
    """Whether a normalized line starts like an option clause (or SACRIFICE ORDER, FIRE CONTROL)."""
    words = text.split()
    if not words:
        return False
    first = words[0].strip(":=")
    return first in LEADS or text.startswith(("SACRIFICE ORDER", "FIRE CONTROL", "FIRE-CONTROL"))


def _reg(label: str) -> int:
    return int(label) if label.isdigit() else "ABCDE".index(label) + 1


def registers(text: str) -> list[int]:
    """``2, 4``, ``2-4``, ``b and d``: register numbers in order, each once."""
    out: list[int] = []
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
    text = text.strip()
    try:
        card = parse_card(text)
    except CardError:
        # priorities are unique: "R 80", "U 50", "M2 490" name their card by the number
        m = re.fullmatch(r"(?:[A-Z][A-Z0-9 -]*?)?\s*-?P?(\d{2,3})", text)
        found = BY_PRIORITY.get(int(m.group(1))) if m else None
        if found is None:
            raise OptionBad(f"{text!r} is not a card (write it like RT90 80 or FWD2 670, type and priority)") from None
        card = found
    if hand and card not in hand:
        raise OptionBad(f"{card} is not in your hand, so it cannot be {what}")
    return card


def read_clause(text: str, options: Sequence[str], hand: Sequence[Card] = ()) -> OptionClause | None:
    """The option order a normalized (upper-case) line gives, None when it is no option clause.

    Raises :class:`OptionBad` for a clause of a card the robot does not hold, or one that is
    written wrongly (the message says how to write it).
    """
    for subject, pattern in _CLAUSES:
        m = pattern.match(text)
        if m is None:
            continue
        card = CARD_OF.get(subject)
        if card is not None and not holds(options, card):
            held = ", ".join(options) if options else "none"
            raise OptionBad(f"your robot does not hold {card}, so this order cannot be taken (its options: {held})")
        return _build(subject, m, options, hand)
    if leads_option(text):
        led = _subject_led(text)
        card = CARD_OF.get(led) if led else None
        if card is not None and not holds(options, card):
            return None   # not this card's order as written: prose, or another order ("REVERSE" in a sentence)
        hint = HINTS.get(led or "", "")
        raise OptionBad(f"this {card or 'option'} order is not written as the referee reads it" +
                        (f": write e.g. {hint}" if hint else " (write HELP for the order language)"))
    return None


def _subject_led(text: str) -> str | None:
    first = text.split()[0].strip(":=")
    for subject, lead in ((SACRIFICE_ORDER, "SACRIFICE"), (FIRE_CONTROL, "FIRE"), (ABORT_SWITCH, "ABORT"),
                          (BRAKES, "BRAKE"), (CIRCUIT_BREAKER, "CIRCUIT"), (CONDITIONAL, "COND"), (CRAB_LEGS, "CRAB"),
                          (DUAL_PROCESSOR, "DUAL"), (FLYWHEEL, "FLY"), (FOURTH_GEAR, "FOURTH"), (FOURTH_GEAR, "4TH"),
                          (GYROSCOPE, "GYRO"), (RECOMPILE, "RECOMPILE"), (RECOMPILE, "RE-COMPILE"),
                          (REVERSE_GEARS, "REVERSE")):
        if first.startswith(lead):
            return subject
    return None


def _build(subject: str, m: re.Match[str], options: Sequence[str], hand: Sequence[Card]) -> OptionClause:
    if subject in (BRAKES, FOURTH_GEAR, REVERSE_GEARS):
        return OptionClause(subject, None, dict.fromkeys(registers(m.group(1)), True))
    if subject == CRAB_LEGS:
        side = "left" if m.group(2).startswith("L") else "right"
        return OptionClause(subject, None, dict.fromkeys(registers(m.group(1)), side))
    if subject == ABORT_SWITCH:
        word = m.group(1)
        value = 0 if word in ("NEVER", "NO", "OFF", "0") else _reg(word)
        return OptionClause(subject, value, standing=_standing_scope(m.group(2), False))
    if subject == CIRCUIT_BREAKER:
        return OptionClause(subject, _switch(m.group(1)), standing=True)
    if subject == GYROSCOPE:
        return OptionClause(subject, _switch(m.group(1)), standing=_standing_scope(m.group(2), True))
    if subject == FIRE_CONTROL:
        word = m.group(2)
        effect = "damage" if word == "DAMAGE" else "option" if word.startswith("OPTION") else "register"
        if m.group(1):
            if m.group(3):
                raise OptionBad("FIRE CONTROL with registers is for this turn only; for every turn leave the "
                                "registers out: FIRE CONTROL: OPTION")
            return OptionClause(subject, None, dict.fromkeys(registers(m.group(1)), effect))
        return OptionClause(subject, effect, standing=_standing_scope(m.group(3), True))
    if subject == RECOMPILE:
        return OptionClause(subject, True)
    if subject == FLYWHEEL:
        return OptionClause(subject, str(_card(m.group(1), hand, "kept on Flywheel")))
    if subject == DUAL_PROCESSOR:
        card = _card(m.group(2), hand, "shared with a move card")
        if card.type.move != 0 or card.type.turn == 0:
            raise OptionBad(f"Dual Processor pairs a turn card with a move card: {card} is not a turn card")
        return OptionClause(subject, None, {_reg(m.group(1)): str(card)})
    if subject == CONDITIONAL:
        card = _card(m.group(2), hand, "put on Conditional Program")
        condition = re.sub(r"\s+", " ", m.group(3)).strip()
        condition = re.sub(r"\s*>=\s*", " >= ", condition)
        if not _CONDITION.match(condition.replace(" >= ", ">=")):
            raise OptionBad(f"{condition!r} is not a condition: write FACING N (E, S, W), AT r5c4, ROBOT AHEAD, "
                            "WALL AHEAD or DAMAGE >= 3, each may follow NOT")
        condition = re.sub(r"AT R(\d+)C(\d+)", r"AT r\1c\2", condition)
        return OptionClause(subject, None, {_reg(m.group(1)): {"card": str(card), "if": condition}})
    if subject == SACRIFICE_ORDER:
        names = []
        for part in re.split(r"\s*(?:,|;|\bTHEN\b|\bAND\b)\s*", m.group(1)):
            if not part.strip():
                continue
            name = card_named(part, options) or card_named(part)
            if name is None:
                raise OptionBad(f"{part.strip().lower()!r} is not an option card "
                                "(e.g. SACRIFICE ORDER: BRAKES, SHIELD)")
            names.append(next((o for o in options if norm(o) == norm(name)), name))
        return OptionClause(subject, names, standing=True)
    raise OptionBad("unknown option order")   # pragma: no cover - every subject above is handled


def dual_problem(move: Card, turn_text: str) -> str | None:
    """Why a register's card and a turn card cannot share the register on Dual Processor (None: they can)."""
    turn = parse_card(turn_text)
    if move.type.move == 2 and turn.type.turn in (1, 3):
        return None
    if move.type.move == 3 and turn.type.turn == 2:
        return None
    return (f"Dual Processor pairs a Move 2 with a 90-degree turn or a Move 3 with a U-turn; this register holds "
            f"{move}, which cannot share with {turn}")


def weapon_named(text: str, options: Sequence[str]) -> str | None:
    """The option weapon among the robot's options that ``text`` names (``PRESSOR`` for Pressor Beam)."""
    held = [o for o in options if any(norm(o) == norm(w) for w in WEAPONS)]
    return card_named(text, held)


def answer_keys(orders: Mapping[str, Any]) -> dict[DecisionKey, Any]:
    """Stored option orders (``{subject: value or {"<register>": value}}``) as the engine's decision keys."""
    out: dict[DecisionKey, Any] = {}
    for subject, value in orders.items():
        if subject not in BY_SUBJECT:
            continue
        if isinstance(value, Mapping) and all(str(k) in "12345" and len(str(k)) == 1 for k in value):
            for reg, answer in value.items():
                out[order_key(subject, int(reg))] = answer
        else:
            out[order_key(subject)] = value
    return out


def merge(older: Mapping[str, Any], newer: Mapping[str, Any]) -> dict[str, Any]:
    """Option orders with ``newer`` on top: per-register answers merge register by register."""
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in older.items()}
    for subject, value in newer.items():
        before = out.get(subject)
        if isinstance(value, Mapping) and isinstance(before, dict):
            before.update(value)
        else:
            out[subject] = dict(value) if isinstance(value, Mapping) else value
    return out


def order_lines(orders: Mapping[str, Any], *, standing: bool = False) -> list[str]:
    """Option orders written back in the order language (for echoes and order forms)."""
    lines: list[str] = []
    for subject, value in sorted(orders.items()):
        if isinstance(value, Mapping) and subject in (BRAKES, FOURTH_GEAR, REVERSE_GEARS):
            regs = sorted(int(reg) for reg, answer in value.items() if answer)   # BRAKES 1, 4
            lines.append(_line(subject, True, 0).replace(" 0", " " + ", ".join(map(str, regs))) if regs else "")
            continue
        if isinstance(value, Mapping):   # per register: {"2": answer}
            lines += [_line(subject, answer, int(reg)) for reg, answer in sorted(value.items())]
            continue
        lines.append(_line(subject, value, None, standing=standing))
    return [line for line in lines if line]


def _line(subject: str, value: Any, reg: int | None, *, standing: bool = False) -> str:
    tail = " EVERY TURN" if standing and subject == ABORT_SWITCH else \
        " THIS TURN" if not standing and subject in (GYROSCOPE, FIRE_CONTROL) and reg is None else ""
    if subject in (BRAKES, FOURTH_GEAR, REVERSE_GEARS):
        word = {BRAKES: "BRAKES", FOURTH_GEAR: "FOURTH GEAR", REVERSE_GEARS: "REVERSE GEARS"}[subject]
        return f"{word} {reg}" if value else ""
    if subject == CRAB_LEGS:
        return f"CRAB {reg}: {str(value).upper()}"
    if subject == DUAL_PROCESSOR:
        return f"DUAL {reg}: {value}"
    if subject == CONDITIONAL and isinstance(value, Mapping):
        return f"CONDITIONAL {reg}: {value.get('card')} IF {value.get('if')}"
    if subject == FIRE_CONTROL:
        return f"FIRE CONTROL {reg}: {str(value).upper()}" if reg else f"FIRE CONTROL: {str(value).upper()}{tail}"
    if subject == ABORT_SWITCH:
        return f"ABORT {value or 'NEVER'}{tail}"
    if subject == CIRCUIT_BREAKER:
        return f"CIRCUIT BREAKER {'ON' if value else 'OFF'}"
    if subject == GYROSCOPE:
        return f"GYRO {'ON' if value else 'OFF'}{tail}"
    if subject == FLYWHEEL:
        return f"FLYWHEEL: {value}"
    if subject == RECOMPILE:
        return "RECOMPILE" if value else ""
    if subject == SACRIFICE_ORDER:
        return "SACRIFICE ORDER: " + ", ".join(str(v).upper() for v in value or [])
    from .element_clauses import element_line  # board elements' orders (chop shops, reset sites)

    return element_line(subject, value, reg)


def form_lines(options: Sequence[str], standing: Mapping[str, Any]) -> list[str]:
    """Order-form lines for the option cards the robot holds: standing ones as on file, the others as
    comments showing how to write them."""
    lines: list[str] = []
    held = [o for o in BY_SUBJECT.values() if o.card != "(any)" and holds(options, o.card)]
    for order in held:
        if order.subject in standing:
            lines += order_lines({order.subject: standing[order.subject]}, standing=True)
        else:
            lines.append(f"# {order.card}: {order.clause}")
    if options:
        if SACRIFICE_ORDER in standing:
            lines += order_lines({SACRIFICE_ORDER: standing[SACRIFICE_ORDER]}, standing=True)
        else:
            lines.append("# SACRIFICE ORDER: " + ", ".join(o.upper() for o in options) + "   (first given up first)")
    return lines
