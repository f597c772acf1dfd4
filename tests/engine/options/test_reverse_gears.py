"""Reverse Gears: a Back Up may move 2 squares back, in the registers the player names."""

from tests.engine.scenarios import bot, pit

from .helpers import decisions, holder, run


def test_in_the_register_named_a_back_up_moves_2_squares():
    out = run([holder("Twonky", "r6c3", "N", "Reverse Gears")], {"Twonky": ["RVS1 430", "RVS1 440"]}, phases=2,
              orders={"Twonky": {"reverse gears": {"2": True}}})
    assert out.events("Twonky", phase=1, text="move to r5c3") and out.at("Twonky") == "r3c3"
    assert out.facing("Twonky") == "N"


def test_backing_two_squares_pushes_a_robot_behind_and_can_fall_into_a_pit():
    out = run([holder("Twonky", "r6c3", "N", "Reverse Gears"), bot("Hulk", "r4c3", "E")], {"Twonky": ["RVS1 430"]},
              [pit("r3c3")], phases=1, orders={"Twonky": {"reverse gears": {"1": True}}})
    assert out.at("Hulk") is None  # pushed into the pit by the second square
    assert out.at("Twonky") == "r4c3"


def test_destroyed_by_its_own_back_up_the_robot_loses_the_card_under_the_deck():
    out = run([holder("Twonky", "r2c3", "N", "Reverse Gears")], {"Twonky": ["RVS1 430"]}, [pit("r1c3")], phases=1,
              orders={"Twonky": {"reverse gears": {"1": True}}}, option_deck=[])
    assert out.at("Twonky") is None and out.doc["option_deck"] == ["Reverse Gears"]
    assert [d["answer"] for d in decisions(out, "reverse gears")] == [True]


def test_a_forward_move_is_never_reversed():
    out = run([holder("Twonky", "r3c3", "N", "Reverse Gears")], {"Twonky": ["FWD1 490"]}, phases=1,
              orders={"Twonky": {"reverse gears": {"1": True}}})
    assert out.at("Twonky") == "r4c3" and decisions(out, "reverse gears") == []


def test_a_virtual_robot_backs_two_squares_through_a_robot_and_a_powered_down_one_is_not_asked():
    out = run([holder("Twonky", "r6c3", "N", "Reverse Gears", virtual=True), bot("Hulk", "r5c3", "E")],
              {"Twonky": ["RVS1 430"]}, phases=1, orders={"Twonky": {"reverse gears": {"1": True}}})
    assert (out.at("Twonky"), out.at("Hulk")) == ("r4c3", "r5c3")
    out = run([holder("Twonky", "r6c3", "N", "Reverse Gears", powered_down=True)], {}, phases=1,
              orders={"Twonky": {"reverse gears": {"1": True}}})
    assert out.at("Twonky") == "r6c3" and decisions(out, "reverse gears") == []
