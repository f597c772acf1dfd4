"""Light barriers and flip belts: the flip belts move after every other belt; a robot entering a light
barrier turns them round, a robot standing in one stops them; the way they run is kept from turn to turn.

Rulings cited (docs/rulings.md): 14.16.
"""

from .scenarios import belt, element, play, robot, run

FLIPS = [element("flip_belt", "r2c1-r2c8", dir="E")]
BARRIER = element("light_barrier", "r5c5")


def state(outcome):
    return outcome.doc.get("board_state", {}).get("flip_belt", {})


def test_flip_belts_carry_the_way_they_run_while_nobody_touches_a_barrier():
    p = play([*FLIPS, BARRIER], [robot("Rider", "r2c3", "N")], {}, phases=2)
    assert p.at("Rider") == "r2c5"
    assert p.facing("Rider") == "N"
    assert not state(p).get("reversed", False)


def test_a_robot_passing_through_a_barrier_turns_every_flip_belt_round():
    p = play([*FLIPS, BARRIER], [robot("Rider", "r2c3", "N"), robot("Runner", "r4c5", "N")],
             {"Runner": ["FWD2 670"]}, phases=1)
    assert p.at("Runner") == "r6c5"
    assert p.at("Rider") == "r2c2"  # carried west: the belts turned round before moving
    assert "the flip belts turn round" in p.texts(phase=1)
    assert state(p)["reversed"] is True


def test_a_robot_standing_in_a_barrier_stops_them_and_they_restart_turned_round():
    program = {"Runner": ["FWD1 490", "FWD1 500"]}  # ends phase 1 in the barrier, leaves it in phase 2
    p = play([*FLIPS, BARRIER], [robot("Rider", "r2c3", "N"), robot("Runner", "r4c5", "N")], program, phases=2)
    assert "a light barrier is interrupted: the flip belts stand still" in p.texts(phase=1)
    assert p.texts("Rider") == ["conveyed to r2c2"]  # phase 1 still, phase 2 west
    assert state(p) == {"reversed": True, "stopped": False}


def test_the_direction_carries_into_the_next_turn():
    p = run([robot("Rider", "r2c4", "N")], {}, [*FLIPS, BARRIER], width=8, height=8, phases=1,
            board_state={"flip_belt": {"reversed": True}})
    assert p.at("Rider") == "r2c3"


def test_a_red_belt_carries_onto_a_flip_belt_first_and_neither_turns_the_robot():
    p = run([robot("Rider", "r2c2", "N")], {}, [element("flip_belt", "r2c3", dir="W"), belt("r2c2", "E")],
            width=8, height=8, phases=1)
    assert p.texts("Rider")[:2] == ["conveyed to r2c3", "conveyed to r2c2"]
    assert p.at("Rider") == "r2c2" and p.facing("Rider") == "N"
