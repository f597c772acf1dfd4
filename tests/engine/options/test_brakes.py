"""Brakes: a Move 1 may move 0 squares (same priority), in the registers the player names.

Rulings cited (docs/rulings.md): 16.6.
"""

from tests.engine.scenarios import pit

from .helpers import decisions, holder, run


def test_a_braked_move_1_leaves_the_robot_where_it_stands_and_only_in_the_register_named():
    out = run([holder("Twonky", "r3c3", "N", "Brakes")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2,
              orders={"Twonky": {"brakes": {"2": True}}})
    assert out.at("Twonky") == "r4c3"  # register 1 moved, register 2 braked
    assert "uses Brakes" in out.texts("Twonky", 2)
    assert [(d["register"], d["answer"], d["source"]) for d in decisions(out, "brakes")] == [
        (1, False, "default"), (2, True, "orders")]


def test_brakes_do_nothing_to_a_move_2_and_the_player_is_not_asked():
    out = run([holder("Twonky", "r3c3", "N", "Brakes")], {"Twonky": ["FWD2 670"]}, phases=1,
              orders={"Twonky": {"brakes": {"1": True}}})
    assert out.at("Twonky") == "r5c3"
    assert decisions(out, "brakes") == []


def test_a_virtual_robot_brakes_too_and_a_braked_robot_before_a_pit_is_saved():
    out = run([holder("Twonky", "r3c3", "N", "Brakes", virtual=True)], {"Twonky": ["FWD1 490"]}, [pit("r4c3")],
              phases=1, orders={"Twonky": {"brakes": {"1": True}}})
    assert (out.at("Twonky"), out.robot("Twonky")["options"]) == ("r3c3", ["Brakes"])


def test_a_powered_down_robot_plays_no_card_and_is_asked_nothing():
    out = run([holder("Twonky", "r3c3", "N", "Brakes", powered_down=True)], {}, phases=1,
              orders={"Twonky": {"brakes": {"1": True}}})
    assert out.at("Twonky") == "r3c3" and decisions(out, "brakes") == []


def test_unbraked_into_a_pit_the_robot_is_destroyed_and_brakes_go_under_the_deck():
    out = run([holder("Twonky", "r3c3", "N", "Brakes")], {"Twonky": ["FWD1 490"]}, [pit("r4c3")], phases=1,
              option_deck=["Shield"])
    assert out.robot("Twonky")["options"] == []
    assert out.doc["option_deck"] == ["Shield", "Brakes"]
    assert "option Brakes lost" in out.texts("Twonky")
