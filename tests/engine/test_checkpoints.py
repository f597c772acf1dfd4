"""Flags and repair sites: touched at the end of a phase, in order; archives; end-of-turn repairs; the winner.

Rulings cited (docs/rulings.md): 23, 24, 25.
"""

import pytest

from .scenarios import belt, bot, flag, repair, run

FLAGS = [flag("r5c5", 1), flag("r9c9", 2)]


def test_ending_a_phase_on_the_next_flag_touches_it_and_moves_the_archive():
    out = run([bot("Twonky", "r3c5", "N", archive="r1c1")], {"Twonky": ["FWD2 670"]}, FLAGS, phases=1)
    tw = out.robot("Twonky")
    assert tw["flags"] == 1
    assert tw["archive"] == "r5c5"
    touched = out.events("Twonky", step="checkpoints")
    assert [(e["phase"], e["text"]) for e in touched] == [(1, "archive r5c5"), (1, "touch flag 1")]


def test_passing_over_a_flag_does_not_count():
    out = run([bot("Twonky", "r4c5", "N", archive="r1c1")], {"Twonky": ["FWD2 670"]}, FLAGS, phases=1)
    assert out.at("Twonky") == "r6c5"
    assert out.robot("Twonky")["flags"] == 0
    assert out.robot("Twonky")["archive"] == "r1c1"
    assert out.events("Twonky", step="checkpoints") == []


def test_a_flag_out_of_order_moves_the_archive_but_does_not_count():
    out = run([bot("Twonky", "r7c9", "N", archive="r1c1")], {"Twonky": ["FWD2 670"]}, FLAGS, phases=1)
    tw = out.robot("Twonky")
    assert tw["at"] == "r9c9"
    assert tw["flags"] == 0
    assert tw["archive"] == "r9c9"
    assert out.texts("Twonky", step="checkpoints") == ["archive r9c9"]


def test_the_second_flag_counts_after_the_first():
    out = run([bot("Twonky", "r7c9", "N", flags=1, archive="r5c5")], {"Twonky": ["FWD2 670"]},
              [*FLAGS, flag("r1c12", 3)], phases=1)
    assert out.robot("Twonky")["flags"] == 2
    assert out.events("Twonky", text="touch flag 2")


def test_a_robot_standing_on_the_next_flag_touches_it_at_the_end_of_the_phase():
    out = run([bot("Twonky", "r5c5", "S", archive="r1c1")], elements=FLAGS, phases=1)
    assert out.robot("Twonky")["flags"] == 1


def test_a_belt_can_deliver_a_robot_onto_a_flag():
    out = run([bot("Twonky", "r4c5", "S", archive="r1c1")], elements=[*FLAGS, belt("r4c5", "N")], phases=1)
    assert out.at("Twonky") == "r5c5"
    assert out.robot("Twonky")["flags"] == 1


def test_a_repair_site_moves_the_archive_and_is_no_flag():
    out = run([bot("Twonky", "r2c2", "N", archive="r1c1")], {"Twonky": ["FWD1 490"]},
              [*FLAGS, repair("r3c2", 2)], phases=1)
    tw = out.robot("Twonky")
    assert tw["archive"] == "r3c2"
    assert tw["flags"] == 0
    assert out.texts("Twonky", step="checkpoints") == ["archive r3c2"]


@pytest.mark.parametrize(("elements", "repaired"), [
    ([flag("r3c3", 1), flag("r9c9", 2)], 1),
    ([repair("r3c3", 1), flag("r9c9", 1)], 1),
    ([repair("r3c3", 2), flag("r9c9", 1)], 2),
], ids=["flag", "one wrench", "two wrenches"])
def test_end_of_turn_repairs_by_wrenches(elements, repaired):
    out = run([bot("Twonky", "r3c3", "S", damage=4)], elements=elements)
    assert out.damage("Twonky") == 4 - repaired
    assert [(e["step"], e["text"]) for e in out.events("Twonky", phase="end") if e["text"].startswith("+")] == [
        ("repairs", f"+{repaired} HP")]


def test_a_two_wrench_site_cannot_repair_below_zero_damage():
    out = run([bot("Twonky", "r3c3", "S", damage=1)], elements=[repair("r3c3", 2)])
    assert out.damage("Twonky") == 0
    assert out.texts("Twonky", phase="end") == ["+1 HP"]


def test_no_repair_for_a_robot_that_left_the_site_before_the_end_of_the_turn():
    out = run([bot("Twonky", "r3c3", "N", damage=4)], {"Twonky": ["LF90 70", "RT90 80", "LF90 90", "RT90 100",
                                                                  "FWD1 490"]},
              [repair("r3c3", 2)])
    assert out.at("Twonky") == "r4c3"
    assert out.damage("Twonky") == 4


def test_touching_the_last_flag_wins_and_ends_the_game_with_that_phase():
    out = run([bot("Twonky", "r7c9", "N", flags=1, archive="r5c5")],
              {"Twonky": ["FWD2 670", "UTRN 10", "FWD1 490", "FWD1 500", "FWD1 510"]}, FLAGS)
    assert out.winner == "Twonky"
    assert out.events("Twonky", phase=1, text="wins")
    assert out.phases_logged() == {1}
    assert out.at("Twonky") == "r9c9"
    assert out.facing("Twonky") == "N"


@pytest.mark.parametrize(("real_card", "virtual_card", "winner"), [
    ("FWD1 500", "FWD1 490", "Solid"),
    ("FWD1 490", "FWD1 500", "Ghost"),
])
def test_two_robots_on_the_last_flag_in_one_phase_the_higher_priority_wins(real_card, virtual_card, winner):
    """Solid (real) and Ghost (virtual) both reach flag 2 in phase 1; the card with the higher priority wins."""
    out = run([bot("Solid", "r8c9", "N", flags=1), bot("Ghost", "r9c8", "E", flags=1, virtual=True)],
              {"Solid": [real_card], "Ghost": [virtual_card]}, FLAGS, phases=1)
    assert out.at("Solid") == out.at("Ghost") == "r9c9"
    assert out.winner == winner
    assert [e["robot"] for e in out.events(text="wins")] == [winner]


def test_a_powered_down_robot_touches_no_flag():
    out = run([bot("Sleeper", "r5c5", "S", powered_down=True, archive="r1c1")], elements=FLAGS)
    assert out.robot("Sleeper")["flags"] == 0
    assert out.robot("Sleeper")["archive"] == "r1c1"
