"""Ghosts: they rise from graves for robots entering the board, drift by their parent's spare cards in
priority order with the robots, pass through robots hurting them, and glare when lasers fire.

Rulings cited (docs/rulings.md): 13.28, 44.4.
"""

from referee.boards.scenario import simulate

from .scenarios import Outcome, element, scenario, wall
from .scenarios import robot as bot

GRAVES = [element("grave", "r1c8"), element("grave", "r8c1")]


def haunt(robots, programs, ghosts=None, *, elements=(), phases=1, seed=0):
    """A few phases on an 8 x 8 floor with two graves; ``ghosts``: the ghosts already about."""
    top = {"phases": phases, "seed": seed}
    if ghosts:
        top["board_state"] = {"ghost": ghosts}
    return Outcome(simulate(scenario(robots, programs, [*GRAVES, *elements], width=8, height=8, **top)),
                   own_fire=False)


def robot(name, at, facing="N", **kw):
    return bot(name, at, facing, first_turn=False, **kw)  # not just placed: raises no ghost


def ghost_events(p, name):
    return p.ghost(name)


def test_a_robot_entering_the_board_raises_a_ghost_on_the_nearest_grave():
    p = haunt([bot("Twonky", "r6c2", "E", first_turn=True)],
              {"Twonky": ["RT90 80", "RT90 100", "RT90 120", "RT90 140", "RT90 160"]}, phases=5)
    assert p.ghost_texts("Twonky", 1)[0] == "ghost rises at r8c1"  # 3 squares away; r1c8 is 11


def test_a_ghost_plays_at_most_three_spare_cards_and_stands_still_in_registers_4_and_5():
    cards = ["RT90 80", "RT90 100", "RT90 120", "RT90 140", "RT90 160"]
    p = haunt([bot("Twonky", "r6c2", "E", first_turn=True)], {"Twonky": cards}, phases=5)
    played = [e for e in ghost_events(p, "Twonky") if "card" in e]
    assert played and {e["phase"] for e in played} <= {1, 2, 3}
    assert not {e["card"] for e in played} & set(cards)  # drawn from the cards nobody holds
    assert len({e["card"] for e in played}) == len(played) == len({e["phase"] for e in played})  # one a register


def test_the_ghost_of_a_robot_with_four_damage_does_not_move_all_turn():
    p = haunt([bot("Twonky", "r6c2", "E", first_turn=True, damage=4)],
              {"Twonky": ["RT90 80", "RT90 100", "RT90 120", "RT90 140", "RT90 160"]}, phases=5)
    assert [e["text"] for e in ghost_events(p, "Twonky")] == ["ghost rises at r8c1"]


def test_a_ghost_moves_through_a_robot_in_priority_order_hurting_it_without_pushing_it():
    ghost = {"Twonky": {"at": "r4c4", "facing": "N", "cards": ["FWD2 700"]}}
    robots = [robot("Twonky", "r1c1", "N"), robot("Box", "r5c4", "W")]
    p = haunt(robots, {"Twonky": ["UTRN 10"], "Box": ["UTRN 20"]}, ghost)
    assert p.at("Box") == "r5c4"
    assert [(h["step"], h["cause"], h["by"]) for h in p.hits("Box")] == [("robots", "ghost", "Twonky's ghost r5c4")]
    assert next(e for e in p.ghost("Twonky") if e["text"] == "ghost to r6c4")["card"] == "FWD2 700"


def test_a_robot_with_a_higher_priority_gets_out_of_the_ghosts_way_first():
    ghost = {"Twonky": {"at": "r4c4", "facing": "N", "cards": ["FWD2 700"]}}
    robots = [robot("Twonky", "r1c1", "N"), robot("Box", "r5c4", "E")]
    p = haunt(robots, {"Twonky": ["UTRN 10"], "Box": ["FWD3 800"]}, ghost)
    assert p.at("Box") == "r5c7"
    assert p.damage("Box") == 0


def test_a_robot_moving_through_a_ghost_takes_one_damage():
    ghost = {"Twonky": {"at": "r3c4", "facing": "E", "cards": []}}
    p = haunt([robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 700"]}, ghost)
    assert p.at("Twonky") == "r4c4"
    assert [(h["step"], h["cause"], h["by"]) for h in p.hits("Twonky")] == [("robots", "ghost", "Twonky's ghost r3c4")]


def test_walls_stop_a_ghost_and_the_board_edge_ends_it():
    ghost = {"Twonky": {"at": "r4c4", "facing": "N", "cards": ["FWD3 800"]}}
    p = haunt([robot("Twonky", "r1c1", "E")], {"Twonky": ["UTRN 10"]}, ghost, elements=[wall("r5c4", "N")])
    assert p.ghost_texts("Twonky", 1)[0] == "ghost to r5c4"
    ghost = {"Twonky": {"at": "r7c4", "facing": "N", "cards": ["FWD3 800"]}}
    p = haunt([robot("Twonky", "r1c1", "E")], {"Twonky": ["UTRN 10"]}, ghost)
    assert p.ghost_texts("Twonky", 1)[0] == "ghost gone"
    assert "ghost" not in (p.doc.get("board_state") or {})


def test_when_lasers_fire_a_ghost_hurts_robots_in_its_square_and_the_first_in_its_line_of_sight():
    ghost = {"Twonky": {"at": "r3c2", "facing": "E", "cards": []}}
    robots = [robot("Twonky", "r3c6", "N"), robot("Box", "r3c7", "N"), robot("Ghosty", "r3c2", "S", virtual=True)]
    p = haunt(robots, {"Twonky": ["UTRN 10"], "Box": ["UTRN 20"], "Ghosty": ["UTRN 30"]}, ghost)
    assert [(h["step"], h["by"]) for h in p.hits("Twonky")] == [("ghosts", "Twonky's ghost r3c2")]  # in its sight
    assert [(h["step"], h["by"]) for h in p.hits("Ghosty")] == [("ghosts", "Twonky's ghost r3c2")]  # in its square
    assert p.damage("Box") == 0


def test_the_ghost_of_a_robot_off_the_board_fades_as_the_next_turn_begins():
    ghost = {"Twonky": {"at": "r4c4", "facing": "N"}, "Hammer": {"at": "r5c5", "facing": "S"}}
    robots = [robot("Twonky", None, "N", lives=2, archive="r1c1"), robot("Hammer", "r2c2", "E", damage=4)]
    p = haunt(robots, {"Hammer": ["UTRN 10"]}, ghost)
    assert p.ghost_texts("Twonky", 1) == ["ghost gone"]
    assert set(p.doc["board_state"]["ghost"]) == {"Hammer"}  # a robot with 4 damage keeps a ghost that stays put
    assert p.doc["board_state"]["ghost"]["Hammer"]["at"] == "r5c5"


def test_what_a_ghost_does_is_logged_as_the_ghosts_never_under_its_robot():
    """Rules version 5 (issue 42): Twonky stays at r1c1 while its ghost drifts from r4c4 through Box at r5c4; no
    event of Twonky's says the ghost's squares, and Box's hit names the ghost and the square it stood on."""
    ghost = {"Twonky": {"at": "r4c4", "facing": "N", "cards": ["FWD2 700"]}}
    p = haunt([robot("Twonky", "r1c1", "N"), robot("Box", "r5c4", "W")], {"Twonky": ["UTRN 10"], "Box": ["UTRN 20"]},
              ghost)
    assert not [e for e in p.events("Twonky") if "ghost" in e["text"]]
    assert p.ghost_texts("Twonky") == ["ghost to r6c4"]
    assert p.hits("Box")[0]["by"] == "Twonky's ghost r5c4"


def test_a_turn_stored_under_rules_version_4_replays_its_ghosts_events_under_the_robot():
    from referee.boards.scenario import parse_scenario
    from referee.engine import Rules, resolve_turn

    ghost = {"ghost": {"Twonky": {"at": "r4c4", "facing": "N", "cards": ["FWD2 700"]}}}
    doc = scenario([robot("Twonky", "r1c1", "N"), robot("Box", "r5c4", "W")],
                   {"Twonky": ["UTRN 10"], "Box": ["UTRN 20"]}, GRAVES, width=8, height=8, phases=1,
                   board_state=ghost)
    args = parse_scenario(doc)
    for version, parent, by in ((4, "Twonky", None), (5, None, "Twonky's ghost r5c4")):
        out = resolve_turn(args["board"], args["robots"], args["programs"], phases=1, seed=0,
                           rules=Rules().for_version(version), board_state=args["board_state"])
        moves = [e for e in out.events if e.kind == "ghost moves"]
        hit = next(e for e in out.events if e.kind == "damage")
        assert [(e.robot, (e.data or {}).get("ghost")) for e in moves] == [(parent, None if parent else "Twonky")]
        assert (hit.robot, (hit.data or {}).get("by")) == ("Box", by)
