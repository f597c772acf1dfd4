"""Crab Legs: a Move 1 may move one square left or right instead of forward; the facing is kept."""

from tests.engine.scenarios import bot, wall

from .helpers import decisions, holder, run


def test_a_move_1_steps_sideways_to_the_side_named_and_keeps_the_facing():
    out = run([holder("Twonky", "r3c3", "N", "Crab Legs")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2,
              orders={"Twonky": {"crab legs": {"1": "left", "2": "right"}}})
    assert out.events("Twonky", phase=1, text="move to r3c2")
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r3c3", "N")


def test_a_sidestep_pushes_a_robot_and_is_stopped_by_a_wall():
    out = run([holder("Twonky", "r3c3", "E", "Crab Legs"), bot("Hulk", "r2c3", "W")],
              {"Twonky": ["FWD1 490", "FWD1 500"]}, [wall("r1c3", "S")], phases=2,
              orders={"Twonky": {"crab legs": {"1": "right", "2": "right"}}})
    # facing east, right is south: register 1 pushes Hulk to r1c3; register 2 is blocked (Hulk against the wall)
    assert (out.at("Twonky"), out.at("Hulk")) == ("r2c3", "r1c3")
    assert "obstruction encountered" in out.texts("Twonky", 2)


def test_without_an_order_the_move_goes_forward_and_other_cards_are_not_asked():
    out = run([holder("Twonky", "r3c3", "N", "Crab Legs", virtual=True)], {"Twonky": ["FWD1 490", "FWD2 670"]},
              phases=2)
    assert out.at("Twonky") == "r6c3"
    assert [(d["register"], d["answer"]) for d in decisions(out, "crab legs")] == [(1, None)]


def test_a_sidestep_into_a_pit_destroys_and_a_powered_down_robot_is_not_asked():
    out = run([holder("Twonky", "r3c3", "N", "Crab Legs")], {"Twonky": ["FWD1 490"]}, [{"kind": "pit", "at": "r3c4"}],
              phases=1, orders={"Twonky": {"crab legs": {"1": "right"}}}, option_deck=[])
    assert out.at("Twonky") is None and out.doc["option_deck"] == ["Crab Legs"]
    out = run([holder("Twonky", "r3c3", "N", "Crab Legs", powered_down=True)], {}, phases=1,
              orders={"Twonky": {"crab legs": {"1": "right"}}})
    assert out.at("Twonky") == "r3c3" and decisions(out, "crab legs") == []
