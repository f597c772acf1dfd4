"""What a mail's orders have said so far, while :class:`~referee.orders.parser.Parser` reads it line by line: the
result being built, the standing orders and option orders said (a second line that contradicts one is an error),
and what the clauses (:mod:`.clauses`) gather. The clauses read and write this; the parser adds the program."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.option_orders import BY_SUBJECT, CONDITIONAL, DUAL_PROCESSOR, FLYWHEEL, RECOMPILE

from . import option_checks
from . import options as opt
from .cardrefs import Ref
from .reading import Bad, Line, short
from .terms import OrderContext, OrderError, OrderResult


class ParseState:
    """The state of one mail's reading, and what a clause may record in it."""

    def __init__(self, ctx: OrderContext, strict: bool) -> None:
        self.ctx: OrderContext = ctx
        self.strict = strict
        self.result = OrderResult()
        self.labeled: dict[int, tuple[list[Ref], int, str]] = {}   # register -> (refs, line, text)
        self.listed: list[Ref] = []
        self.list_lines: list[tuple[int, str]] = []
        self.said: dict[str, tuple[object, int, str]] = {}          # standing order -> (value, line, text)
        #: what clauses gather over the lines, by clause name (see :mod:`.clauses`)
        self.scratch: dict[str, Any] = {}
        self.failed_regs: set[int] = set()      # registers of the current line that could not be read
        self.unreadable_regs: set[int] = set()  # registers whose line was an error (not also "missing")
        self.failed_list = False
        self.unreadable_list = False            # a line of listed cards was an error
        #: (subject, register or None, standing) -> (answer, line, text) for option orders
        self.option_said: dict[tuple[str, int | None, bool], tuple[Any, int, str]] = {}
        self.checked = False   # the program (with the cards put on options) went through check_program

    def error(self, line: int | None, text: str, message: str) -> None:
        self.result.errors.append(OrderError(line, short(text), message))

    def standing(self, line: Line, key: str, value: object) -> None:
        """Record a standing order (``key`` of :class:`StandingOrders`); a second one that differs is an error."""
        before = self.said.get(key)
        if before is not None and before[0] != value:
            self.error(line.number, line.raw, f"this contradicts line {before[1]} ({short(before[2], 40)!r})")
            return
        if before is None:
            self.said[key] = (value, line.number, line.raw)
            setattr(self.result.standing, key, value)

    # option orders ---------------------------------------------------------------------------
    def record_option(self, clause: opt.OptionClause, line: Line) -> None:
        """Record an option order (or another choice in its shape); one that contradicts an earlier line
        is refused."""
        answers = clause.registers if clause.registers is not None else {None: clause.value}
        for reg, value in answers.items():
            key = (clause.subject, reg, clause.standing)
            before = self.option_said.get(key)
            if before is not None and before[0] != value:
                raise Bad(f"this contradicts line {before[1]} ({short(before[2], 40)!r})")
            self.option_said[key] = (value, line.number, line.raw)

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
        # each card's own check against the program (Brakes: a Move 1), reported once per line
        misfit = {n: why for n, _, why in option_checks.misfits(self.option_said, res.draft, checked=self.checked)} \
            if res.program_given else {}
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
            if number in misfit:
                self.error(number, raw, misfit.pop(number))
            if subject == RECOMPILE and res.program_given:
                self.error(number, raw, "RECOMPILE deals you a new hand, so a program cannot go with it: send "
                                        "RECOMPILE alone, then your program for the new hand")
