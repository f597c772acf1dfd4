"""Radioactive waste: a robot on it takes 1 damage in every register phase when lasers fire, last of
the laser steps (after radio beams).

The timing sequence also lets a robot on radioactive waste draw an option card when checkpoints are
touched: "robots on radioactive waste may draw an option card" (step ``checkpoints.radioactive_options``).
In every register phase a robot standing on it (powered-down robots touch nothing) is asked the decision
``radioactive waste`` for that register: ``draw`` (the default) draws the top card of the option deck,
``none`` leaves it. By mail: ``RADIOACTIVE WASTE: NONE`` (every register), ``RADIOACTIVE WASTE 2, 4: DRAW``.
Robots drawing at once draw in card priority order. (Rules version 3, house rule ``radioactive_once``: the
robot draws once a turn, the first register phase it is there, without being asked.)
"""

from __future__ import annotations

from .. import shown, timing
from ..context import TurnContext
from ..element_orders import ElementChoice, ElementMail, declare, element_key
from ..kinds import Kind
from ..option_orders import OptionOrder

shown.cause("radioactive waste")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.radioactive_waste", "radioactive waste", after="lasers.radio_beams")
timing.declare("checkpoints.radioactive_options", "radioactive waste hands out options",
               after="checkpoints.reset_exchange")

DRAW, NONE = "draw", "none"
#: the decision a robot on radioactive waste is asked in each register phase (never change it once played)
SUBJECT = "radioactive waste"

# what its player may answer, and how by mail
declare(ElementChoice(
    OptionOrder("radioactive_waste", SUBJECT, ("register",),
                '"draw" (the top option card) or "none", for a register phase ending on the waste', DRAW,
                "RADIOACTIVE WASTE: NONE | RADIOACTIVE WASTE 2, 4: DRAW"),
    ElementMail(("RADIOACTIVE WASTE", "RADIOACTIVE"), registers=(1, 2, 3, 4, 5), whole_turn=True,
                choices=((DRAW, ("DRAW", "OPTION", "YES", "TAKE", "DRAW OPTION")),
                         (NONE, ("NONE", "NO", "DECLINE", "SKIP", "NOTHING", "NO OPTION"))))))


def contaminate(ctx: TurnContext, phase: int) -> None:
    waste = ctx.board.layer("radioactive_waste")
    for robot in ctx.robots:
        if robot.pos in waste:
            ctx.damage(robot, 1, "radioactive waste")


def hand_out(ctx: TurnContext, phase: int) -> None:
    waste = ctx.board.layer("radioactive_waste")
    for robot in ctx.drawing_order([r for r in ctx.robots if r.pos in waste]):
        if robot.powered_down:
            continue
        if ctx.rules.radioactive_once:
            key = f"radioactive option:{robot.name}"
            if key not in ctx.notes:
                ctx.notes[key] = phase
                ctx.draw_option(robot, "radioactive waste")
        elif ctx.decide(robot, element_key(SUBJECT, phase), DRAW, _note) == DRAW:
            ctx.draw_option(robot, "radioactive waste")


def _note(answer: object) -> str | None:
    return None if answer in (DRAW, NONE) else f"unknown answer {answer!r}: no option drawn"


RADIOACTIVE_WASTE = Kind(
    name="radioactive_waste",
    doc=('radioactive waste: a robot on it takes 1 damage in every register phase, in the last laser step, and '
         'may draw an option card (decision `radioactive waste`: `draw` or `none`) when checkpoints are touched'),
    key='(!) radioactive waste',
    summary="1 damage to a robot on it in every register phase, after every other laser step",
    steps={"lasers.radioactive_waste": contaminate, "checkpoints.radioactive_options": hand_out},
    glyph=lambda e: "(!)",
    rank=155,
)
