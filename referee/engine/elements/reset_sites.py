"""Reset sites (RoboFactory): where a robot may swap a programmed card.

A reset site is touched like a repair site (a robot on it at the end of a register phase has its
archive moved there) but repairs nothing. At the end of register phases 1-4, a robot on one may
exchange the card in its next register for a card of its choice that nobody holds this turn: the
player's answer to the decision ``reset exchange`` for that register phase names the card (``"FWD2
700"``); no answer, or a card that is held by someone, is not in the deck, or a next register that
is fused, means no exchange. The card given up goes back among the cards nobody holds.

At the end of the turn a robot on a reset site answers the decision ``reset choose``: a card (it is in
the next hand, in place of one dealt card), ``"random"`` (the next turn's five registers are five cards
dealt at random: the timing sequence's "five program cards at random for the complete next turn"), or
``"none"`` (the default: an ordinary hand). The choice waits in ``Robot.option_data["reset site"]``
(``{"card": "FWD2 700"}`` or ``{"random": true}``) for :func:`referee.engine.dealing.deal_turn`, and is
forgotten when the next turn starts.
"""

from __future__ import annotations

from .. import shown, timing
from ..cards import CardError, parse_card
from ..context import TurnContext
from ..decisions import DecisionKey
from ..element_orders import ElementChoice, ElementMail, declare
from ..events import register_wording
from ..geometry import square_name
from ..kinds import Kind
from ..option_orders import OptionOrder
from ..state import RESET_CHOICE, Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("checkpoints.reset_exchange", "reset sites exchange a card", after="checkpoints.chop_shops")
timing.declare("end.reset_choose", "reset sites: choose a card for next turn", after="end.options")
timing.declare("end.reset_random", "reset sites: five random cards for next turn", after="end.reset_choose")


RANDOM, NONE = "random", "none"
#: the decisions a robot on a reset site is asked (never change them once played)
EXCHANGE, CHOOSE = RESET_EXCHANGE, RESET_CHOOSE = "reset exchange", "reset choose"

# what its player may answer, and how by mail
declare(ElementChoice(
    OptionOrder("reset_site", EXCHANGE, ("register",),
                'a card nobody holds ("FWD2 700") for the register after a phase ended on the site (2-5)', None,
                "RESET EXCHANGE 3: FWD2 700"),
    ElementMail(("RESET EXCHANGE", "RESET SWAP", "RESET SITE", "RESET"), card=True, registers=(2, 3, 4, 5),
                refuse=((1, "a reset site exchanges registers 2-5 (the register after a phase on the site)"),))))
declare(ElementChoice(
    OptionOrder("reset_site", CHOOSE, ("turn",),
                'a card for the next hand ("FWD2 700"), "random" (five random cards next turn) or "none"', NONE,
                "RESET CHOOSE: FWD2 700 | RESET CHOOSE: RANDOM | RESET CHOOSE: NONE"),
    ElementMail(("RESET CHOOSE", "RESET CHOICE", "RESET PICK"), card=True,
                choices=((RANDOM, ("RANDOM", "FIVE RANDOM", "5 RANDOM", "FIVE RANDOM CARDS", "5 RANDOM CARDS")),
                         (NONE, ("NONE", "NOTHING", "NO"))))))
register_wording("exchanged", "register {register} exchanged for {card}")
register_wording("reset card", "chooses {card} for the next hand (reset site)")
register_wording("reset random", "takes five random cards for the next turn (reset site)")
shown.untold("exchanged", "the stage tables show it")
shown.untold("reset card", "the stage tables show it")
shown.untold("reset random", "the stage tables show it")


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
    """End of turn: a robot on a reset site chooses a card for its next hand, five random cards, or nothing."""
    sites = ctx.board.layer("reset_site")
    for robot in ctx.robots:
        if robot.pos not in sites or robot.powered_down:
            continue
        answer = ctx.decide(robot, DecisionKey(CHOOSE), NONE, _choice_note)
        if _choice_note(answer) is None and answer not in (NONE, RANDOM):
            card = str(parse_card(str(answer)))
            robot.option_data[RESET_CHOICE] = {"card": card}
            ctx.emit(robot, "reset card", {"card": card}, card=card)


def five_random(ctx: TurnContext) -> None:
    """End of turn, after the choices: the robots that chose ``random`` get five random cards next turn."""
    for robot in _chose(ctx, RANDOM):
        robot.option_data[RESET_CHOICE] = {"random": True}
        ctx.emit(robot, "reset random")


def _chose(ctx: TurnContext, answer: str) -> list[Robot]:
    """The robots whose ``reset choose`` answer this turn was ``answer``."""
    names = {d.robot for d in ctx.decisions if d.key.subject == CHOOSE and d.answer == answer}
    return [r for r in ctx.robots if r.name in names]


def forget(ctx: TurnContext) -> None:
    """Start of turn: the last turn's choices were dealt from; they are done with."""
    for robot in ctx.robots:
        robot.option_data.pop(RESET_CHOICE, None)


def _choice_note(answer: object) -> str | None:
    """Why a ``reset choose`` answer is not followed (None: it is)."""
    if answer in (NONE, RANDOM):
        return None
    try:
        parse_card(str(answer))
    except CardError:
        return f"{answer!r} is not a card: an ordinary hand next turn"
    return None


RESET_SITE = Kind(
    name="reset_site",
    doc=('a reset site: touched like a repair site (the archive moves there), no repair; at the end of phases 1-4 '
         'a robot on it may exchange the card of its next register for one nobody holds (decision `reset '
         'exchange`); at the end of the turn it may choose a card for its next hand, or five random cards for '
         'the next turn (decision `reset choose`)'),
    key='RS reset site',
    summary="a reset site: archive, no repair; a robot on it may exchange its next register's card",
    group="floor",
    steps={"start.options": forget, "checkpoints.touch": touch, "checkpoints.reset_exchange": exchange,
           "end.reset_choose": choose, "end.reset_random": five_random},
    glyph=lambda e: "RS",
    rank=81,
)
