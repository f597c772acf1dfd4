"""Fourth Gear: a Move 3 may move 4 squares, in the registers the player names."""

from tests.engine.scenarios import bot, wall

from .helpers import decisions, holder, run


def test_in_the_register_named_a_move_3_moves_4_squares():
    out = run([holder("Twonky", "r2c3", "N", "Fourth Gear")], {"Twonky": ["FWD3 790", "FWD3 800"]}, phases=2,
              orders={"Twonky": {"fourth gear": {"2": True}}})
    assert out.events("Twonky", phase=1, text="move to r5c3") and out.at("Twonky") == "r9c3"


def test_the_fourth_square_pushes_and_is_stopped_by_a_wall_as_any_square():
    out = run([holder("Twonky", "r2c3", "N", "Fourth Gear"), bot("Hulk", "r5c3", "E")], {"Twonky": ["FWD3 790"]},
              [wall("r6c3", "N")], phases=1, orders={"Twonky": {"fourth gear": {"1": True}}})
    assert (out.at("Twonky"), out.at("Hulk")) == ("r5c3", "r6c3")
    assert "obstruction encountered" in out.texts("Twonky", 1)


def test_a_standing_or_default_answer_keeps_move_3_at_3_and_a_move_2_is_never_asked():
    out = run([holder("Twonky", "r2c3", "N", "Fourth Gear", virtual=True)], {"Twonky": ["FWD3 790", "FWD2 670"]},
              phases=2)
    assert out.at("Twonky") == "r7c3"
    assert [(d["register"], d["answer"]) for d in decisions(out, "fourth gear")] == [(1, False)]


def test_a_powered_down_robot_does_not_move_at_all():
    out = run([holder("Twonky", "r2c3", "N", "Fourth Gear", powered_down=True)], {}, phases=1,
              orders={"Twonky": {"fourth gear": {"1": True}}})
    assert out.at("Twonky") == "r2c3"


def test_the_fourth_square_into_a_pit_destroys_the_robot_and_the_card_goes_under_the_deck():
    out = run([holder("Twonky", "r2c3", "N", "Fourth Gear")], {"Twonky": ["FWD3 790"]}, [{"kind": "pit", "at": "r6c3"}],
              phases=1, orders={"Twonky": {"fourth gear": {"1": True}}}, option_deck=[])
    assert out.at("Twonky") is None and out.doc["option_deck"] == ["Fourth Gear"]
