"""Reset sites (RoboFactory): where a robot may swap a programmed card.

A reset site is touched like a repair site (a robot on it at the end of a register phase has its
archive moved there) but repairs nothing. At the end of register phases 1-4, a robot on one may
exchange the card in its next register for a card of its choice that nobody holds this turn: the
player's answer to the decision ``reset exchange`` for that register phase names the card (``"FWD2
700"``); no answer, or a card that is held by someone, is not in the deck, or a next register that
is fused, means no exchange. The card given up goes back among the cards nobody holds.

At the end of the turn the rule texts let a robot on a reset site choose a card for its next hand;
dealing is not the engine's business: the decision ``reset choose`` is asked and recorded (default
``"none"``), with a note for whoever deals the next hand.
"""

from __future__ import annotations

from ..cards import CardError, parse_card
from ..context import TurnContext
from ..decisions import DecisionKey
from ..events import register_wording
from ..geometry import square_name
from ..kinds import Kind

EXCHANGE, CHOOSE = "reset exchange", "reset choose"
register_wording("exchanged", "register {register} exchanged for {card}")


def touch(ctx: TurnContext, phase: int) -> None:
    sites = ctx.board.layer("reset_site")
    for robot in ctx.robots:
        if robot.pos in sites and not robot.powered_down and robot.archive != robot.pos:
            robot.archive = robot.pos
            ctx.emit(robot, "archive", {"at": square_name(robot.pos)})


def exchange(ctx: TurnContext, phase: int) -> None:
    if phase >= 5:
        return
    sites = ctx.board.layer("reset_site")
    for robot in ctx.robots:
        if robot.pos not in sites or robot.powered_down:
            continue
        register = phase + 1
        program = ctx.programs.get(robot.name)

        def note(answer: object, name: str = robot.name, register: int = register) -> str | None:
            return _refusal(ctx, name, register, answer)

        answer = ctx.decide(robot, DecisionKey(EXCHANGE, register=register), None, note)
        if answer is None or note(answer) or program is None:
            continue
        card = parse_card(str(answer))
        old = program[register - 1]
        ctx.undealt.remove(card)
        if old is not None:
            ctx.undealt.append(old)
        program[register - 1] = card
        ctx.emit(robot, "exchanged", {"register": register, "card": str(card)}, card=str(card),
                 replaced=str(old) if old else None)


def _refusal(ctx: TurnContext, name: str, register: int, answer: object) -> str | None:
    """Why an exchange answer cannot be followed (None: it can, or there is nothing to follow)."""
    if answer is None:
        return None
    try:
        card = parse_card(str(answer))
    except CardError:
        return f"{answer!r} is not a card: no exchange"
    if card not in ctx.undealt:
        return f"{card} is held this turn: no exchange"
    robot = ctx.by_name[name]
    if register in robot.locked:
        return f"register {register} is fused: no exchange"
    return None


def choose(ctx: TurnContext) -> None:
    sites = ctx.board.layer("reset_site")
    for robot in ctx.robots:
        if robot.pos in sites and not robot.powered_down:
            ctx.decide(robot, DecisionKey(CHOOSE), "none",
                       lambda a: None if a == "none" else "the next deal gives the card chosen")


RESET_SITE = Kind(
    name="reset_site",
    doc=('a reset site: touched like a repair site (the archive moves there), no repair; at the end of phases 1-4 '
         'a robot on it may exchange the card of its next register for one nobody holds (decision `reset '
         'exchange`)'),
    key='RS reset site',
    summary="a reset site: archive, no repair; a robot on it may exchange its next register's card",
    group="floor",
    steps={"checkpoints.touch": touch, "checkpoints.reset_exchange": exchange, "end.reset_choose": choose},
    glyph=lambda e: "RS",
    rank=81,
)
