"""The story says why (issue 42): what moved a robot and by how much, what hit it and how much each, how it was
destroyed, and what a ghost did as the ghost's, never its robot's; the stage tables name what pulled or pushed a
robot. Every cause's words come from the module that makes the event (``engine/shown.py``)."""

from __future__ import annotations

from referee.boards.scenario import parse_scenario
from referee.engine import Rules, TurnResult, resolve_turn
from referee.render import make_players
from referee.render.story import robot_story
from referee.render.tables import build_report

from ..engine.scenarios import element, scenario, wall
from ..engine.scenarios import robot as bot


def _play(doc: dict, rules: Rules | None = None) -> tuple[object, TurnResult]:
    args = parse_scenario(doc)
    result = resolve_turn(args["board"], args["robots"], args["programs"], phases=doc.get("phases", 5),
                          seed=args["seed"], rules=rules or args["rules"], board_state=args["board_state"],
                          answers=args["answers"])
    return args["board"], result


def _story(doc: dict, name: str, rules: Rules | None = None) -> str:
    board, result = _play(doc, rules)
    return " ".join(robot_story(board, result, name, 3))  # type: ignore[arg-type]


def robot(name: str, at: str | None, facing: str = "N", **kw: object) -> dict:
    return bot(name, at, facing, first_turn=False, **kw)


def _cell(doc: dict, phase: int, row: str, name: str, rules: Rules | None = None) -> list[str]:
    board, result = _play(doc, rules)
    report = build_report(board, result, make_players([r.name for r in result.robots]), "RR-1", 3)  # type: ignore[arg-type]
    table = next(t for t in report.tables if t.key == f"stage{phase}")
    col = [c.robot for c in table.columns].index(name)
    return next(r for r in table.rows if r.key == row).cells[col]


# -- Spin is slid off a rising piston, then a magnet pulls it three registers running
PISTON_AND_MAGNET = scenario(
    [robot("Hammer", "r2c4", "N"), robot("Spin", "r6c6", "W")],
    {"Hammer": ["FWD1 490", "UTRN 10", "UTRN 20"], "Spin": ["LF90 70", "RT90 80", "LF90 90"]},
    [element("piston", "r3c4", colour="red", dir="E"), element("piston", "r6c6", colour="blue", dir="N"),
     element("magnet", "r10c6")], width=10, height=10, phases=3)


def test_a_robot_moved_by_a_piston_and_a_magnet_is_told_each_and_by_how_much():
    """Hammer drives onto the red piston: the blue one rises under Spin, which slides north off it (1 square);
    the magnet four squares north pulls it one square closer in each of registers 1-3 (3 squares)."""
    story = _story(PISTON_AND_MAGNET, "Spin")
    assert story.startswith("Spin, turn 3: moved 4 squares: 1 slid off a rising piston, 3 pulled by a magnet.")
    assert "Now at r10c6" in story
    assert _story(PISTON_AND_MAGNET, "Hammer").startswith("Hammer, turn 3: moved 1 square by its cards.")


def test_the_stage_table_names_what_slid_and_what_pulled_the_robot():
    moves, board = _cell(PISTON_AND_MAGNET, 1, "moves", "Spin"), _cell(PISTON_AND_MAGNET, 1, "board", "Spin")
    assert "slide to r7c6 (piston)" in moves
    assert "pulled to r8c6 (magnet)" in board


# -- Hammer in the crossfire: two robots' lasers, a board laser and a turret
def _crossfire(seed: int) -> dict:
    return scenario(
        [robot("Hammer", "r5c5", "N"), robot("Spin", "r5c2", "E"), robot("Zoom", "r2c5", "N")], {},
        [element("laser", "r5c8", dir="W"), element("turret", "r8c5", dir="S")], width=10, height=10, phases=1,
        seed=seed)


def test_each_hit_is_told_with_what_dealt_it():
    """Spin fires east and Zoom north into Hammer; the board laser at r5c8 fires west into it; the turret at
    r8c5, pointing south, fires at it when the turrets' first card is a movement card (seed 3: FWD2 780)."""
    board, result = _play(_crossfire(3))
    first = result.board_state.values["turret"]["cards"][0]
    assert not first.startswith(("LF90", "RT90", "UTRN")), f"seed 3 no longer draws a movement card: {first}"
    story = " ".join(robot_story(board, result, "Hammer", 3))  # type: ignore[arg-type]
    told = story.split("Took 4 damage: ", 1)[1].split(".", 1)[0]
    assert sorted(told.split(", ")) == ["Spin's laser 1", "Zoom's laser 1", "board laser at r5c8 1",
                                        "turret at r8c5 1"]


def test_a_robot_hit_twice_by_one_robot_is_told_the_sum():
    doc = scenario([robot("Hammer", "r5c5", "N"), robot("Spin", "r5c2", "E")], {}, width=10, height=10, phases=2)
    assert "Took 2 damage from Spin's laser." in _story(doc, "Hammer")


def test_a_robot_shot_down_is_told_by_whom():
    doc = scenario([robot("Hammer", "r5c5", "N", damage=9), robot("Spin", "r5c2", "E")], {}, width=10, height=10,
                   phases=1)
    assert "shot down at r5c5 by Spin's laser in register 1" in _story(doc, "Hammer")


def test_a_robot_that_drives_into_deep_water_and_sinks_is_told_into_deep_water():
    doc = scenario([robot("Hammer", "r5c5", "N", damage=9)], {"Hammer": ["FWD1 490"]},
                   [element("deep_water", "r6c5")], width=10, height=10, phases=1)
    assert "drove into deep water at r6c5 in register 1 (FWD1 490)" in _story(doc, "Hammer")


# -- Zoom's ghost, eleven squares from Zoom, glares east at Twonky
GHOST_FAR = scenario(
    [robot("Zoom", "r2c2", "N"), robot("Twonky", "r6c10", "N", damage=9)], {},
    [element("grave", "r1c9")], width=12, height=12, phases=1,
    board_state={"ghost": {"Zoom": {"at": "r6c7", "facing": "E", "cards": []}}})
GHOST_MOVES = scenario(  # the ghost drifts first (800); then Zoom drives into the wall on its west side
    [robot("Zoom", "r2c2", "W"), robot("Box", "r8c4", "N")], {"Zoom": ["FWD1 490"]},
    [element("grave", "r1c9"), wall("r2c2", "W")], width=12, height=12, phases=1,
    board_state={"ghost": {"Zoom": {"at": "r6c4", "facing": "N", "cards": ["FWD3 800"]}}})


def test_a_robot_destroyed_by_a_ghost_is_told_whose_ghost_and_where_it_stood():
    story = _story(GHOST_FAR, "Twonky")
    assert "destroyed at r6c10 by Zoom's ghost at r6c7 in register 1" in story


def test_a_ghosts_moves_are_the_ghosts_in_the_table_and_never_its_robots():
    for rules in (None, Rules().for_version(4)):  # a turn stored under version 4 logged them under Zoom
        board, result = _play(GHOST_MOVES, rules)
        report = build_report(board, result, make_players(["Zoom", "Box"]), "RR-1", 3)  # type: ignore[arg-type]
        table = report.tables[0]
        zoom = [c.robot for c in table.columns].index("Zoom")
        cells = {row.key: row.cells[zoom] for row in table.rows}
        assert not [item for cell in cells.values() for item in cell if "ghost" in item or "r9c4" in item], cells
        assert cells["moves"] == ["blocked by the wall on the W side of r2c2"]  # where Zoom is, not its ghost
        assert cells["position"] == ["r2c2 facing W"]
        assert "Zoom's ghost to r9c4" in table.notes
        story = " ".join(robot_story(board, result, "Zoom", 3))  # type: ignore[arg-type]
        assert story.startswith("Zoom, turn 3: stayed at r2c2. ")  # its ghost's moves are not Zoom's
        assert "Zoom's ghost" not in story and ("ghost" not in story.split(". ")[0])
        box = " ".join(robot_story(board, result, "Box", 3))  # type: ignore[arg-type]
        assert ("Took 1 damage from Zoom's ghost at r8c4." if rules is None else "Took 1 damage from ghost.") in box


def test_a_register_locked_by_damage_is_told_why():
    """Hammer, with 4 damage, takes a fifth from Spin's laser: register 5 locks (fuses)."""
    doc = scenario([robot("Hammer", "r5c5", "N", damage=4), robot("Spin", "r5c2", "E")], {}, width=10, height=10,
                   phases=1)
    assert "Took 1 damage from Spin's laser; register 5 fused by damage." in _story(doc, "Hammer")


def test_a_destruction_by_a_hit_from_nobody_names_no_one():
    doc = scenario([robot("Hammer", "r5c5", "N", damage=9)], {}, [element("grave", "r5c5")], width=10,
                   height=10, phases=1)
    story = _story(doc, "Hammer")
    assert story.startswith("Hammer, turn 3: destroyed (grave) at r5c5 in register 1."), story  # no "by"


def test_a_robot_pushed_by_a_pressor_beam_is_told_whose_weapon_moved_it():
    doc = scenario([robot("Spin", "r3c3", "N", options=["Pressor Beam"]), robot("Hulk", "r5c3", "E")], {},
                   width=10, height=10, phases=1, orders={"Spin": {"fire": {"1": "Pressor Beam"}}})
    assert _story(doc, "Hulk").startswith("Hulk, turn 3: moved 1 square: pushed by Spin's weapon.")
    assert _cell(doc, 1, "board", "Hulk") == ["pushed to r6c3 (Spin's weapon)"]


def test_a_ghosts_owner_is_told_whom_its_ghost_hit_and_destroyed():
    """Zoom's ghost at r6c7 glares east: Twonky at r6c10, with 9 damage, takes the tenth and is destroyed. Zoom's
    own story tells it (Zoom itself did nothing); Twonky's tells it from the other side."""
    zoom = _story(GHOST_FAR, "Zoom")
    assert "Your ghost at r6c7 hit Twonky for 1 and destroyed it." in zoom, zoom
    assert "Your ghost" not in _story(GHOST_FAR, "Twonky")


def test_a_drifting_ghost_that_hits_a_robot_is_told_to_its_owner_where_it_hit():
    """Zoom's ghost drifts three squares north-to-south over Box at r8c4 (FWD3 800): 1 damage there."""
    assert "Your ghost at r8c4 hit Box for 1." in _story(GHOST_MOVES, "Zoom")


def test_in_a_turn_stored_before_ghosts_named_their_hits_the_owner_is_told_nothing_it_cannot_know():
    story = _story(GHOST_MOVES, "Zoom", Rules().for_version(4))
    assert "ghost" not in story.lower(), story


def _end_cell(doc: dict, row: str, name: str) -> list[str]:
    board, result = _play(doc)
    report = build_report(board, result, make_players([r.name for r in result.robots]), "RR-1", 3)  # type: ignore[arg-type]
    table = next(t for t in report.tables if t.key == "end")
    col = [c.robot for c in table.columns].index(name)
    return next(r for r in table.rows if r.key == row).cells[col]


def test_the_end_table_names_the_repair_site_and_the_flag_that_repaired():
    """At the end of a five-register turn Hammer, on the repair site at r4c4, and Spin, on flag 2 at r7c7, both
    with damage, are repaired 1 each; the end table says where each repair came from."""
    doc = scenario([robot("Hammer", "r4c4", "N", damage=3), robot("Spin", "r7c7", "N", damage=3, flags=1)], {},
                   [element("repair", "r4c4"), element("flag", "r2c2", number=1),
                    element("flag", "r7c7", number=2), element("flag", "r1c9", number=3)], width=10, height=10,
                   phases=5)
    assert "+1 HP (repair site r4c4)" in _end_cell(doc, "hp", "Hammer")
    assert "+1 HP (flag 2)" in _end_cell(doc, "hp", "Spin")
