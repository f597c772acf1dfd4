"""Conveyor and express belts: how far they carry, when they turn a robot, and their conflicts.

Rulings cited (docs/rulings.md): 12, 13, 14.
"""

import pytest

from .scenarios import belt, bot, express, pit, run, wall


def test_a_conveyor_belt_carries_a_robot_one_square():
    out = run([bot("Rider", "r2c3", "E")], elements=[belt("r1c3-r6c3", "N")], phases=1)
    assert out.at("Rider") == "r3c3"
    assert out.facing("Rider") == "E"
    assert [(e["step"], e["text"]) for e in out.events("Rider", phase=1) if e["step"] != "lasers"] == [
        ("belts", "conveyed to r3c3")]


def test_an_express_belt_carries_a_robot_two_squares():
    out = run([bot("Rider", "r2c3", "E")], elements=[express("r1c3-r6c3", "N")], phases=1)
    assert out.at("Rider") == "r4c3"
    conveyed = [(e["step"], e["text"]) for e in out.events("Rider") if e["text"].startswith("conveyed")]
    assert conveyed == [("express", "conveyed to r3c3"), ("belts", "conveyed to r4c3")]


def test_an_express_belt_moves_a_second_time_only_if_still_on_a_belt():
    """The express run ends at r2c3: its first square drops the robot on plain floor."""
    out = run([bot("Rider", "r2c3", "E")], elements=[express("r1c3-r2c3", "N")], phases=1)
    assert out.at("Rider") == "r3c3"


def test_an_express_belt_hands_a_robot_on_to_a_normal_belt_for_its_second_square():
    out = run([bot("Rider", "r2c3", "S")], elements=[express("r2c3", "N"), belt("r3c3", "N")], phases=1)
    assert out.at("Rider") == "r4c3"


def test_a_normal_belt_onto_an_express_belt_moves_one_square_only():
    out = run([bot("Rider", "r2c3", "S")], elements=[belt("r2c3", "N"), express("r3c3-r6c3", "N")], phases=1)
    assert out.at("Rider") == "r3c3"


def test_express_belts_move_their_first_square_before_normal_belts_move():
    """Express and Plain are both carried toward r5c5. Express gets there in the express step (a plain
    floor square, so no second move); Plain's belt then runs into a robot standing still and has no effect."""
    out = run([bot("Express", "r5c4", "S"), bot("Plain", "r4c5", "W")],
              elements=[express("r5c4", "E"), belt("r4c5", "N")], phases=1)
    assert out.at("Express") == "r5c5"
    assert out.at("Plain") == "r4c5"


@pytest.mark.parametrize(("second", "facing"), [("N", "W"), ("S", "E")])
def test_a_belt_turns_the_robot_it_carries_onto_a_perpendicular_belt(second, facing):
    """East-running belt onto a north one turns the rider left (N -> W); onto a south one, right."""
    out = run([bot("Rider", "r5c3", "N")], elements=[belt("r5c3", "E"), belt("r5c4", second)], phases=1)
    assert out.at("Rider") == "r5c4"
    assert out.facing("Rider") == facing
    assert out.texts("Rider", step="belts")[:2] == ["conveyed to r5c4", f"face {facing}"]


def test_an_express_belt_turns_its_rider_on_each_corner():
    """Two corners in one phase: E onto N (left), then N onto W (left again)."""
    out = run([bot("Rider", "r5c3", "E")],
              elements=[express("r5c3", "E"), express("r5c4", "N"), express("r6c4", "W")], phases=1)
    assert out.at("Rider") == "r6c4"
    assert out.facing("Rider") == "W"


def test_a_belt_onto_an_opposite_belt_does_not_turn_the_robot():
    out = run([bot("Rider", "r5c3", "N")], elements=[belt("r5c3", "E"), belt("r5c4", "W")], phases=1)
    assert out.facing("Rider") == "N"


def test_driving_onto_a_belt_corner_does_not_turn_the_robot():
    """Driver drives east onto a north-running belt: no turn; the belt then carries it north."""
    out = run([bot("Driver", "r5c3", "E")], {"Driver": ["FWD1 490"]}, [belt("r5c4-r7c4", "N")], phases=1)
    assert out.at("Driver") == "r6c4"
    assert out.facing("Driver") == "E"
    assert not [t for t in out.texts("Driver") if t.startswith("face")]


def test_two_robots_carried_into_one_floor_square_both_stay():
    out = run([bot("West", "r5c3", "S"), bot("East", "r5c5", "S")],
              elements=[belt("r5c3", "E"), belt("r5c5", "W")], phases=1)
    assert out.at("West") == "r5c3"
    assert out.at("East") == "r5c5"


def test_two_robots_carried_into_one_belt_square_the_one_moving_along_it_goes():
    """Along comes up the north belt into r5c4; Across would join it from the side; Along goes."""
    out = run([bot("Along", "r4c4", "S"), bot("Across", "r5c3", "S")],
              elements=[belt("r3c4-r6c4", "N"), belt("r5c3", "E")], phases=1)
    assert out.at("Along") == "r5c4"
    assert out.at("Across") == "r5c3"


def test_two_robots_carried_into_a_belt_square_neither_along_it_both_stay():
    out = run([bot("West", "r5c3", "S"), bot("East", "r5c5", "S")],
              elements=[belt("r5c3", "E"), belt("r5c5", "W"), belt("r5c4", "N")], phases=1)
    assert out.at("West") == "r5c3"
    assert out.at("East") == "r5c5"


def test_a_belt_does_not_push_a_robot_standing_in_the_way():
    out = run([bot("Rider", "r5c3", "S"), bot("Blocker", "r5c4", "S")], elements=[belt("r5c3", "E")], phases=1)
    assert out.at("Rider") == "r5c3"
    assert out.at("Blocker") == "r5c4"


def test_a_robot_on_the_belt_ahead_moves_out_of_the_way():
    out = run([bot("Rider", "r5c3", "S"), bot("Ahead", "r5c4", "S")], elements=[belt("r5c3-r5c6", "E")], phases=1)
    assert out.at("Rider") == "r5c4"
    assert out.at("Ahead") == "r5c5"


def test_two_robots_carried_head_on_into_each_other_both_stay():
    out = run([bot("West", "r5c3", "S"), bot("East", "r5c4", "S")],
              elements=[belt("r5c3", "E"), belt("r5c4", "W")], phases=1)
    assert out.at("West") == "r5c3"
    assert out.at("East") == "r5c4"


def test_robots_on_a_closed_ring_of_belts_all_move():
    ring = [belt("r5c5", "E"), belt("r5c6", "N"), belt("r6c6", "W"), belt("r6c5", "S")]
    robots = [bot("A", "r5c5", "S"), bot("B", "r5c6", "S"), bot("C", "r6c6", "S"), bot("D", "r6c5", "S")]
    out = run(robots, elements=ring, phases=1)
    assert [out.at(n) for n in "ABCD"] == ["r5c6", "r6c6", "r6c5", "r5c5"]
    # every robot was carried round a corner to its left
    assert [out.facing(n) for n in "ABCD"] == ["E", "E", "E", "E"]


def test_a_wall_stops_a_belt():
    out = run([bot("Rider", "r5c3", "S")], elements=[belt("r5c3", "E"), wall("r5c3", "E")], phases=1)
    assert out.at("Rider") == "r5c3"


def test_a_belt_can_carry_a_robot_into_a_pit():
    out = run([bot("Rider", "r5c3", "S")], elements=[belt("r5c3", "E"), pit("r5c4")], phases=1)
    assert out.at("Rider") is None
    assert out.events("Rider", text="destroyed")[0]["cause"] == "pit"


def test_a_belt_can_carry_a_robot_off_an_open_edge():
    out = run([bot("Rider", "r5c12", "S")], elements=[belt("r5c12", "E")], phases=1)
    assert out.at("Rider") is None
    assert out.events("Rider", text="destroyed")[0]["cause"] == "edge"


def test_with_the_fence_a_belt_into_the_edge_costs_two_hp():
    out = run([bot("Rider", "r5c12", "S")], elements=[belt("r5c12", "E")], phases=1, rules={"edge": "fence"})
    assert out.at("Rider") == "r5c12"
    assert out.damage("Rider") == 2
    assert out.events("Rider", text="-2 HP")[0]["cause"] == "fence"


def test_with_the_fence_an_express_belt_into_the_edge_costs_two_hp_once():
    """The fence ends the belt's movement: the express belt's second square is not a second try."""
    out = run([bot("Rider", "r5c12", "S")], elements=[express("r5c12", "E")], phases=1, rules={"edge": "fence"})
    assert out.at("Rider") == "r5c12"
    assert out.damage("Rider") == 2
    assert len(out.events("Rider", text="-2 HP")) == 1


def test_a_queue_behind_a_blocked_robot_stays_put():
    out = run([bot("A", "r5c3", "S"), bot("B", "r5c4", "S"), bot("C", "r5c5", "S")],
              elements=[belt("r5c3-r5c5", "E"), wall("r5c5", "E")], phases=1)
    assert [out.at(n) for n in "ABC"] == ["r5c3", "r5c4", "r5c5"]


def test_a_virtual_robot_does_not_take_part_in_belt_conflicts():
    out = run([bot("Real", "r5c3", "S"), bot("Ghost", "r5c5", "S", virtual=True)],
              elements=[belt("r5c3", "E"), belt("r5c5", "W")], phases=1)
    assert out.at("Real") == out.at("Ghost") == "r5c4"
