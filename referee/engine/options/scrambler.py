"""Scrambler: instead of the main laser, the target's next register is replaced by the deck's top card
(drawn from the cards nobody holds, as randomizers draw); not a fused register, not in register 5."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import weapon_target
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..state import Robot

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


EFFECT = Effect(SCRAMBLER, "instead of the main laser: the target's next card is replaced",
                                weapon=fire)
CARD = OptionCard(EFFECT, rank=24, badge="SC", mail=MailOrder("weapon", ("SCRAMBLER",)))
