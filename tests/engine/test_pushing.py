"""Robots pushing robots: one square per square moved, chains, and what stops or swallows a chain.

Rulings cited (docs/rulings.md): 5, 6, 8, 15.
"""

from .scenarios import bot, pit, run, wall


def test_a_moving_robot_pushes_the_robot_in_its_way():
    out = run([bot("Pusher", "r5c2", "E"), bot("Pushed", "r5c3", "N")], {"Pusher": ["FWD1 490"]}, phases=1)
    assert out.at("Pusher") == "r5c3"
    assert out.at("Pushed") == "r5c4"
    assert out.facing("Pushed") == "N"
    push = out.events("Pushed", step="robots")
    assert [(e["text"], e["priority"], e["by"]) for e in push] == [("pushed to r5c4", 490, "Pusher")]


def test_a_move_two_pushes_two_squares():
    out = run([bot("Pusher", "r5c2", "E"), bot("Pushed", "r5c3", "N")], {"Pusher": ["FWD2 670"]}, phases=1)
    assert out.at("Pusher") == "r5c4"
    assert out.at("Pushed") == "r5c5"
    assert out.texts("Pushed", step="robots") == ["pushed to r5c4", "pushed to r5c5"]


def test_backing_up_pushes_backward():
    out = run([bot("Pusher", "r5c4", "E"), bot("Pushed", "r5c3", "N")], {"Pusher": ["RVS1 430"]}, phases=1)
    assert out.at("Pusher") == "r5c3"
    assert out.at("Pushed") == "r5c2"


def test_a_chain_of_robots_is_pushed_together():
    out = run([bot("A", "r5c2", "E"), bot("B", "r5c3", "N"), bot("C", "r5c4", "N")], {"A": ["FWD1 490"]},
              phases=1)
    assert [out.at(n) for n in "ABC"] == ["r5c3", "r5c4", "r5c5"]
    assert out.events("C", text="pushed to r5c5")[0]["priority"] == 490


def test_a_chain_against_a_wall_does_not_move_and_the_card_ends():
    out = run([bot("A", "r5c2", "E"), bot("B", "r5c3", "N"), bot("C", "r5c4", "N")], {"A": ["FWD2 670"]},
              [wall("r5c4", "E")], phases=1)
    assert [out.at(n) for n in "ABC"] == ["r5c2", "r5c3", "r5c4"]
    assert out.texts("A", step="robots") == ["obstruction encountered"]
    assert not out.events("B", step="robots") and not out.events("C", step="robots")


def test_a_push_stops_part_way_when_the_pushed_robot_meets_a_wall():
    out = run([bot("A", "r5c1", "E"), bot("B", "r5c2", "N")], {"A": ["FWD3 790"]}, [wall("r5c3", "E")], phases=1)
    assert out.at("A") == "r5c2"
    assert out.at("B") == "r5c3"
    assert out.texts("A", step="robots") == ["move to r5c2", "obstruction encountered"]


def test_a_wall_between_two_robots_means_no_push():
    out = run([bot("A", "r5c2", "E"), bot("B", "r5c3", "N")], {"A": ["FWD1 490"]}, [wall("r5c3", "W")], phases=1)
    assert out.at("A") == "r5c2"
    assert out.at("B") == "r5c3"


def test_a_robot_pushed_into_a_pit_falls_and_the_pusher_moves_on():
    out = run([bot("A", "r5c2", "E"), bot("B", "r5c3", "N")], {"A": ["FWD1 490"]}, [pit("r5c4")], phases=1)
    assert out.at("B") is None
    assert out.events("B", text="destroyed")[0]["cause"] == "pit"
    assert out.at("A") == "r5c3"
    assert out.texts("A", step="robots") == ["move to r5c3"]


def test_a_pusher_that_keeps_going_follows_its_victim_into_the_pit():
    """FWD2: the first square pushes B into the pit, the second takes A into it as well."""
    out = run([bot("A", "r5c2", "E"), bot("B", "r5c3", "N")], {"A": ["FWD2 670"]}, [pit("r5c4")], phases=1)
    assert out.at("A") is None and out.at("B") is None
    assert [e["robot"] for e in out.events(text="destroyed")] == ["B", "A"]


def test_the_last_robot_of_a_chain_falls_into_the_pit_the_others_move():
    out = run([bot("A", "r5c1", "E"), bot("B", "r5c2", "N"), bot("C", "r5c3", "N")], {"A": ["FWD1 490"]},
              [pit("r5c4")], phases=1)
    assert out.at("A") == "r5c2"
    assert out.at("B") == "r5c3"
    assert out.at("C") is None
    assert out.robot("C")["destroyed"] is True


def test_a_robot_pushed_off_an_open_edge_is_destroyed():
    out = run([bot("A", "r5c11", "E"), bot("B", "r5c12", "N")], {"A": ["FWD1 490"]}, phases=1)
    assert out.at("B") is None
    assert out.events("B", text="destroyed")[0]["cause"] == "edge"
    assert out.at("A") == "r5c12"


def test_a_robot_pushed_against_the_fence_loses_two_hp_and_nobody_moves():
    out = run([bot("A", "r5c11", "E"), bot("B", "r5c12", "N")], {"A": ["FWD1 490"]}, phases=1,
              rules={"edge": "fence"})
    assert out.at("A") == "r5c11"
    assert out.at("B") == "r5c12"
    assert out.damage("B") >= 2  # the fence; A's laser may add its own hit at the end of the phase
    fence = out.events("B", step="robots")
    assert [(e["text"], e["cause"]) for e in fence] == [("-2 HP", "fence")]
    assert out.texts("A", step="robots") == ["obstruction encountered"]
    assert not out.events("A", text="-2 HP")


def test_the_fence_hurts_the_front_of_a_chain_only():
    out = run([bot("A", "r5c10", "E"), bot("B", "r5c11", "N"), bot("C", "r5c12", "N")], {"A": ["FWD1 490"]},
              phases=1, rules={"edge": "fence"})
    assert [out.at(n) for n in "ABC"] == ["r5c10", "r5c11", "r5c12"]
    assert [e["robot"] for e in out.events(text="-2 HP")] == ["C"]


def test_a_pushed_robot_runs_its_own_card_from_where_it_was_pushed():
    """Fast (FWD1 500) pushes Slow one square north; Slow's own FWD1 490 then starts from there."""
    out = run([bot("Fast", "r4c4", "N"), bot("Slow", "r5c4", "N")], {"Fast": ["FWD1 500"], "Slow": ["FWD1 490"]},
              phases=1)
    assert out.at("Fast") == "r5c4"
    assert out.at("Slow") == "r7c4"
    assert out.texts("Slow", step="robots") == ["pushed to r6c4", "move to r7c4"]
