"""Radio Control: instead of the main laser, the target executes the shooter's program for the rest of
the turn's registers (house rule ``radio_control = "next register"``: the next register only).

The target carries the status ``radio controlled`` (``option_data`` says by whom and up to which
register); when each of those registers is revealed it plays the card its controller plays there (no
card when the controller plays none), at that card's priority, right after its controller (rules version 4;
version 3: of two robots with one priority, the one listed first moved first). The status ends with the turn.
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..elements.lasers import weapon_target
from ..hooks import Effect
from ..movement import FOLLOWS
from ..option_cards import MailOrder, OptionCard
from ..state import Robot

RADIO_CONTROL = 'Radio Control'

STATUS = "radio controlled"
shown.status(STATUS, "radio controlled", given_by="radio controlled", mark="RC")


def fire(ctx: TurnContext, robot: Robot, phase: int) -> None:
    target = weapon_target(ctx, robot, RADIO_CONTROL)
    if target is None or phase >= 5:
        return
    last = 5 if ctx.rules.radio_control == "rest of turn" else phase + 1
    target.statuses.add(STATUS)
    target.option_data[STATUS] = {"by": robot.name, "from": phase + 1, "to": last}
    ctx.emit(target, "radio controlled", by=robot.name, option=RADIO_CONTROL)


def obey(ctx: TurnContext, robot: Robot, phase: int) -> None:
    data = robot.option_data.get(STATUS)
    if not data or not data["from"] <= phase <= data["to"] or robot.name not in ctx.current:
        return
    card = ctx.current.get(data["by"])
    if card is None:
        del ctx.current[robot.name]
        return
    if ctx.rules.seat_free:  # it plays the card right after its controller (version 3: the order robots are listed)
        ctx.phase_notes.setdefault(FOLLOWS, {})[robot.name] = data["by"]
    old = ctx.current[robot.name]
    ctx.current[robot.name] = card
    ctx.emit(robot, "card replaced", {"card": str(card)}, card=str(card), replaced=str(old), option=RADIO_CONTROL)


def release(ctx: TurnContext, robot: Robot) -> None:
    robot.statuses.discard(STATUS)
    robot.option_data.pop(STATUS, None)


def unable(ctx: TurnContext, robot: Robot, phase: int) -> str | None:
    """In register 5 there is no register left to control (the main laser then fires)."""
    return f"{RADIO_CONTROL} has no register left to control in register {phase}" if phase >= 5 else None


EFFECT = Effect(RADIO_CONTROL, "instead of the main laser: the target plays the shooter's cards",
                weapon=fire,
                unable=unable)
CONTROLLED = Effect(STATUS, "plays its controller's cards", steps={
    "reveal.radio_control": obey, "end.fuse": release})
CARD = OptionCard(EFFECT, rank=19, badge="RC", statuses=(CONTROLLED,),
                  mail=MailOrder("weapon", ("RADIO CONTROL", "RADIO"), idle_in=(5,)))
