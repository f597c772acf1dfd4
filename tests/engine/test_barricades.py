"""Barricades: a wall for robots until broken down, one hit a robot per register phase; the hits are kept
from turn to turn; lasers pass over it.

Rulings cited (docs/rulings.md): 13.23.
"""

from .scenarios import belt, element, laser, play, robot, run

BARRICADE = element("barricade", "r3c4", sides=["N"], strength=2)


def test_a_robot_running_into_it_stops_and_knocks_a_piece_off():
    p = play([BARRICADE], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r3c4"
    assert "barricade r3c4 N hit (1 of 2)" in p.texts("Twonky", 1)
    assert p.doc["board_state"]["barricade"] == {"r3c4 N": 1}


def test_the_second_hit_breaks_it_and_the_next_move_goes_through():
    program = {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510"]}
    p = play([BARRICADE], [robot("Twonky", "r3c4", "N")], program, phases=3)
    assert "barricade r3c4 N broken down" in p.texts("Twonky", 2)
    assert p.at("Twonky") == "r4c4"  # phases 1 and 2 hit it, phase 3 crosses the open side
    assert [e["phase"] for e in p.events("Twonky") if e["text"].startswith("move to")] == [3]


def test_the_hits_carry_over_into_the_next_turn_and_from_either_face():
    """A robot on the far side finishes off what another started a turn before."""
    state = {"barricade": {"r3c4 N": 1}}
    p = run([robot("Hulk", "r5c4", "S")], {"Hulk": ["FWD2 670", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"]},
            [BARRICADE], width=8, height=8, phases=1, board_state=state)
    assert p.at("Hulk") == "r4c4"
    assert "barricade r3c4 N broken down" in p.texts("Hulk", 1)
    assert p.doc["board_state"]["barricade"] == {"r3c4 N": 2}


def test_one_robot_counts_once_a_phase_and_belts_and_pushes_count_too():
    on_belt = play([element("barricade", "r3c4", sides=["N"], strength=3), belt("r3c4", "N")],
                   [robot("Twonky", "r3c4", "E")], {"Twonky": ["FWD1 490"]}, phases=1)
    # the robot drove east (off the belt): nothing hit it; a robot carried into it counts once
    assert "barricade" not in p_state(on_belt)
    carried = play([element("barricade", "r3c4", sides=["N"], strength=3), belt("r3c4", "N")],
                   [robot("Twonky", "r3c4", "W")], {}, phases=2)
    assert p_state(carried) == {"r3c4 N": 2} and carried.at("Twonky") == "r3c4"
    pushed = play([BARRICADE], [robot("Twonky", "r2c4", "N"), robot("Hulk", "r3c4", "E")],
                  {"Twonky": ["FWD2 670"]}, phases=1)
    assert pushed.at("Hulk") == "r3c4" and pushed.at("Twonky") == "r2c4"
    assert "barricade r3c4 N hit (1 of 2)" in pushed.texts("Hulk", 1)


def test_lasers_pass_over_it():
    p = play([BARRICADE, laser("r1c4", "N")], [robot("Twonky", "r5c4", "S")], {}, phases=1)
    assert [e["step"] for e in p.hits("Twonky")] == ["lasers"]


def p_state(outcome):
    return outcome.doc.get("board_state", {}).get("barricade", {})
