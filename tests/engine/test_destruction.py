"""Destroyed robots: they stop at once, re-enter at their archive at the end of the turn, or run out of lives.

Rulings cited (docs/rulings.md): 7, 16, 19, 21, 22.
"""

from .scenarios import bot, laser, pit, run


def test_a_destroyed_robot_does_not_execute_its_remaining_registers():
    out = run([bot("Twonky", "r3c4", "N", archive="r1c1")],
              {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}, [pit("r4c4")])
    assert out.events("Twonky", phase=1, text="destroyed")
    assert [e for e in out.events("Twonky") if isinstance(e["phase"], int) and e["phase"] > 1] == []


def test_a_robot_shot_to_pieces_in_phase_one_plays_no_more_cards():
    out = run([bot("Twonky", "r5c4", "S", damage=9, archive="r1c1")],
              {"Twonky": ["UTRN 10", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}, [laser("r5c1", "E")])
    assert out.events("Twonky", phase=1, step="lasers", text="destroyed")
    assert not [e for e in out.events("Twonky", step="robots") if e["phase"] != 1]


def test_a_destroyed_robot_re_enters_at_its_archive_with_two_damage_as_a_virtual_robot():
    out = run([bot("Twonky", "r3c4", "E", damage=6, lives=3, archive="r8c8")],
              {"Twonky": ["LF90 70", "FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520"]}, [pit("r4c4")])
    tw = out.robot("Twonky")
    assert tw["at"] == "r8c8"
    assert tw["damage"] == 2
    assert tw["virtual"] is True and tw["first_turn"] is True
    assert tw["lives"] == 2
    assert tw["destroyed"] is True
    assert tw["locked"] == {}
    # it faces the way it faced when it fell
    assert tw["facing"] == "N"
    reentry = out.events("Twonky", phase="end", step="reentry")
    assert [e["text"] for e in reentry] == ["re-enter at r8c8"]


def test_the_player_chooses_the_facing_on_re_entry():
    out = run([bot("Twonky", "r3c4", "N", archive="r8c8")],
              {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}, [pit("r4c4")],
              reentry={"Twonky": "W"})
    assert out.at("Twonky") == "r8c8"
    assert out.facing("Twonky") == "W"


def test_a_robot_re_enters_on_its_archive_even_when_another_robot_stands_there():
    out = run([bot("Twonky", "r3c4", "N", archive="r8c8"), bot("Squatter", "r8c8", "E")],
              {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}, [pit("r4c4")])
    assert out.at("Twonky") == out.at("Squatter") == "r8c8"
    assert out.robot("Twonky")["virtual"] is True
    assert out.robot("Squatter")["virtual"] is False


def test_a_robot_destroyed_on_its_last_life_is_out_of_the_game():
    out = run([bot("Twonky", "r3c4", "N", lives=1, archive="r8c8")],
              {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}, [pit("r4c4")])
    tw = out.robot("Twonky")
    assert tw["at"] is None
    assert tw["lives"] == 0
    assert out.texts("Twonky", phase="end") == ["out of the game"]


def test_each_destruction_costs_one_life():
    out = run([bot("Twonky", "r3c4", "N", lives=2, archive="r8c8")],
              {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}, [pit("r4c4")])
    assert out.robot("Twonky")["lives"] == 1
    assert out.at("Twonky") == "r8c8"


def test_a_robot_off_the_board_at_the_start_re_enters_at_the_end_of_the_turn():
    """A robot the scenario puts off the board (``at`` null) re-enters at its archive when the turn ends."""
    out = run([bot("Twonky", None, "S", lives=2, archive="r2c2")])
    assert out.at("Twonky") == "r2c2"
    assert out.robot("Twonky")["virtual"] is True
    assert out.events("Twonky", phase="end", text="re-enter at r2c2")
