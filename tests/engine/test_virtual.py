"""Virtual robots: they neither push nor are pushed, neither shoot nor are shot by robots, but the
board acts on them, board lasers included; and when they turn real.

Rulings cited (docs/rulings.md): 9, 11.
"""

from .scenarios import belt, bot, laser, pusher, run


def test_a_real_robot_drives_through_a_virtual_one_without_pushing_it():
    out = run([bot("Real", "r5c2", "N"), bot("Ghost", "r6c2", "E", virtual=True)], {"Real": ["FWD2 670"]},
              phases=1)
    assert out.at("Real") == "r7c2"
    assert out.at("Ghost") == "r6c2"
    assert not out.events("Ghost", step="robots")


def test_a_virtual_robot_does_not_push_a_real_one():
    out = run([bot("Ghost", "r5c2", "N", virtual=True), bot("Real", "r6c2", "E")], {"Ghost": ["FWD1 490"]},
              phases=1)
    assert out.at("Ghost") == "r6c2"
    assert out.at("Real") == "r6c2"
    assert out.robot("Ghost")["virtual"] is True


def test_a_virtual_robot_does_not_fire():
    out = run([bot("Ghost", "r5c2", "E", virtual=True), bot("Target", "r5c5", "N")], phases=1)
    assert out.events("Ghost", step="lasers") == []
    assert out.damage("Target") == 0


def test_a_robot_laser_passes_a_virtual_robot_and_hits_the_real_one_behind():
    out = run([bot("Gunner", "r5c1", "E"), bot("Ghost", "r5c3", "N", virtual=True), bot("Target", "r5c5", "S")],
              phases=1)
    shots = out.events("Gunner", step="lasers")
    assert [(e["text"], e["hit"]) for e in shots] == [("r5c2-5", "Target")]
    assert out.damage("Ghost") == 0
    assert out.damage("Target") == 1


def test_a_board_laser_hits_a_virtual_robot_and_runs_on_through_it():
    out = run([bot("Ghost", "r5c3", "N", virtual=True), bot("Real", "r5c6", "N")], elements=[laser("r5c1", "E")],
              phases=1)
    assert out.damage("Ghost") == 1
    assert out.damage("Real") == 1


def test_a_real_robot_shields_a_virtual_one_from_a_board_laser():
    out = run([bot("Real", "r5c3", "N"), bot("Ghost", "r5c6", "N", virtual=True)], elements=[laser("r5c1", "E")],
              phases=1)
    assert out.damage("Real") == 1
    assert out.damage("Ghost") == 0


def test_a_board_laser_hits_every_robot_on_the_square_it_stops_at():
    out = run([bot("Real", "r5c3", "N"), bot("Ghost", "r5c3", "N", virtual=True)], elements=[laser("r5c1", "E")],
              phases=1)
    assert out.damage("Real") == 1
    assert out.damage("Ghost") == 1


def test_a_belt_carries_a_real_robot_onto_a_virtual_one():
    out = run([bot("Rider", "r5c2", "N"), bot("Ghost", "r5c3", "N", virtual=True)], elements=[belt("r5c2", "E")],
              phases=1)
    assert out.at("Rider") == "r5c3"
    assert out.at("Ghost") == "r5c3"


def test_a_pusher_pushes_a_virtual_robot_and_a_real_one_onto_it():
    out = run([bot("Ghost", "r5c2", "N", virtual=True), bot("Real", "r5c3", "N")],
              elements=[pusher("r5c2", "E", 1)], phases=1)
    assert out.at("Ghost") == "r5c3"
    assert out.at("Real") == "r5c3"


def test_a_robot_placed_virtual_stays_virtual_all_its_first_turn_then_turns_real_alone():
    out = run([bot("Newbie", "r5c5", "N", virtual=True)])
    newbie = out.robot("Newbie")
    assert newbie["virtual"] is False and newbie["first_turn"] is False
    real = out.events("Newbie", text="real")
    assert [e["phase"] for e in real] == ["end"]


def test_two_robots_sharing_a_square_at_the_end_of_their_first_turn_stay_virtual():
    out = run([bot("One", "r5c5", "N", virtual=True), bot("Two", "r5c5", "E", virtual=True)])
    for name in ("One", "Two"):
        assert out.robot(name)["virtual"] is True
        assert out.robot(name)["first_turn"] is False
    assert not out.events(text="real")


def test_after_its_first_turn_a_virtual_robot_turns_real_at_the_end_of_the_first_phase_it_is_alone():
    """One and Two share r5c5. Two drives away in phase 2; both turn real at the end of phase 2."""
    out = run([bot("One", "r5c5", "N", virtual=True, first_turn=False),
               bot("Two", "r5c5", "W", virtual=True, first_turn=False)],
              {"Two": ["UTRN 10", "FWD1 490"]}, phases=2)
    assert out.at("Two") == "r5c6"
    assert sorted((e["robot"], e["phase"]) for e in out.events(text="real")) == [("One", 2), ("Two", 2)]
    assert out.robot("One")["virtual"] is False


def test_a_virtual_robot_not_in_its_first_turn_turns_real_at_once_when_alone():
    out = run([bot("Ghost", "r5c5", "N", virtual=True, first_turn=False)], phases=1)
    assert [e["phase"] for e in out.events("Ghost", text="real")] == [1]
    assert out.robot("Ghost")["virtual"] is False


def test_a_robot_laser_does_not_hit_a_virtual_robot():
    out = run([bot("Gunner", "r5c1", "E"), bot("Ghost", "r5c3", "N", virtual=True)], phases=1)
    assert [(e["text"], e["hit"]) for e in out.events("Gunner", step="lasers")] == [("r5c2-12", None)]
    assert out.damage("Ghost") == 0


def test_a_virtual_robot_falls_into_a_pit_like_any_other():
    out = run([bot("Ghost", "r5c5", "N", virtual=True)], {"Ghost": ["FWD1 490"]}, [{"kind": "pit", "at": "r6c5"}],
              phases=1)
    assert out.at("Ghost") is None
    assert out.events("Ghost", text="destroyed")[0]["cause"] == "pit"
