"""Board lasers and robot lasers: beams, what stops them, the report format, and simultaneous hits.

Rulings cited (docs/rulings.md): 10, 17, 18.
"""

import pytest

from .scenarios import bot, laser, run, wall


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_board_laser_does_one_damage_per_beam(count):
    out = run([bot("Twonky", "r5c4", "S")], elements=[laser("r5c1", "E", count)], phases=1)
    assert out.damage("Twonky") == count
    assert [(e["text"], e["cause"]) for e in out.hits("Twonky", step="lasers")] == [(f"-{count} HP", "laser")]


def test_a_board_laser_beam_covers_its_own_mount_square():
    out = run([bot("Twonky", "r5c1", "S")], elements=[laser("r5c1", "E")], phases=1)
    assert out.damage("Twonky") == 1


def test_a_board_laser_hits_every_phase_a_robot_ends_in_the_beam():
    out = run([bot("Twonky", "r5c4", "S")], elements=[laser("r5c1", "E")], phases=3)
    assert out.damage("Twonky") == 3
    assert [e["phase"] for e in out.hits("Twonky", step="lasers")] == [1, 2, 3]


@pytest.mark.parametrize(("wall_at", "side"), [("r5c2", "E"), ("r5c3", "W")])
def test_a_wall_stops_a_board_laser(wall_at, side):
    out = run([bot("Twonky", "r5c4", "S")], elements=[laser("r5c1", "E"), wall(wall_at, side)], phases=1)
    assert out.damage("Twonky") == 0


def test_a_board_laser_hits_only_the_first_robot_in_line():
    out = run([bot("Near", "r5c3", "S"), bot("Far", "r5c6", "S")], elements=[laser("r5c1", "E")], phases=1)
    assert out.damage("Near") == 1
    assert out.damage("Far") == 0


def test_moving_through_a_beam_does_no_damage():
    out = run([bot("Twonky", "r4c4", "N")], {"Twonky": ["FWD2 670"]}, [laser("r5c1", "E", 3)], phases=1)
    assert out.at("Twonky") == "r6c4"
    assert out.damage("Twonky") == 0


def test_a_robot_fires_along_a_column_written_as_a_row_range():
    """The report's own example: a robot on r3c7 facing north fires through r4c7-r6c7 and hits Target."""
    out = run([bot("Gunner", "r3c7", "N"), bot("Target", "r6c7", "E")], phases=1)
    shots = out.events("Gunner", step="lasers")
    assert [(e["text"], e["hit"]) for e in shots] == [("r4-6c7", "Target")]
    assert out.damage("Target") == 1
    hit = out.events("Target", step="lasers", text="-1 HP")
    assert [(e["cause"], e["by"]) for e in hit] == [("laser", "Gunner")]


def test_a_robot_fires_along_a_row_to_the_edge_when_nothing_is_in_the_way():
    out = run([bot("Gunner", "r5c3", "E")], phases=1)
    assert [(e["text"], e["hit"]) for e in out.events("Gunner", step="lasers")] == [("r5c4-12", None)]


def test_a_robot_next_to_its_target_fires_into_one_square():
    out = run([bot("Gunner", "r5c3", "E"), bot("Target", "r5c4", "N")], phases=1)
    assert [(e["text"], e["hit"]) for e in out.events("Gunner", step="lasers")] == [("r5c4", "Target")]


def test_a_robot_laser_hits_only_the_first_robot():
    out = run([bot("Gunner", "r5c1", "E"), bot("Near", "r5c3", "N"), bot("Far", "r5c5", "N")], phases=1)
    assert [(e["text"], e["hit"]) for e in out.events("Gunner", step="lasers")] == [("r5c2-3", "Near")]
    assert out.damage("Near") == 1
    assert out.damage("Far") == 0


@pytest.mark.parametrize(("wall_at", "side"), [("r5c3", "E"), ("r5c4", "W")])
def test_a_wall_stops_a_robot_laser(wall_at, side):
    out = run([bot("Gunner", "r5c1", "E"), bot("Target", "r5c5", "N")], elements=[wall(wall_at, side)], phases=1)
    assert [(e["text"], e["hit"]) for e in out.events("Gunner", step="lasers")] == [("r5c2-3", None)]
    assert out.damage("Target") == 0


def test_a_robot_facing_a_wall_or_the_edge_logs_no_fire():
    out = run([bot("Walled", "r5c5", "N"), bot("Edge", "r1c3", "S")], elements=[wall("r5c5", "N")], phases=1)
    assert out.events("Walled", step="lasers") == []
    assert out.events("Edge", step="lasers") == []


def test_two_robots_on_their_last_hit_point_destroy_each_other():
    """Both hits land together: neither shot is cancelled by the other robot's destruction."""
    out = run([bot("Alpha", "r5c3", "E", damage=9), bot("Omega", "r5c6", "W", damage=9)], phases=1)
    assert out.at("Alpha") is None and out.at("Omega") is None
    assert {e["robot"] for e in out.events(step="lasers", text="destroyed")} == {"Alpha", "Omega"}
    assert {(e["robot"], e["hit"]) for e in out.events(step="lasers") if "hit" in e} == {("Alpha", "Omega"),
                                                                                         ("Omega", "Alpha")}


def test_a_board_laser_and_a_robot_laser_land_together():
    out = run([bot("Gunner", "r5c3", "E"), bot("Target", "r5c6", "N", damage=8)],
              elements=[laser("r5c12", "W")], phases=1)
    assert out.at("Target") is None
    assert [e["cause"] for e in out.events("Target", text="destroyed")] == ["laser"]


def test_the_tenth_point_of_damage_destroys():
    out = run([bot("Twonky", "r5c4", "S", damage=9, lives=3)], elements=[laser("r5c1", "E")], phases=1)
    tw = out.robot("Twonky")
    assert tw["at"] is None and tw["destroyed"] is True and tw["lives"] == 2
    assert out.texts("Twonky", step="lasers")[-2:] == ["-1 HP", "destroyed"]


def test_nine_damage_is_not_yet_destroyed():
    out = run([bot("Twonky", "r5c4", "S", damage=8)], elements=[laser("r5c1", "E")], phases=1)
    assert out.at("Twonky") == "r5c4"
    assert out.damage("Twonky") == 9
    assert out.robot("Twonky")["destroyed"] is False


def test_a_triple_laser_destroys_a_robot_with_three_hp():
    out = run([bot("Twonky", "r5c4", "S", damage=7)], elements=[laser("r5c1", "E", 3)], phases=1)
    assert out.at("Twonky") is None
    assert out.events("Twonky", text="destroyed")[0]["cause"] == "laser"
