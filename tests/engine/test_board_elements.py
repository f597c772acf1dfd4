"""Pushers, gears and crushers: each in its own step of the phase, pushers and crushers only when active."""

import pytest

from .scenarios import bot, crusher, gear, pit, pusher, run, wall


@pytest.mark.parametrize(("phases", "pushed"), [(1, False), (2, True)])
def test_a_pusher_pushes_only_in_its_active_phases(phases, pushed):
    """A pusher marked 2,4: after phase 1 the robot is still on it; in phase 2 it is pushed east."""
    out = run([bot("Twonky", "r5c2", "S")], elements=[pusher("r5c2", "E", 2, 4)], phases=phases)
    assert out.at("Twonky") == ("r5c3" if pushed else "r5c2")
    pushes = out.events("Twonky", step="pushers")
    assert [(e["phase"], e["text"]) for e in pushes] == ([(2, "pushed to r5c3")] if pushed else [])


def test_a_pusher_acts_after_the_belts():
    """The belt takes Twonky off the pusher square before the pusher fires."""
    out = run([bot("Twonky", "r5c2", "S")],
              elements=[pusher("r5c2", "N", 1), {"kind": "belt", "at": "r5c2", "dir": "E"}], phases=1)
    assert out.at("Twonky") == "r5c3"
    assert not out.events("Twonky", step="pushers")


def test_a_pusher_pushes_a_chain_of_robots():
    out = run([bot("A", "r5c2", "S"), bot("B", "r5c3", "S")], elements=[pusher("r5c2", "E", 1, 3, 5)], phases=1)
    assert out.at("A") == "r5c3"
    assert out.at("B") == "r5c4"


def test_a_pusher_cannot_push_a_chain_against_a_wall():
    out = run([bot("A", "r5c2", "S"), bot("B", "r5c3", "S")],
              elements=[pusher("r5c2", "E", 1), wall("r5c3", "E")], phases=1)
    assert out.at("A") == "r5c2"
    assert out.at("B") == "r5c3"


def test_a_pusher_can_push_a_robot_into_a_pit():
    out = run([bot("A", "r5c2", "S")], elements=[pusher("r5c2", "E", 1), pit("r5c3")], phases=1)
    assert out.at("A") is None
    assert out.events("A", text="destroyed")[0]["cause"] == "pit"


def test_a_pusher_can_push_a_robot_off_an_open_edge():
    out = run([bot("A", "r5c12", "S")], elements=[pusher("r5c12", "E", 1)], phases=1)
    assert out.at("A") is None
    assert out.events("A", text="destroyed")[0]["cause"] == "edge"


def test_with_the_fence_a_pusher_into_the_edge_costs_two_hp():
    out = run([bot("A", "r5c12", "S")], elements=[pusher("r5c12", "E", 1)], phases=1, rules={"edge": "fence"})
    assert out.at("A") == "r5c12"
    assert out.damage("A") == 2


def test_two_pushers_into_one_square_push_nobody():
    out = run([bot("West", "r5c3", "S"), bot("East", "r5c5", "S")],
              elements=[pusher("r5c3", "E", 1), pusher("r5c5", "W", 1)], phases=1)
    assert out.at("West") == "r5c3"
    assert out.at("East") == "r5c5"


@pytest.mark.parametrize(("turn", "facing"), [("left", "W"), ("right", "E")])
def test_a_gear_turns_a_robot_a_quarter_turn_each_phase(turn, facing):
    out = run([bot("Twonky", "r5c5", "N")], elements=[gear("r5c5", turn)], phases=1)
    assert out.facing("Twonky") == facing
    assert out.at("Twonky") == "r5c5"
    assert out.texts("Twonky", step="gears") == [f"face {facing}"]


def test_a_gear_turns_every_phase():
    out = run([bot("Twonky", "r5c5", "N")], elements=[gear("r5c5", "right")], phases=3)
    assert out.facing("Twonky") == "W"
    assert [e["phase"] for e in out.events("Twonky", step="gears")] == [1, 2, 3]


def test_a_gear_acts_after_the_robot_moves_onto_it():
    out = run([bot("Twonky", "r4c5", "N")], {"Twonky": ["FWD1 490"]}, [gear("r5c5", "left")], phases=1)
    assert out.at("Twonky") == "r5c5"
    assert out.facing("Twonky") == "W"


@pytest.mark.parametrize(("phases", "crushed"), [(1, False), (2, True)])
def test_a_crusher_destroys_only_in_its_active_phases(phases, crushed):
    out = run([bot("Twonky", "r5c5", "S")], elements=[crusher("r5c5", 2, 4)], phases=phases)
    assert (out.at("Twonky") is None) is crushed
    destroyed = out.events("Twonky", text="destroyed")
    assert [(e["phase"], e["step"], e["cause"]) for e in destroyed] == ([(2, "crushers", "crusher")] if crushed else [])


def test_a_crusher_destroys_virtual_and_powered_down_robots_too():
    out = run([bot("Ghost", "r5c5", "S", virtual=True), bot("Sleeper", "r6c6", "S", powered_down=True)],
              elements=[crusher("r5c5", 1), crusher("r6c6", 1)], phases=1)
    assert out.at("Ghost") is None
    assert out.at("Sleeper") is None


def test_a_robot_that_drives_off_a_crusher_in_time_survives():
    out = run([bot("Twonky", "r5c5", "N")], {"Twonky": ["FWD1 490"]}, [crusher("r5c5", 1)], phases=1)
    assert out.at("Twonky") == "r6c5"


@pytest.mark.parametrize("order", ["east pusher listed first", "north pusher listed first"])
def test_pushers_of_one_phase_push_together_whatever_order_the_board_lists_them(order):
    """A stands on a pusher pushing east, B on the square east of it, on a pusher pushing north. Both
    pushers act in the same step: B goes north off its pusher, A east into the square B left. B is on
    one pusher, so it is pushed once; the board file's order of elements changes nothing."""
    east, north = pusher("r5c2", "E", 1), pusher("r5c3", "N", 1)
    elements = [east, north] if order.startswith("east") else [north, east]
    out = run([bot("A", "r5c2", "S"), bot("B", "r5c3", "S")], elements=elements, phases=1)
    assert out.at("B") == "r6c3"
    assert out.at("A") == "r5c3"
    assert len([e for e in out.events("B", step="pushers") if e["text"].startswith("pushed")]) == 1


@pytest.mark.parametrize("order", ["east pusher listed first", "west pusher listed first"])
def test_two_pushers_pushing_robots_head_on_push_nobody(order):
    """A (pushed east) and B (pushed west) stand side by side, a pit behind B. Each pusher would push
    its robot into the other's square, like two belts carrying robots head-on: neither moves, and
    B does not end up in the pit because of where the board file happens to list A's pusher."""
    east, west = pusher("r5c2", "E", 1), pusher("r5c3", "W", 1)
    elements = [east, west] if order.startswith("east") else [west, east]
    out = run([bot("A", "r5c2", "S"), bot("B", "r5c3", "S")], elements=[*elements, pit("r5c4"), pit("r5c1")],
              phases=1)
    assert out.at("A") == "r5c2"
    assert out.at("B") == "r5c3"
    assert not out.events(text="destroyed")
