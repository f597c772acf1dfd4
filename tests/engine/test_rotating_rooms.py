"""Rotating rooms: once a turn, in phase 5 after the gears, a room with a robot in it turns a quarter
clockwise, carrying its robots round and turning them right; an empty room stays; the turns are kept.

Rulings cited (docs/rulings.md): 15.17.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import element, gear, play, robot, run

ROOM = element("rotating_room", "r2c2-r2c4", room=1)
ROOM_ROWS = [element("rotating_room", f"r{r}c2-r{r}c4", room=1) for r in (2, 3, 4)]  # a 3x3 room, centre r3c3


def test_a_robot_in_the_room_is_carried_a_quarter_round_and_turned_right_in_phase_five():
    p = play(ROOM_ROWS, [robot("Twonky", "r4c3", "N")], {}, phases=5)  # the north middle square
    assert p.at("Twonky") == "r3c4" and p.facing("Twonky") == "E"  # to the east middle, facing east
    assert [e["phase"] for e in p.events("Twonky") if e["text"].startswith("carried")] == [5]
    assert p.doc["board_state"]["rotating_room"] == {"1": 1}


def test_every_robot_in_it_turns_at_once_and_the_centre_only_turns():
    robots = [robot("Corner", "r4c2", "N"), robot("Next", "r4c4", "W"), robot("Middle", "r3c3", "S")]
    p = play(ROOM_ROWS, robots, {}, phases=5)
    assert (p.at("Corner"), p.facing("Corner")) == ("r4c4", "E")  # north-west corner to north-east
    assert (p.at("Next"), p.facing("Next")) == ("r2c4", "N")  # north-east to south-east, no blocking
    assert (p.at("Middle"), p.facing("Middle")) == ("r3c3", "W")


def test_an_empty_room_does_not_turn_and_the_count_carries_over():
    p = run([robot("Outside", "r6c6", "N")], {}, ROOM_ROWS, width=8, height=8, board_state={"rotating_room": {"1": 3}})
    assert p.doc["board_state"]["rotating_room"] == {"1": 3}
    p = run([robot("Inside", "r2c2", "N")], {}, ROOM_ROWS, width=8, height=8, board_state={"rotating_room": {"1": 3}})
    assert p.doc["board_state"]["rotating_room"] == {"1": 0}
    assert p.at("Inside") == "r4c2"  # south-west corner to north-west


def test_it_turns_after_the_gears_and_the_floor_stays_put():
    p = play([*ROOM_ROWS, gear("r4c3", "left")], [robot("Twonky", "r4c3", "N")], {}, phases=5)
    steps = [e["step"] for e in p.events("Twonky", phase=5)]
    assert steps.index("gears") < steps.index("rotating rooms")
    assert p.at("Twonky") == "r3c4"  # carried off the gear square: the gear did not move


def test_a_room_must_be_a_whole_square_block():
    with pytest.raises(ScenarioError, match="rotating room 1 must be a whole square block"):
        run([], {}, [ROOM])


def test_a_square_listed_in_two_rooms_is_refused_whichever_is_listed_first():
    """Issue 44: which room such a square belongs to would be the listing order's choice."""
    rooms = [element("rotating_room", "r2c2-r2c3", room=1), element("rotating_room", "r3c2-r3c3", room=1),
             element("rotating_room", "r2c2", room=2)]
    for listed in (rooms, rooms[::-1]):
        with pytest.raises(ScenarioError, match="belongs to one room"):
            play(listed, [robot("Twonky", "r5c5")], {})
