"""The order reader: one line at a time through the clause table (:mod:`.clauses`), then the program.

A line is tried against the clauses (commands, option cards, power down, sacrifice, two wrenches,
re-entry, fire); a line none takes is a register (``1: FWD2 670``) or a list of cards, else prose
(outside a BEGIN block) or an error. Once every line is read, :meth:`Parser.finish` puts the program
together: numbered or listed, locked registers filled in, the cards resolved against the hand, and the
engine's program rules (:func:`referee.engine.programs.check_program`) have the last word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from referee.engine.cards import Card
from referee.engine.option_orders import CONDITIONAL, DUAL_PROCESSOR, FLYWHEEL
from referee.engine.programs import ProgramError, check_program

from .cardrefs import HARD_SPLIT, INITIAL, Ref, is_cardish, reads_as_program, scan_cards
from .clauses import CLAUSES
from .clauses.base import lead_hint, mentions
from .parse_state import ParseState
from .reading import Bad, Line, normalize_line, reg_number, short
from .terms import MAX_LINE, OrderResult, Register

_REGISTER_HINT = "write a register as 1: FWD2 670 (registers 1-5, or phases a-e)"


_PUNCT_ONLY = re.compile(r"^[\W_]*$")
_LABEL = re.compile(r"^(?:(?:REGISTER|REG|PHASE)\s*)?([1-5A-E])\s*(?:[:.)=]|-(?=\s))\s*(.*)$")
_KEYWORD_LABEL = re.compile(r"^(?:REGISTER|REG|PHASE)\s*([1-5A-E])\s*-?\s*(.*)$")
_BARE_LABEL = re.compile(r"^([1-5A-E])\s+(.+)$")
_NEXT_LABEL = re.compile(r"(?<!REGISTER)(?<!REG)(?<!PHASE)(?:\s*[,;]\s*|\s+)"
                         r"(?=(?:(?:REGISTER|REG|PHASE)\s*)?[1-5A-E]\s*[:.)=]\s)")
_PREFIX = re.compile(r"^(?:MY\s+)?(?:PROGRAM|ORDERS?|CARDS|REGISTERS)\s*[:=-]\s*(\S.*)$")
#: "#1 FWD3 800 #2 RT90 80": registers numbered with "#"
_HASH_LABEL = re.compile(r"^#[1-5]\s+\S")
_HASH_LABELS = re.compile(r"(?:^|\s+)#([1-5])\s+")
LOCK_MARK = re.compile(r"\s*\(?\b(?:LOCKED|FUSED)\b\)?\s*$")

_OPTION_PROBLEM = re.compile(r"^the (Flywheel|Conditional Program|Dual Processor in register (\d))")


class Parser(ParseState):
    """Reads the lines of one mail, one at a time (:meth:`line`), then puts the program together (:meth:`finish`)."""

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
        except Bad as exc:
            self.error(number, raw, str(exc))
        self.unreadable_regs |= self.failed_regs
        self.unreadable_list |= self.failed_list

    def read(self, number: int, raw: str, text: str) -> None:
        line = Line(number, raw, text)
        for clause in CLAUSES:
            if clause.read(self, line):
                return
        hint = lead_hint(line)
        if hint is not None:
            raise Bad(hint)
        if not self.strict and INITIAL.match(text):
            self.result.ignored.append((number, short(raw)))   # "A." under a mail is a name, not register a
            return
        try:
            if self.program_line(number, raw, text):
                return
        except Bad:
            if self.strict or reads_as_program(text):
                raise
            self.failed_regs.clear()   # read as prose after all ("2 more flags to go.", "A. Miller")
            self.failed_list = False
        if line.first in ("REGISTER", "REG", "PHASE"):
            raise Bad(_REGISTER_HINT)
        if self.strict or reads_as_program(text):
            raise Bad("I could not read this line as an order (write HELP for the order language)")
        m = mentions().search(text)
        if m:
            raise Bad(f"this line mentions {m.group(0)} but is not an order; write the order on a line of its own "
                      "(write HELP for the order language)")
        self.result.ignored.append((number, short(raw)))

    def program_line(self, number: int, raw: str, text: str) -> bool:
        """Read a register line or a line of listed cards; False when the line is neither."""
        m = _PREFIX.match(text)
        if m:
            text = m.group(1)
        if _HASH_LABEL.match(text) and (len(_HASH_LABELS.findall(text)) > 1 or "," not in text):
            text = _HASH_LABELS.sub(lambda m: f"{', ' if m.start() else ''}{m.group(1)}: ", text).strip()
        if _LABEL.match(text) or _KEYWORD_LABEL.match(text):
            # "1: FWD2 670, 2: FWD1 500": several numbered registers on one line
            for part in _NEXT_LABEL.split(text):
                m = _LABEL.match(part) or _KEYWORD_LABEL.match(part)
                if m is None:
                    raise Bad(f"{short(part, 30)!r} is not a register (write 1: FWD2 670)")
                self.label(number, raw, reg_number(m.group(1)), m.group(2))
            return True
        m = _BARE_LABEL.match(text)
        if m and self.bare_label(number, raw, m.group(1), m.group(2)):
            return True
        if not is_cardish(text):
            return False
        try:
            refs = scan_cards(text, number)
        except Bad:
            self.failed_list = True
            raise
        self.listed.extend(refs)
        self.list_lines.append((number, raw))
        return True



    # registers -------------------------------------------------------------------------------
    def label(self, number: int, raw: str, reg: int, rest: str) -> None:
        try:
            self._label(number, raw, reg, rest)
        except Bad:
            self.failed_regs.add(reg)
            raise

    def _label(self, number: int, raw: str, reg: int, rest: str) -> None:
        lock_ack = bool(LOCK_MARK.search(rest))
        rest = LOCK_MARK.sub("", rest).strip()
        if reg in self.labeled:
            raise Bad(f"register {reg} is already given on line {self.labeled[reg][1]}")
        refs = scan_cards(rest, number) if rest else []
        if len(refs) > 1:
            raise Bad(f"register {reg} can hold only one card; this line names {len(refs)}")
        if lock_ack and reg not in self.ctx.locked:
            raise Bad(f"register {reg} is not locked")
        self.labeled[reg] = (refs, number, raw)

    def bare_label(self, number: int, raw: str, label: str, rest: str) -> bool:
        """``1 FWD2 670`` or ``a 3``: a register label without a separator, when the rest is one card."""
        if HARD_SPLIT.search(rest):
            return False
        try:
            refs = scan_cards(LOCK_MARK.sub("", rest), number)
        except Bad:
            return False
        if len(refs) != 1 or (label.isdigit() and re.match(r"#?P?\d", rest)):
            return False   # "1 670" and "1 3" are two cards, not register 1
        self._label(number, raw, reg_number(label), rest)
        return True

    # the whole program -----------------------------------------------------------------------
    def finish(self) -> OrderResult:
        for clause in CLAUSES:
            if clause.finish is not None:
                clause.finish(self)
        self.result.draft = dict(self.ctx.locked)
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
        slots: dict[int, Ref] = {}
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
                self.error(None, "", f"{regs_phrase(missing)} {'is' if len(missing) == 1 else 'are'} missing "
                                     f"(this program needs {regs_phrase(ctx.free_registers)})")
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
                locked = f"; {regs_phrase(sorted(ctx.locked))} locked" if ctx.locked else ""
                self.error(where.line, raw, f"you listed {len(self.listed)} card{'s' if len(self.listed) != 1 else ''}"
                                            f"; this program needs {need} ({regs_phrase(free)}{locked})")
                self.draft_only(dict(zip(free, self.listed, strict=False)))
                return res
        self.resolve(slots)
        if not res.errors:
            self.check(slots)
        if not res.errors:
            res.registers = [Register(r, res.draft[r], r in ctx.locked,
                                      slots[r].line if r in slots else None) for r in range(1, 6)]
        return res

    def check(self, slots: dict[int, Ref]) -> None:
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

    def draft_only(self, slots: dict[int, Ref]) -> None:
        """Put what was understood into the draft (for the reply's template) without reporting more errors."""
        errors = list(self.result.errors)
        try:
            self.resolve(slots)
        finally:
            self.result.errors = errors

    def resolve(self, slots: dict[int, Ref]) -> None:
        ctx, res = self.ctx, self.result
        hand = list(ctx.hand)
        used: dict[Card, tuple[int, Ref]] = {}

        def raw_of(ref: Ref) -> str:
            for _, line, raw in self.labeled.values():
                if line == ref.line:
                    return raw
            return next((r for n, r in self.list_lines if n == ref.line), ref.text)

        def place(reg: int, ref: Ref, card: Card) -> None:
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
            if ref.locked:
                if reg not in ctx.locked:
                    self.error(ref.line, raw_of(ref), f"register {reg} is not locked: write the card for it")
                continue
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
            free_of_type = [c for c in hand if c.type is ref.ctype and c not in used]
            if ref.loose and len(free_of_type) > 1:
                cards = " or ".join(str(c) for c in free_of_type)
                self.error(ref.line, raw_of(ref), f"{ref.text.title()!r} for register {reg} could be {cards}: "
                                                  f"write the one you mean, e.g. {free_of_type[0]}")
                continue
            card = free_of_type[0] if free_of_type else None
            if card is None:
                taken = [f"{c} is in register {used[c][0]}" for c in hand if c.type is ref.ctype and c in used]
                self.error(ref.line, raw_of(ref), f"no {ref.ctype.code} card is left for register {reg} "
                                                  f"({'; '.join(taken) if taken else 'your hand has none'})")
                continue
            place(reg, ref, card)


def regs_phrase(regs: Sequence[int]) -> str:
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
