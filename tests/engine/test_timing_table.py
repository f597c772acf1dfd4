"""The timing table is put together from the core rows and the steps element kinds declare in their own
modules (``timing.declare(..., after=...)``): the order of the rule texts is kept, a step goes exactly where
its kind says, and a declaration the table cannot take is refused when its module loads.

Rulings cited (docs/rulings.md): 2.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from referee.engine import KINDS
from referee.engine.timing import CORE, ORDER, STEP_IDS, TIMING, TimingError, check_placed, declare
from tests.servers.processes import patience

#: the timing sequence as the rule texts give it (and the postal rules add to it): a new step may come in
#: between, none of these may change places
RULE_TEXT_ORDER = [
    "start.power_down", "start.options", "reveal.options", "reveal.randomizers", "reveal.antigrav",
    "reveal.virtualizers", "reveal.radio_control", "reveal.tamagotchis", "move.options", "move.pushes",
    "move.walls", "move.ledges", "move.closed_doors", "move.pits", "move.teleporters", "move.mag_locks",
    "move.water", "move.deep_water", "move.big_drain", "move.soap", "move.padded", "move.ice",
    "move.padded_walls", "move.repulsors", "move.flamers", "move.napalm", "move.pistons", "move.crumbly",
    "move.mirrors", "move.fog", "move.ramps", "move.portals", "move.melting_beams", "move.light_barriers",
    "move.radio_beams", "move.copy_machines", "move.energizers", "move.soporific_gas", "move.balancing",
    "move.ramp_slide", "move.oil", "move.puddles", "move.repeaters", "move.dual_processor", "move.ghosts",
    "board.balancing", "board.particle_accelerators", "board.jacks", "board.air_shafts", "board.rotating_belts",
    "board.hyper_belts_1", "board.express_1", "board.belts", "board.flip_belts", "board.magnets",
    "board.currents", "board.molten_ore", "board.pushers", "board.ventilators", "board.black_holes",
    "board.gears", "board.rotating_rooms", "board.crushers", "lasers.fire", "lasers.turrets", "lasers.radiation",
    "lasers.melting_beams", "lasers.flamers", "lasers.napalm", "lasers.lava", "lasers.deep_water",
    "lasers.ghosts", "lasers.graves", "lasers.molten_ore", "lasers.radio_beams", "lasers.radioactive_waste",
    "lasers.option_pushes", "checkpoints.touch", "checkpoints.tamagotchis", "checkpoints.chop_shops",
    "checkpoints.reset_exchange", "checkpoints.radioactive_options", "checkpoints.turn_real",
    "checkpoints.winner", "end.radio_registers", "end.repairs", "end.big_drain", "end.options",
    "end.reset_choose", "end.reset_random", "end.flywheel", "end.turn_real", "end.tamagotchis", "end.reentry",
    "end.circuit_breaker", "end.power_down", "end.fuse"
]


def test_every_step_of_the_rule_texts_keeps_its_place():
    placed = [s.id for s in TIMING if s.id in set(RULE_TEXT_ORDER)]
    assert placed == RULE_TEXT_ORDER
    assert [s.id for s in TIMING] == sorted(ORDER, key=ORDER.get)
    check_placed()


def test_a_step_declared_by_a_kind_is_acted_in_by_that_kinds_module_only():
    modules: dict[str, set[str]] = {}
    for kind in KINDS.values():
        for step_id, fn in [*kind.steps.items(), *((h.step, h.fn) for h in kind.hooks)]:
            modules.setdefault(step_id, set()).add(fn.__module__)
    core = {s.id for s in CORE}
    declared = set(STEP_IDS) - core
    assert {"move.oil", "lasers.flamers", "board.crushers", "end.reset_choose"} <= declared
    for step_id in declared:
        assert len(modules.get(step_id, ())) <= 1, step_id  # (some kinds hook in with ``install``)
    assert modules["move.oil"] == {"referee.engine.elements.oil"}
    assert len(modules["move.pits"]) > 1 and "move.pits" in core  # pits, drains, trapdoors...: in the core rows


def test_oil_says_where_its_step_goes():
    ids = [s.id for s in TIMING]
    assert ids.index("move.oil") == ids.index("move.ramp_slide") + 1
    assert STEP_IDS["move.oil"].sequence == "robots move"
    assert next(s.id for s in TIMING if s.sequence == "board elements move") == "board.balancing"  # after=None


@pytest.mark.parametrize("args, kwargs, says", [
    (("move.oil", "stop", "oil again"), {"after": "move.pits"}, "already in the timing table"),
    (("belts.slow", "a step of no sequence"), {"after": None}, "its id starts with one of"),
    (("move.tar", "tar pits"), {"after": "move.pits"}, "its hook types"),
    (("move.tar", "sideways", "tar pits"), {"after": "move.pits"}, "its hook types"),
    (("board.tar", "enter", "tar pits"), {"after": "board.gears"}, "its summary"),
    (("board.tar", "tar pits"), {"after": "move.pits"}, "its own sequence"),
    (("move.tar", "enter", "tar pits"), {"after": "move.ramp_slide"}, "both come right after 'move.ramp_slide'"),
    (("board.tar", "tar pits"), {"after": None}, "both come first in 'board elements move'"),
])
def test_a_declaration_the_table_cannot_take_is_refused(args, kwargs, says):
    before = list(TIMING)
    with pytest.raises(TimingError, match=says.replace("(", r"\(")):
        declare(*args, **kwargs)
    assert before == TIMING


def test_a_step_declared_after_a_step_nobody_has_is_refused_once_the_kinds_are_loaded():
    code = ("from referee.engine import timing\n"
            "timing.declare('move.tar', timing.ENTER, 'tar pits', after='move.nowhere')\n"
            "timing.check_placed()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=patience(120))
    assert done.returncode != 0
    assert "move.tar (after 'move.nowhere')" in done.stderr
