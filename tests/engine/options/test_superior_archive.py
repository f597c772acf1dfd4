"""Superior Archive: re-entry without the usual 2 damage (the card is lost with the rest at destruction,
but serves the re-entry that follows)."""

from tests.engine.scenarios import pit

from .helpers import holder, run

INTO_THE_PIT = {"Twonky": ["FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"]}


def test_a_destroyed_robot_re_enters_undamaged_and_the_card_is_back_under_the_deck():
    out = run([holder("Twonky", "r3c3", "N", "Superior Archive", "Brakes")], INTO_THE_PIT, [pit("r4c3")],
              option_deck=["Shield"])
    twonky = out.robot("Twonky")
    assert (twonky["at"], twonky["damage"], twonky["options"], twonky["virtual"]) == ("r3c3", 0, [], True)
    assert out.doc["option_deck"] == ["Shield", "Superior Archive", "Brakes"]
    assert "statuses" not in twonky


def test_without_the_card_re_entry_costs_2_damage():
    out = run([holder("Twonky", "r3c3", "N", "Brakes")], INTO_THE_PIT, [pit("r4c3")])
    assert out.robot("Twonky")["damage"] == 2


def test_with_no_life_left_the_robot_is_out_and_the_card_does_nothing():
    out = run([holder("Twonky", "r3c3", "N", "Superior Archive", lives=1)], INTO_THE_PIT, [pit("r4c3")])
    assert out.at("Twonky") is None and "out of the game" in out.texts("Twonky", "end")


def test_a_robot_that_is_not_destroyed_keeps_its_damage_and_its_card():
    out = run([holder("Twonky", "r3c3", "N", "Superior Archive", damage=3)], {"Twonky": ["FWD1 490", "UTRN 10",
              "UTRN 20", "UTRN 30", "UTRN 40"]})
    assert (out.damage("Twonky"), out.robot("Twonky")["options"]) == (3, ["Superior Archive"])
