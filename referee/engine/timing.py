"""The timing table: every step of a turn, in order.

It follows the full timing sequence of the rule texts one to one (reveal program cards,
robots move, board elements move, resolve laser fire, touch checkpoints, end of turn), with
the few steps the postal and turn-report rules add (power-down repairs before anything moves,
virtual robots turning real, re-entry, power down, fused registers). Each step declares the hook
types it dispatches (:mod:`referee.engine.hooks`); a handler of another type is refused when its
kind registers. A board only runs the steps some element on it (or the core) owns, so a step
nothing owns costs nothing.

The table is made of two parts. :data:`CORE`, below, holds the steps of the core rules and the
options, those several element kinds share, and the rule texts' steps no kind acts in yet. A step
only one element kind acts in is declared in that kind's module, next to its handlers, with
:func:`declare` and the step it comes right after (``after=None``: first of its sequence):

    timing.declare("move.oil", timing.STOP, "oil slicks", after="move.ramp_slide")

:data:`TIMING` (the whole table, in order), :data:`STEP_IDS` and :data:`ORDER` are made from both;
``referee.engine.elements`` checks, once every kind is loaded, that every declared step found its
place (:func:`check_placed`).

The "robots move" sequence is not a series of steps run one after the other: its entries are
hooks consulted while a robot executes a card (card, cross, enter, rotate and stop hooks), and
within each hook type they run in the order of this table.
"""

from __future__ import annotations

from dataclasses import dataclass

START, REVEAL, MOVE, BOARD, LASERS, CHECKPOINTS, END = (
    "start of turn", "reveal program cards", "robots move", "board elements move",
    "resolve laser fire", "touch checkpoints", "end of turn")


#: hook types: what a handler of a step is called with (see :mod:`referee.engine.hooks`)
TURN, PHASE, CARD, CROSS, ENTER, ROTATE, STOP = "turn", "phase", "card", "cross", "enter", "rotate", "stop"


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    sequence: str
    summary: str
    #: the hook types this step dispatches; a handler of any other type is refused
    hooks: tuple[str, ...]


_SEQUENCE_HOOK = {START: TURN, END: TURN, REVEAL: PHASE, BOARD: PHASE, LASERS: PHASE, CHECKPOINTS: PHASE}


def _steps(sequence: str, *rows: tuple[str, ...]) -> list[Step]:
    """Rows of (id, summary) or, in the "robots move" sequence, (id, hook types..., summary)."""
    out = []
    for row in rows:
        sid, *types, summary = row
        out.append(Step(sid, sequence, summary, tuple(types) or (_SEQUENCE_HOOK[sequence],)))
    return out


#: the steps of the core rules, the options and the rule texts, and those several element kinds share, in order
CORE: tuple[Step, ...] = tuple(
    _steps(START,
           ("start.power_down", "robots powered down this turn repair all damage before anything moves"),
           ("start.options", "options declared for the whole turn (gyroscopic stabilizer, recompile)"))
    + _steps(REVEAL,
             ("reveal.options", "option cards replace revealed cards (abort switch, conditional program)"),
             ("reveal.randomizers", "robots on randomizers get a random card for this register"),
             ("reveal.virtualizers", "robots on virtualizers turn virtual; phase-driven elements switch"),
             ("reveal.radio_control", "radio-controlled robots take their controller's card"),
             ("reveal.tamagotchis", "tamagotchis take their robot's card"))
    + _steps(MOVE,
             ("move.options", CARD, "option cards change the card about to execute (brakes, crab legs...)"),
             ("move.pushes", CROSS, "robots push robots in their way"),
             ("move.walls", CROSS, "walls, doors, one-way walls, force fields and barricades block"),
             ("move.ledges", CROSS, ENTER, "ledges: no climbing without a ramp; dropping down costs 2 HP"),
             ("move.closed_doors", CROSS, "closed doors, active e-fences and elevators"),
             ("move.pits", ENTER, "pits, drains, trapdoors, bridges and sluices swallow robots"),
             ("move.trapdoor_weight", STOP, "a robot ending its move on a hydraulic trapdoor weighs on it"),
             ("move.teleporters", CARD, "movement cards executed on teleporters jump"),
             ("move.water", CARD, "the first square of a card executed in water, oil or soap is lost"),
             ("move.big_drain", STOP, "the big drain"),
             ("move.repulsors", ENTER, "repulsor fields"),
             ("move.flamers", ENTER, ROTATE, "entering or turning on an active flamer costs 1 HP"),
             ("move.fog", CARD, "fog"),
             ("move.ramps", ENTER, "moving up a ramp counts the ramp as a square"),
             ("move.balancing", STOP, "balancing platforms"),
             ("move.ramp_slide", STOP, "a robot that would stop on a ramp's extra square slides back"),
             ("move.dual_processor", STOP, "a dual processor's paired turn card, after the move"))
    + _steps(BOARD,
             ("board.air_shafts", "air shafts"),
             ("board.rotating_belts", "rotating belts take their new position"),
             ("board.hyper_belts_1", "hyper-speed belts move their first square"),
             ("board.express_1", "express belts move their first square"),
             ("board.belts", "express belts move their second square, conveyor belts their only one"),
             ("board.currents", "currents move robots in water"),
             ("board.molten_ore", "molten ore flows"),
             ("board.pushers", "active pushers push"),
             ("board.gears", "gears turn 90 degrees (big gears 180)"))
    + _steps(LASERS,
             ("lasers.fire", "board lasers and robot lasers hit, all at once"),
             ("lasers.option_pushes", "robots moved by options meet board elements again"))
    + _steps(CHECKPOINTS,
             ("checkpoints.touch", "flags and repair sites are touched: archive updated, flags counted"),
             ("checkpoints.tamagotchis", "flags a tamagotchi touched count for its robot"),
             ("checkpoints.turn_real", "virtual robots alone on their square turn real"),
             ("checkpoints.winner", "a robot that has touched every flag wins"))
    + _steps(END,
             ("end.repairs", "robots on flags and repair sites are repaired"),
             ("end.big_drain", "the big drain"),
             ("end.options", "robots on two-wrench sites may take an option"),
             ("end.flywheel", "a flywheel keeps an unused card for later turns"),
             ("end.turn_real", "robots through their first turn turn real if alone"),
             ("end.reentry", "destroyed robots with lives left re-enter at their archive"),
             ("end.circuit_breaker", "circuit breakers power down robots with 3 or more damage"),
             ("end.power_down", "announced power downs take effect; powered-down robots wake"),
             ("end.fuse", "registers are fused or released by the damage now held"))
)


#: the prefix of the step ids of each sequence, in turn order
PREFIXES: dict[str, str] = {"start": START, "reveal": REVEAL, "move": MOVE, "board": BOARD, "lasers": LASERS,
                            "checkpoints": CHECKPOINTS, "end": END}

#: the whole table in order: the core steps and every declared one placed (filled in place as kinds declare)
TIMING: list[Step] = []
#: step id -> step, for every step (core or declared)
STEP_IDS: dict[str, Step] = {}
#: step id -> its position in :data:`TIMING`
ORDER: dict[str, int] = {}
#: declared step id -> the step it comes right after (``"board."``: first of the sequence)
_AFTER: dict[str, str] = {}


class TimingError(ValueError):
    """A step that cannot be declared or placed."""


def declare(step_id: str, *row: str, after: str | None) -> Step:
    """Add an element kind's own step to the table, right after the step ``after`` of the same sequence
    (``None``: first of its sequence). ``row`` is the summary, preceded in the "robots move" sequence
    by the hook types the step dispatches (as the rows of :data:`CORE`). Returns the step."""
    prefix = step_id.split(".", 1)[0]
    sequence = PREFIXES.get(prefix)
    if sequence is None or not step_id.startswith(prefix + ".") or step_id == prefix + ".":
        raise TimingError(f"step {step_id!r}: its id starts with one of {', '.join(f'{p}.' for p in PREFIXES)}")
    if step_id in STEP_IDS:
        raise TimingError(f"step {step_id!r} is already in the timing table")
    types = row[:-1]
    if not row or (sequence == MOVE) != bool(types) or not set(types) <= {CARD, CROSS, ENTER, ROTATE, STOP}:
        raise TimingError(f"step {step_id!r}: give " + ("its hook types (card, cross, enter, rotate, stop), then "
                                                        if sequence == MOVE else "") + "its summary")
    if after is not None and not after.startswith(prefix + "."):
        raise TimingError(f"step {step_id!r} comes after a step of its own sequence ({prefix}.*), not {after!r}")
    anchor = after or prefix + "."
    taken = next((other for other, a in _AFTER.items() if a == anchor), None)
    if taken is not None:
        where = f"right after {after!r}" if after else f"first in {sequence!r}"
        raise TimingError(f"steps {taken!r} and {step_id!r} both come {where}: put one after the other")
    step = _steps(sequence, (step_id, *row))[0]
    STEP_IDS[step_id] = step
    _AFTER[step_id] = anchor
    _place()
    return step


def _place() -> None:
    """Make :data:`TIMING` and :data:`ORDER` from the core and the declared steps (in place)."""
    following = {anchor: sid for sid, anchor in _AFTER.items()}
    out: list[Step] = []

    def add(sid: str) -> None:  # a step, then the chain of declared steps right after it
        out.append(STEP_IDS[sid])
        nxt = following.get(sid)
        while nxt is not None:
            out.append(STEP_IDS[nxt])
            nxt = following.get(nxt)

    for prefix, sequence in PREFIXES.items():
        first = following.get(prefix + ".")
        if first is not None:
            add(first)
        for step in CORE:
            if step.sequence == sequence:
                add(step.id)
    TIMING[:] = out
    ORDER.clear()
    ORDER.update((s.id, i) for i, s in enumerate(TIMING))


def check_placed() -> None:
    """Refuse a declared step whose ``after`` names no step of the table."""
    lost = sorted(sid for sid in STEP_IDS if sid not in ORDER)
    if lost:
        raise TimingError("steps declared after a step the timing table does not have: "
                          + ", ".join(f"{sid} (after {_AFTER[sid]!r})" for sid in lost))


STEP_IDS.update((s.id, s) for s in CORE)
assert len(STEP_IDS) == len(CORE)
_place()
