"""Which weapon fires in which register phase: ``FIRE 1-5: MAIN LASER``, ``FIRE 3: PRESSOR BEAM``, or a
weapon card's own line (``PRESSOR BEAM 3``, ``USE MINI HOWITZER IN 2``: the card declares its words)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import options as opt
from ..reading import Bad, Line, reg_number, short
from ..terms import MAIN_LASER
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState

_FIRE = re.compile(r"^FIRE\b\s*(?:IN\s+)?(?:(?:REGISTERS?|REGS?|PHASES?)\s*)?"
                   r"(ALL|(?:[1-5A-E](?:\s*-\s*[1-5A-E])?)(?:\s*[, ]\s*(?:AND\s+)?[1-5A-E](?:\s*-\s*[1-5A-E])?)*)?\b"
                   r"\s*[:=]?\s*(?:(?:WITH|USING)\s+)?(.*)$")


@dataclass
class _Said:
    """The FIRE orders of one mail: (weapon, line, text) for every register, and for some."""

    all: tuple[str, int, str] | None = None
    regs: dict[int, tuple[str, int, str]] = field(default_factory=dict)


def _said(p: ParseState) -> _Said:
    said = p.scratch.setdefault("fire", _Said())
    assert isinstance(said, _Said)
    return said


def weapon(p: ParseState, name: str) -> str:
    """The robot's weapon ``name`` names (the main laser, or an option weapon it holds)."""
    key = re.sub(r"[\s_-]+", " ", name).strip().upper()
    if key in ("LASER", "MAIN LASER", "MAIN", "MAIN GUN"):
        return MAIN_LASER
    named = opt.weapon_named(name, p.ctx.options)
    if named is not None:
        return named
    problem = opt.not_a_weapon(name, p.ctx.options)
    if problem is not None:
        raise Bad(problem)
    has = ", ".join([MAIN_LASER, *opt.weapons_held(p.ctx.options)])
    raise Bad(f"your robot has no weapon called {short(name.lower(), 40)!r} (it has: {has})")


def _weapon_line(p: ParseState, text: str) -> tuple[str, str] | None:
    """A weapon card's own line (``PRESSOR BEAM 2``): (registers, weapon), or None."""
    try:
        return opt.weapon_order(text, p.ctx.options)
    except opt.OptionBad as exc:
        raise Bad(str(exc)) from None


def read(p: ParseState, line: Line) -> bool:
    if line.first != "FIRE":
        own = _weapon_line(p, line.text)
        if own is None:
            return False
        regs_text, used = own
        _record(p, line, regs_text, used)
        return True
    m = _FIRE.match(line.text)
    weapon_text = (m.group(2) if m else "").strip()
    if not m or not weapon_text:
        raise Bad("FIRE orders read FIRE <registers>: <weapon>, e.g. FIRE 1-5: MAIN LASER or FIRE 3: LASER")
    if m.group(1) is None:   # FIRE PRESSOR BEAM IN 2
        own = _weapon_line(p, weapon_text)
        if own is not None:
            _record(p, line, own[0], own[1])
            return True
    _record(p, line, m.group(1), weapon(p, weapon_text))
    return True


def _record(p: ParseState, line: Line, regs_text: str | None, used: str) -> None:
    said = _said(p)
    if regs_text is None or regs_text == "ALL":
        if said.all is not None and said.all[0] != used:
            raise Bad(f"this contradicts line {said.all[1]} ({short(said.all[2], 40)!r})")
        said.all = (used, line.number, line.raw)
        return
    regs: list[int] = []
    regs_text = re.sub(r"^(?:REGISTERS?|REGS?|PHASES?)\s*", "", regs_text.strip())
    regs_text = re.sub(r"\s*-\s*", "-", regs_text)
    for part in re.split(r"\s*(?:,|\s|AND)\s*", regs_text):
        if not part:
            continue
        ends = [s.strip() for s in part.split("-")]
        lo, hi = reg_number(ends[0]), reg_number(ends[-1])
        if lo > hi:
            raise Bad(f"register range {part} runs backwards")
        regs.extend(range(lo, hi + 1))
    for reg in regs:
        before = said.regs.get(reg)
        if before is not None and before[0] != used:
            raise Bad(f"register {reg} already fires {before[0]} (line {before[1]})")
        said.regs[reg] = (used, line.number, line.raw)


def finish(p: ParseState) -> None:
    """Every register's weapon: FIRE ALL's, with the registers named one by one on top."""
    said = _said(p)
    fire = {r: said.all[0] for r in range(1, 6)} if said.all else {}
    fire.update({r: w for r, (w, _, _) in said.regs.items()})
    p.result.standing.fire = dict(sorted(fire.items()))


CLAUSE = Clause("fire", read, mentions="FIRE", finish=finish)
