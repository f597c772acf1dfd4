"""Fire Control: when the main laser hits a robot, the player may destroy one of the target's options
or lock one of its registers for the rest of the turn instead of dealing damage.

The order says which (``damage``, ``option``, ``register``), per register or standing. The option
destroyed is the target's newest (house rule ``fire_control = "sacrifice order"``: the first its
player's SACRIFICE ORDER names). The register locked is the target's next register still to run that
is not fused (its card stays in it; the end of the turn releases it unless damage fuses it). When
the choice cannot be carried out (no option, no register left) the hit deals its damage.
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..elements.lasers import Shot
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_orders import FIRE_CONTROL as SUBJECT
from ..option_orders import SACRIFICE_ORDER, OptionOrder, order_key
from ..state import Robot

shown.said("register locked", with_hits=True)

FIRE_CONTROL = 'Fire Control'

CHOICES = ("damage", "option", "register")


def strike(ctx: TurnContext, shooter: Robot, target: Robot, phase: int) -> bool:
    choice = ctx.decide(shooter, order_key(SUBJECT, phase), "damage",
                        lambda a: None if str(a).lower() in CHOICES else f"no such choice {a!r}: damage dealt")
    choice = str(choice).lower()
    if choice == "option" and target.options:
        if ctx.rules.fire_control == "sacrifice order":
            name = ctx.choose_option(target, SACRIFICE_ORDER)
        else:
            name = target.options[-1]
        ctx.lose_option(target, name, "option lost")
        return True
    if choice == "register":
        program = ctx.programs.get(target.name) or []
        for reg in range(phase + 1, 6):
            if reg not in target.locked and reg <= len(program) and program[reg - 1] is not None:
                card = program[reg - 1]
                assert card is not None
                target.locked[reg] = card
                ctx.emit(target, "register locked", {"register": reg}, by=shooter.name, option=FIRE_CONTROL)
                return True
    return False


def aim(ctx: TurnContext, robot: Robot, shot: Shot) -> None:
    shot.strike = strike


EFFECT = Effect(FIRE_CONTROL, "a main-laser hit may destroy an option or lock a register instead",
                                aim=aim)
ORDER = OptionOrder(FIRE_CONTROL, SUBJECT, ("register", "standing"),
                    "'damage', 'option' or 'register': what a main-laser hit does instead of damage", "damage",
                    "FIRE CONTROL 2: OPTION | FIRE CONTROL: REGISTER")
CARD = OptionCard(EFFECT, rank=10, badge="FC", order=ORDER,
                  mail=MailOrder("choice", ("FIRE CONTROL",), keeps="standing",
                                 choices=(("damage", ("DAMAGE",)), ("option", ("OPTION", "OPTIONS")),
                                          ("register", ("REGISTER", "REGISTERS", "LOCK")))))
