"""Radio Control: instead of the main laser, the target executes the shooter's program for the rest of
the turn's registers (house rule: the next register only).

Rulings cited (docs/rulings.md): 16.7a, 16.10.
"""

from tests.engine.scenarios import bot, pit

from .helpers import holder, run

PROGRAMS = {"Twonky": ["RVS1 430", "RT90 80", "LF90 70", "UTRN 20", "RT90 100"],
            "Hulk": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}
RADIO_1 = {"Twonky": {"fire": {"1": "Radio Control"}}}


def test_the_target_plays_the_shooters_cards_from_the_next_register_on():
    out = run([holder("Twonky", "r3c3", "N", "Radio Control"), bot("Hulk", "r6c3", "N")], PROGRAMS, phases=3,
              orders=RADIO_1)
    assert out.events("Hulk", phase=1, text="radio controlled")[0]["by"] == "Twonky"
    assert [e["card"] for e in out.events("Hulk", step="robots") if e["phase"] in (2, 3)] == ["RT90 80", "LF90 70"]
    assert out.robot("Hulk")["statuses"] == ["radio controlled"]


def test_house_rule_next_register_only_and_the_status_ends_with_the_turn():
    out = run([holder("Twonky", "r3c3", "N", "Radio Control"), bot("Hulk", "r6c3", "N")], PROGRAMS, orders=RADIO_1,
              rules={"radio_control": "next register"})
    played = {e["phase"]: e["card"] for e in out.events("Hulk", step="robots") if "card" in e}
    assert played[2] == "RT90 80" and played[3] == "FWD1 510"
    assert "statuses" not in out.robot("Hulk")


def test_a_powered_down_target_is_not_moved_and_radio_control_in_register_5_does_nothing():
    out = run([holder("Twonky", "r3c3", "N", "Radio Control"), bot("Hulk", "r6c3", "N", powered_down=True)],
              {"Twonky": PROGRAMS["Twonky"]}, phases=3, orders=RADIO_1)
    assert (out.at("Hulk"), out.facing("Hulk")) == ("r6c3", "N")
    out = run([holder("Twonky", "r3c3", "N", "Radio Control"), bot("Hulk", "r6c3", "W")],
              {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]},
              orders={"Twonky": {"fire": {"5": "Radio Control"}}})
    assert "radio controlled" not in out.texts("Hulk")


def test_a_virtual_robot_is_not_hit_and_a_destroyed_controller_leaves_its_target_idle():
    out = run([holder("Twonky", "r3c3", "N", "Radio Control"), bot("Hulk", "r6c3", "N", virtual=True)], PROGRAMS,
              phases=3, orders=RADIO_1)
    assert not out.events("Hulk", text="radio controlled")
    doomed = {"Twonky": ["RVS1 430", "RVS1 440", "LF90 70", "UTRN 20", "RT90 100"], "Hulk": PROGRAMS["Hulk"]}
    out = run([holder("Twonky", "r2c3", "N", "Radio Control"), bot("Hulk", "r6c3", "N")], doomed, [pit("r1c3")],
              phases=3, orders=RADIO_1)
    # register 1: Twonky backs to r1c3, a pit: destroyed before it fires, so nothing happens to Hulk
    assert out.at("Twonky") is None and out.at("Hulk") == "r9c3"


def test_in_register_5_there_is_no_register_left_to_control_so_the_main_laser_fires():
    """Rules version 3 (issue 33): "instead of the main laser" - the main laser fires when the card cannot act."""
    out = run([holder("Twonky", "r3c3", "N", "Radio Control"), bot("Hulk", "r9c3", "E")], phases=5,
              orders={"Twonky": {"fire": {"5": "Radio Control"}}})
    assert [e["phase"] for e in out.hits("Hulk")] == [1, 2, 3, 4, 5]
    assert not out.events("Hulk", text="radio controlled")
