"""Radio beams (RoboFactory): a beam that hands a robot radio-controlled cards for its next program.

A robot entering a square of a radio beam by any move, or turning in it with a turn card, receives a
radio-controlled card, and a robot standing in it when the radio beams act (after the molten ore)
receives another: at most two a register phase. Each radio card is drawn at random (the turn's seeded
generator) from the cards nobody holds, and takes the first of the robot's registers that is free
(not fused, not already held) for the next turn: the card is locked there as a fused register is
(``state.HELD``), so the player programs around it, and the register is freed at the end of that
turn. A robot with no free register receives nothing. Radio beams do no damage; flying robots are
in their reach; virtual robots too; tamagotchis (copy machines) not: they play their robots' cards.

With the house rule ``radio_beam = "revised"`` the rule texts' revised rule applies instead: at the start of
the turn three cards nobody holds are laid face down by the beam (the turn's seeded generator). The first
robot (not powered down) to enter a square of the beam by any move, in a register phase, finishes the move
it is making, drops the rest of its program and plays the three cards in the following registers; past
register 5 it plays them in registers 6-8, at the end of the turn (after the other robots' five registers,
before anything else of the end of the turn): the robots' lasers fire after each, the board does not move,
and options that change a card's movement do not act. The cards are then taken: the beam does nothing more
this turn. Cards nobody took go back into the deck with the rest at the end of the turn.
"""

from __future__ import annotations

from .. import shown, timing
from ..cards import Card, locked_registers, parse_card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..state import HELD, TAMAGOTCHI, Robot
from ..timing import ENTER, ROTATE

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.radio_beams", timing.ENTER, timing.ROTATE, "radio beams hand out radio-controlled cards",
               after="move.light_barriers")
timing.declare("lasers.radio_beams", "radio beams", after="lasers.molten_ore")
timing.declare("end.radio_registers", "robots running a radio beam's cards past register 5 play registers 6-8",
               after=None)


NAME = "radio_beam"
REVISED = "revised"
#: ``ctx.notes`` key of the revised rule's three cards (texts), None once a robot took them
CARDS = "radio beam cards"
register_wording("radio card", "radio card {card} for register {register} next turn")
register_wording("radio program", "runs the radio beam's cards from register {register}")
register_wording("radio register", "register {register}: {card} (radio beam)")
shown.said("radio card", with_hits=True)
shown.untold("radio program", "the stage tables show it")
shown.untold("radio register", "the stage tables show it")


def receive(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or not ctx.undealt or TAMAGOTCHI in robot.statuses:  # it plays its robot's cards
        return
    fused = set(locked_registers(robot.damage))
    free = [reg for reg in range(1, 6) if reg not in fused and reg not in robot.locked]
    if not free:
        return
    card = ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt)))
    reg = free[0]
    robot.locked[reg] = card
    robot.option_data.setdefault(HELD, {})[str(reg)] = 2
    ctx.emit(robot, "radio card", {"card": str(card), "register": reg}, card=str(card))


def tune_in(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    if ctx.rules.radio_beam == REVISED:
        take_over(ctx, robot)
    else:
        receive(ctx, robot)


def tune_turning(ctx: TurnContext, robot: Robot, card: Card) -> None:
    if ctx.rules.radio_beam != REVISED:
        receive(ctx, robot)


def lay_out(ctx: TurnContext) -> None:
    """Revised rule, start of turn: three cards nobody holds, face down by the beam."""
    if ctx.rules.radio_beam != REVISED:
        return
    cards = [ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt))) for _ in range(min(3, len(ctx.undealt)))]
    ctx.notes[CARDS] = [str(c) for c in cards]


def take_over(ctx: TurnContext, robot: Robot) -> None:
    """Revised rule: the beam's cards replace the rest of the robot's program (registers 6-8 if need be)."""
    cards = ctx.notes.get(CARDS)
    phase = ctx.phase
    if not cards or not isinstance(phase, int) or robot.powered_down or robot.pos is None \
            or TAMAGOTCHI in robot.statuses:  # a tamagotchi plays its robot's cards, not the beam's
        return
    ctx.notes[CARDS] = None
    program = list(ctx.programs.get(robot.name) or [])[:phase]
    program += [None] * (phase - len(program))
    ctx.programs[robot.name] = [*program, *(parse_card(c) for c in cards)]
    ctx.emit(robot, "radio program", {"register": phase + 1}, cards=list(cards))


def extra_registers(ctx: TurnContext) -> None:
    """Revised rule, end of turn: registers 6-8 for robots whose radio cards run past register 5."""
    from ..card_moves import execute_card
    from ..movement import run_after_moves
    from .lasers import robot_lasers

    for register in (6, 7, 8):
        current = {r.name: card for r in ctx.robots if r.pos is not None and not r.powered_down
                   and len(prog := ctx.programs.get(r.name) or []) >= register and (card := prog[register - 1])}
        if not current:
            break
        ctx.step = f"radio register {register}"
        ctx.current = current
        for name, card in sorted(ctx.current.items(), key=lambda item: item[1].priority, reverse=True):
            robot = ctx.by_name[name]
            if robot.pos is not None and not robot.powered_down:
                ctx.emit(robot, "radio register", {"register": register, "card": str(card)}, card=str(card))
                execute_card(ctx, robot, card)
        run_after_moves(ctx)
        ctx.flush_moves()
        robot_lasers(ctx, register)
        ctx.apply_hits()
    ctx.current = {}


def broadcast(ctx: TurnContext, phase: int) -> None:
    if ctx.rules.radio_beam == REVISED:
        return
    beams = ctx.board.layer(NAME)
    for robot in ctx.robots:
        if robot.pos in beams:
            receive(ctx, robot)


RADIO_BEAM = Kind(
    name=NAME,
    doc=('a radio beam across the square: a robot entering it or turning in it, and again a robot in it when the '
         'radio beams act, receives a random card nobody holds, locked in its first free register for the next '
         'turn; no damage. House rule `radio_beam = revised`: the first robot entering it this turn plays the '
         'beam\'s three face-down cards instead of the rest of its program (registers 6-8 if need be)'),
    key='((( radio beam',
    summary="a radio beam: robots entering or standing in it get radio cards locked into next turn's program",
    hooks=(on("move.radio_beams", tune_in, ENTER), on("move.radio_beams", tune_turning, ROTATE)),
    steps={"start.options": lay_out, "lasers.radio_beams": broadcast, "end.radio_registers": extra_registers},
    glyph=lambda e: "(((",
    rank=27,
)
