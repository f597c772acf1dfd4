"""Scrambler: instead of the main laser, the target's next register is replaced by the deck's top card
(drawn from the cards nobody holds, as randomizers draw); not a fused register, not in register 5. Where
it cannot act (register 5, the target's next register fused or empty, no card left) the main laser fires."""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..elements.lasers import front_target, weapon_target
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..state import Robot

shown.said("scrambled", with_hits=True)

SCRAMBLER = 'Scrambler'


def fire(ctx: TurnContext, robot: Robot, phase: int) -> None:
    target = weapon_target(ctx, robot, SCRAMBLER)
    reg = phase + 1
    if target is None or reg > 5 or reg in target.locked or not ctx.undealt:
        return
    program = list(ctx.programs.get(target.name) or [])
    if len(program) < reg or program[reg - 1] is None:
        return
    card = ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt)))
    old = program[reg - 1]
    program[reg - 1] = card
    ctx.programs[target.name] = program
    ctx.emit(target, "scrambled", {"register": reg, "card": str(card)}, by=robot.name, replaced=str(old),
             option=SCRAMBLER)


def unable(ctx: TurnContext, robot: Robot, phase: int) -> str | None:
    """Why the Scrambler cannot act this register (the main laser then fires), if it cannot."""
    reg = phase + 1
    if reg > 5:
        return f"{SCRAMBLER} has no next register to scramble in register {phase}"
    target = front_target(ctx, robot)
    if target is None:
        return None
    program = ctx.programs.get(target.name) or []
    if reg in target.locked or len(program) < reg or program[reg - 1] is None:
        return f"{SCRAMBLER}: {target.name}'s register {reg} cannot be scrambled"
    if not ctx.undealt:
        return f"{SCRAMBLER}: no card left to scramble with"
    return None


EFFECT = Effect(SCRAMBLER, "instead of the main laser: the target's next card is replaced",
                weapon=fire,
                unable=unable)
CARD = OptionCard(EFFECT, rank=24, badge="SC", mail=MailOrder("weapon", ("SCRAMBLER",), idle_in=(5,)))
