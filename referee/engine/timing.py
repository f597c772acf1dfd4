"""The timing table: every step of a turn, in order, in one place.

It follows the full timing sequence of the rule texts one to one (reveal program cards,
robots move, board elements move, resolve laser fire, touch checkpoints, end of turn), with
the few steps the postal and turn-report rules add (power-down repairs before anything moves,
virtual robots turning real, re-entry, power down, fused registers). Each step declares the hook
types it dispatches (:mod:`referee.engine.hooks`); a handler of another type is refused when its
kind registers. A board only runs the steps some element on it (or the core) owns, so a step
nothing owns costs nothing.

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


TIMING: tuple[Step, ...] = tuple(
    _steps(START,
           ("start.power_down", "robots powered down this turn repair all damage before anything moves"),
           ("start.options", "options declared for the whole turn (gyroscopic stabilizer, recompile)"))
    + _steps(REVEAL,
             ("reveal.options", "option cards replace revealed cards (abort switch, conditional program)"),
             ("reveal.randomizers", "robots on randomizers get a random card for this register"),
             ("reveal.antigrav", "robots on antigravity fields start to fly"),
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
             ("move.mag_locks", CARD, CROSS, ENTER, "mag-locks"),
             ("move.water", CARD, "the first square of a card executed in water, oil or soap is lost"),
             ("move.deep_water", CARD, ENTER, "moving or turning in or through deep water costs 1 HP"),
             ("move.big_drain", STOP, "the big drain"),
             ("move.soap", CARD, "rotate cards on soap"),
             ("move.padded", STOP, "padded squares double movement"),
             ("move.ice", CARD, "robots starting on ice slide"),
             ("move.padded_walls", CROSS, "padded walls"),
             ("move.repulsors", ENTER, "repulsor fields"),
             ("move.flamers", ENTER, ROTATE, "entering or turning on an active flamer costs 1 HP"),
             ("move.napalm", ENTER, ROTATE, "napalm flamers"),
             ("move.pistons", ENTER, "pneumatic pistons"),
             ("move.crumbly", CARD, "rotate cards on crumbly ground sink in"),
             ("move.mirrors", CARD, "robots facing a mirror execute their card mirrored"),
             ("move.fog", CARD, "fog"),
             ("move.ramps", ENTER, "moving up a ramp counts the ramp as a square"),
             ("move.portals", ENTER, "portals move robots to the linked portal"),
             ("move.melting_beams", ENTER, ROTATE, "melting beams cost 1 HP and lock the register"),
             ("move.light_barriers", ENTER, "light barriers flip the flip belts"),
             ("move.radio_beams", ENTER, ROTATE, "radio beams hand out radio-controlled cards"),
             ("move.copy_machines", CROSS, "copy machines make a tamagotchi robot"),
             ("move.energizers", STOP, "energizers"),
             ("move.soporific_gas", STOP, "soporific gas powers robots down"),
             ("move.balancing", STOP, "balancing platforms"),
             ("move.ramp_slide", STOP, "a robot that would stop on a ramp's extra square slides back"),
             ("move.oil", STOP, "oil slicks"),
             ("move.puddles", ENTER, "puddles"),
             ("move.repeaters", STOP, "repeaters"),
             ("move.dual_processor", STOP, "a dual processor's paired turn card, after the move"),
             ("move.ghosts", ENTER, "robots moving through a ghost or onto it take 1 HP"))
    + _steps(BOARD,
             ("board.balancing", "balancing platforms slope under their load, at the end of the robots' moves"),
             ("board.particle_accelerators", "particle accelerators"),
             ("board.jacks", "jacks pop out"),
             ("board.air_shafts", "air shafts"),
             ("board.rotating_belts", "rotating belts take their new position"),
             ("board.hyper_belts_1", "hyper-speed belts move their first square"),
             ("board.express_1", "express belts move their first square"),
             ("board.belts", "express belts move their second square, conveyor belts their only one"),
             ("board.flip_belts", "flip belts"),
             ("board.magnets", "magnetic fields pull"),
             ("board.currents", "currents move robots in water"),
             ("board.molten_ore", "molten ore flows"),
             ("board.pushers", "active pushers push"),
             ("board.ventilators", "active ventilators blow the robots in their line away"),
             ("board.black_holes", "black holes pull robots in line one square closer"),
             ("board.gears", "gears turn 90 degrees (big gears 180)"),
             ("board.rotating_rooms", "rotating rooms"),
             ("board.crushers", "active crushers crush"))
    + _steps(LASERS,
             ("lasers.fire", "board lasers and robot lasers hit, all at once"),
             ("lasers.turrets", "turrets"),
             ("lasers.radiation", "radiation in register phase 5"),
             ("lasers.melting_beams", "melting beams"),
             ("lasers.flamers", "active flamers"),
             ("lasers.napalm", "active napalm flamers"),
             ("lasers.lava", "lava pits erupt"),
             ("lasers.deep_water", "deep water"),
             ("lasers.ghosts", "ghosts"),
             ("lasers.graves", "graves"),
             ("lasers.molten_ore", "molten ore"),
             ("lasers.radio_beams", "radio beams"),
             ("lasers.radioactive_waste", "radioactive waste"),
             ("lasers.option_pushes", "robots moved by options meet board elements again"))
    + _steps(CHECKPOINTS,
             ("checkpoints.touch", "flags and repair sites are touched: archive updated, flags counted"),
             ("checkpoints.tamagotchis", "flags a tamagotchi touched count for its robot"),
             ("checkpoints.chop_shops", "chop shops"),
             ("checkpoints.reset_exchange", "reset sites exchange a card"),
             ("checkpoints.radioactive_options", "radioactive waste hands out options"),
             ("checkpoints.turn_real", "virtual robots alone on their square turn real"),
             ("checkpoints.winner", "a robot that has touched every flag wins"))
    + _steps(END,
             ("end.radio_registers", "robots running a radio beam's cards past register 5 play registers 6-8"),
             ("end.repairs", "robots on flags and repair sites are repaired"),
             ("end.big_drain", "the big drain"),
             ("end.options", "robots on two-wrench sites may take an option"),
             ("end.reset_choose", "reset sites: choose a card for next turn"),
             ("end.reset_random", "reset sites: five random cards for next turn"),
             ("end.flywheel", "a flywheel keeps an unused card for later turns"),
             ("end.turn_real", "robots through their first turn turn real if alone"),
             ("end.tamagotchis", "tamagotchis gone leave the game; options they gained go to their robots"),
             ("end.reentry", "destroyed robots with lives left re-enter at their archive"),
             ("end.circuit_breaker", "circuit breakers power down robots with 3 or more damage"),
             ("end.power_down", "announced power downs take effect; powered-down robots wake"),
             ("end.fuse", "registers are fused or released by the damage now held"))
)

STEP_IDS: dict[str, Step] = {s.id: s for s in TIMING}
ORDER: dict[str, int] = {s.id: i for i, s in enumerate(TIMING)}
assert len(STEP_IDS) == len(TIMING)

PHASE_SEQUENCES = (REVEAL, BOARD, LASERS, CHECKPOINTS)
