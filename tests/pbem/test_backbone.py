"""The timing table is the backbone: steps run in its order, and a step nothing owns costs nothing."""

from referee.engine import KINDS, build_board
from referee.engine.timing import ORDER, STEP_IDS, TIMING

from .conftest import play, robot


def test_every_kind_acts_only_in_steps_of_the_table():
    for kind in KINDS.values():
        assert set(kind.steps) <= set(STEP_IDS), kind.name


def test_the_table_keeps_the_order_of_the_timing_rules():
    ids = [s.id for s in TIMING]
    for earlier, later in [("reveal.randomizers", "move.pushes"), ("board.express_1", "board.belts"),
                           ("board.belts", "board.currents"), ("board.currents", "board.pushers"),
                           ("board.pushers", "board.gears"), ("board.gears", "board.crushers"),
                           ("board.crushers", "lasers.fire"), ("lasers.fire", "checkpoints.touch"),
                           ("checkpoints.touch", "end.repairs"), ("move.teleporters", "move.water"),
                           ("move.ramps", "move.ramp_slide")]:
        assert ids.index(earlier) < ids.index(later)
    assert len(ORDER) == len(TIMING) > 70


def test_a_board_runs_only_the_steps_its_elements_own():
    bare = build_board({"width": 4, "height": 4, "elements": []})
    assert bare.plan() == {}
    belts = build_board({"width": 4, "height": 4, "elements": [{"kind": "current", "at": "r1c1", "dir": "E"}]})
    assert list(belts.plan()) == ["board.currents"]


def test_one_phase_follows_the_table_from_reveal_to_checkpoints():
    elements = [{"kind": "randomizer", "at": "r1c1"}, {"kind": "express", "at": "r2c2", "dir": "N"},
                {"kind": "belt", "at": "r3c2", "dir": "N"}, {"kind": "current", "at": "r4c2", "dir": "N"},
                {"kind": "pusher", "at": "r5c2", "dir": "E", "phases": [1]},
                {"kind": "gear", "at": "r5c3", "turn": "left"},
                {"kind": "flag", "at": "r5c3", "number": 1}, {"kind": "flag", "at": "r8c8", "number": 2}]
    p = play(elements, [robot("Twonky", "r2c2", "W"), robot("Lucky", "r1c1", "S")],
             {"Lucky": ["UTRN 10"]})
    steps = [e["step"] for e in p.events() if e["robot"] == "Twonky" and e["step"] != "lasers"]
    assert steps == ["express", "belts", "currents", "pushers", "gears", "checkpoints", "checkpoints"]
    assert p.at("Twonky") == "r5c3"
    assert p.robots["Twonky"]["flags"] == 1
    assert p.events()[0]["step"] == "randomizers"


def test_a_step_label_names_steps_of_one_sequence_only():
    """Events carry the label: 'flamers' is the laser step, the robots' step is 'robots'."""
    from referee.engine.resolve import label
    from referee.engine.timing import END, START

    sequences: dict[str, set[str]] = {}
    for step in TIMING:
        sequences.setdefault(label(step.id), set()).add(step.sequence)
    shared = {name: seqs for name, seqs in sequences.items() if len(seqs) > 1}
    assert shared == {"power down": {START, END}}  # told apart by the event's phase, "start" or "end"
    assert label("move.flamers") == "robots" and label("lasers.flamers") == "flamers"
    assert label("board.molten_ore") != label("lasers.molten_ore")
