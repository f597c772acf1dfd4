"""Robots executing their cards: priority order, turning, walls, pits and the board edge.

Rulings cited (docs/rulings.md): 4.
"""

import pytest

from .scenarios import bot, pit, run, wall


def test_a_move_card_logs_one_move_to_the_final_square_with_the_card():
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": ["FWD3 840"]}, phases=1)
    assert out.at("Twonky") == "r6c4"
    moves = out.events("Twonky", step="robots")
    assert [(e["text"], e["card"]) for e in moves] == [("move to r6c4", "FWD3 840")]


@pytest.mark.parametrize(("card", "facing"), [("LF90 70", "W"), ("RT90 80", "E"), ("UTRN 10", "S")])
def test_rotation_cards_turn_the_robot_in_place(card, facing):
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": [card]}, phases=1)
    assert out.at("Twonky") == "r3c4"
    assert out.facing("Twonky") == facing
    assert out.texts("Twonky", step="robots") == [f"face {facing}"]


def test_back_up_moves_one_square_backward_without_turning():
    out = run([bot("Twonky", "r3c4", "E")], {"Twonky": ["RVS1 430"]}, phases=1)
    assert out.at("Twonky") == "r3c3"
    assert out.facing("Twonky") == "E"


@pytest.mark.parametrize(("first", "second", "mover_first", "east_ends", "west_ends"), [
    ("FWD1 500", "FWD1 490", "East", "r5c4", "r5c5"),   # East moves first, West then pushes it back
    ("FWD1 490", "FWD1 500", "West", "r5c5", "r5c6"),   # West moves first, East then pushes it back
])
def test_the_higher_priority_card_moves_first(first, second, mover_first, east_ends, west_ends):
    """East (at r5c4, facing E) and West (at r5c6, facing W) both move into r5c5."""
    out = run([bot("East", "r5c4", "E"), bot("West", "r5c6", "W")],
              {"East": [first], "West": [second]}, phases=1)
    assert out.at("East") == east_ends
    assert out.at("West") == west_ends
    robots_step = out.events(step="robots")
    assert robots_step[0]["robot"] == mover_first
    assert robots_step[0]["text"] == "move to r5c5"


def test_each_card_is_executed_fully_before_the_next():
    """Hare's FWD3 840 takes it all the way to r5c4 before Tortoise's FWD2 670 starts and pushes it
    back two squares; the pushes carry the priority of Tortoise's card."""
    out = run([bot("Hare", "r5c1", "E"), bot("Tortoise", "r5c5", "W")],
              {"Hare": ["FWD3 840"], "Tortoise": ["FWD2 670"]}, phases=1)
    assert out.at("Hare") == "r5c2"
    assert out.at("Tortoise") == "r5c3"
    texts = [(e["robot"], e["text"]) for e in out.events(step="robots")]
    assert texts == [("Hare", "move to r5c4"), ("Hare", "pushed to r5c3"), ("Hare", "pushed to r5c2"),
                     ("Tortoise", "move to r5c3")]
    assert {e["priority"] for e in out.events("Hare", step="robots") if e["text"].startswith("pushed")} == {670}


@pytest.mark.parametrize(("wall_at", "side"), [("r3c4", "N"), ("r4c4", "S")])
def test_a_wall_blocks_from_either_face(wall_at, side):
    """A wall on N of r3c4 is the wall on S of r4c4: either way Twonky cannot cross it going north."""
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]}, [wall(wall_at, side)], phases=1)
    assert out.at("Twonky") == "r3c4"
    assert out.texts("Twonky", step="robots") == ["obstruction encountered"]
    assert out.damage("Twonky") == 0


@pytest.mark.parametrize(("wall_at", "side"), [("r3c4", "N"), ("r4c4", "S")])
def test_a_wall_blocks_the_way_back_too(wall_at, side):
    out = run([bot("Twonky", "r4c4", "N")], {"Twonky": ["RVS1 430"]}, [wall(wall_at, side)], phases=1)
    assert out.at("Twonky") == "r4c4"
    assert out.texts("Twonky", step="robots") == ["obstruction encountered"]


def test_a_wall_part_way_ends_the_move_where_it_stands():
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": ["FWD3 800"]}, [wall("r4c4", "N")], phases=1)
    assert out.at("Twonky") == "r4c4"
    assert out.texts("Twonky", step="robots") == ["move to r4c4", "obstruction encountered"]


def test_a_wall_on_the_side_does_not_block_a_straight_move():
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]}, [wall("r4c4", "E", "W")], phases=1)
    assert out.at("Twonky") == "r5c4"


def test_driving_into_a_pit_destroys_the_robot():
    out = run([bot("Twonky", "r3c4", "N", lives=3)], {"Twonky": ["FWD1 490"]}, [pit("r4c4")], phases=1)
    tw = out.robot("Twonky")
    assert tw["at"] is None and tw["destroyed"] is True and tw["lives"] == 2
    assert [e["cause"] for e in out.events("Twonky", text="destroyed")] == ["pit"]


def test_a_robot_cannot_drive_over_a_pit():
    """FWD3 across a pit: the robot falls in on the first square; it never reaches the far side."""
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": ["FWD3 790"]}, [pit("r4c4")], phases=1)
    assert out.at("Twonky") is None
    assert not any("r5c4" in t or "r6c4" in t for t in out.texts("Twonky"))
    assert out.texts("Twonky")[-1] == "destroyed"


def test_backing_into_a_pit_destroys_too():
    out = run([bot("Twonky", "r3c4", "N")], {"Twonky": ["RVS1 440"]}, [pit("r2c4")], phases=1)
    assert out.at("Twonky") is None
    assert out.events("Twonky", text="destroyed")[0]["cause"] == "pit"


def test_driving_off_an_open_edge_is_like_a_pit():
    out = run([bot("Twonky", "r11c4", "N")], {"Twonky": ["FWD3 790"]}, phases=1)
    assert out.at("Twonky") is None
    assert out.robot("Twonky")["lives"] == 2
    assert [e["cause"] for e in out.events("Twonky", text="destroyed")] == ["edge"]


def test_with_the_fence_rule_the_edge_costs_two_hp_and_stops_the_move():
    out = run([bot("Twonky", "r11c4", "N")], {"Twonky": ["FWD3 790"]}, phases=1, rules={"edge": "fence"})
    assert out.at("Twonky") == "r12c4"
    assert out.damage("Twonky") == 2
    texts = out.texts("Twonky", phase=1, step="robots")
    assert texts == ["move to r12c4", "-2 HP", "obstruction encountered"]
    assert out.events("Twonky", text="-2 HP")[0]["cause"] == "fence"


def test_the_fence_rule_backing_off_the_edge():
    out = run([bot("Twonky", "r1c1", "N")], {"Twonky": ["RVS1 430"]}, phases=1, rules={"edge": "fence"})
    assert out.at("Twonky") == "r1c1"
    assert out.damage("Twonky") == 2
    assert out.texts("Twonky", step="robots")[-1] == "obstruction encountered"


def test_the_fence_can_destroy_a_badly_damaged_robot():
    out = run([bot("Twonky", "r12c4", "N", damage=8)], {"Twonky": ["FWD1 490"]}, phases=1,
              rules={"edge": "fence"})
    assert out.at("Twonky") is None
    assert out.events("Twonky", text="destroyed")[0]["cause"] == "fence"
