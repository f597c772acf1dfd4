"""Chop shops (RoboFactory): workshops where robots trade for option cards.

The rule texts name chop shops beside repair sites (robots touch them, and may draw an option card at
the end of the turn) and let them "use their special abilities" when checkpoints are touched, without
saying more. Our reading: a chop shop is touched like a repair site (a robot on it at the end of a
register phase has its archive moved there) but repairs nothing; at the end of the turn a robot on
one is offered an option card: the player's answer to the decision ``chop shop`` (``"option"``, the
default, or ``"none"``) says whether it takes one. Powered-down robots neither touch it nor draw.

A robot that takes one draws the top card of the game's option deck (nothing when the deck is empty).
"""

from __future__ import annotations

from .. import timing
from ..context import TurnContext
from ..decisions import DecisionKey
from ..element_orders import ElementChoice, ElementMail, declare
from ..geometry import square_name
from ..kinds import Kind
from ..option_orders import OptionOrder

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("checkpoints.chop_shops", "chop shops", after="checkpoints.tamagotchis")


TAKE, DECLINE = "option", "none"
#: the decision a robot on a chop shop is asked at the end of the turn (never change it once played)
CHOP_SHOP = "chop shop"

# what its player may answer, and how by mail
declare(ElementChoice(
    OptionOrder("chop_shop", CHOP_SHOP, ("turn",), '"option" (draw the top option card) or "none"', TAKE,
                "CHOP SHOP: OPTION | CHOP SHOP: NONE"),
    ElementMail(("CHOP SHOP", "CHOPSHOP"),
                choices=((TAKE, ("OPTION", "TAKE", "YES", "TAKE OPTION", "TAKE AN OPTION", "DRAW")),
                         (DECLINE, ("NONE", "NO", "DECLINE", "SKIP", "NOTHING", "NO OPTION"))))))


def touch(ctx: TurnContext, phase: int) -> None:
    shops = ctx.board.layer("chop_shop")
    for robot in ctx.robots:
        if robot.pos in shops and not robot.powered_down and robot.archive != robot.pos:
            robot.archive = robot.pos
            ctx.emit(robot, "archive", {"at": square_name(robot.pos)})


def offer(ctx: TurnContext) -> None:
    shops = ctx.board.layer("chop_shop")
    for robot in ctx.drawing_order([r for r in ctx.robots if r.pos in shops]):
        if not robot.powered_down \
                and ctx.decide(robot, DecisionKey(CHOP_SHOP), TAKE, _note) == TAKE:
            ctx.draw_option(robot, "chop shop")


def _note(answer: object) -> str | None:
    return None if answer in (TAKE, DECLINE) else f"unknown answer {answer!r}: no option taken"


CHOP_SHOP_KIND = Kind(
    name="chop_shop",
    doc=('a chop shop: touched like a repair site (the archive moves there) but it repairs nothing; at the end '
         'of the turn a robot on it is offered an option card (decision `chop shop`: `option` or `none`)'),
    key='CS chop shop',
    summary="a chop shop: archive like a repair site, no repair; offers an option card at the end of the turn",
    group="floor",
    steps={"checkpoints.chop_shops": touch, "end.options": offer},
    glyph=lambda e: "CS",
    rank=82,
)
