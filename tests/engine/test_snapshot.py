"""Robot snapshots: every field has a codec, what a robot carries survives a round trip, and snapshots
written before statuses and option data existed still load."""

from referee.engine.cards import parse_card
from referee.engine.snapshot import robot_from_dict, robot_to_dict
from referee.engine.state import Robot

#: a robot as turn snapshots stored it before statuses and option data (no such keys)
OLD_SNAPSHOT = {"name": "Twonky", "at": "r4c4", "facing": "E", "damage": 6, "lives": 2, "flags": 1,
                "virtual": False, "first_turn": False, "archive": "r3c4", "powered_down": False,
                "power_down_next": True, "locked": {"4": "FWD2 670", "5": "LF90 70"}, "options": [],
                "destroyed": False}


def test_an_old_snapshot_loads_with_empty_statuses_and_writes_back_the_same():
    robot = robot_from_dict(OLD_SNAPSHOT)
    assert robot.pos == (4, 4) and robot.facing == 1 and robot.locked[4] == parse_card("FWD2 670")
    assert robot.statuses == set() and robot.option_data == {}
    assert robot_to_dict(robot) == OLD_SNAPSHOT


def test_statuses_and_option_data_round_trip_and_copy_apart():
    robot = Robot("Twonky", (2, 2), 0, options=["ramming gear"], statuses={"flying", "energized"},
                  option_data={"ramming gear": {"charges": 2}})
    data = robot_to_dict(robot)
    assert data["statuses"] == ["energized", "flying"] and data["option_data"] == {"ramming gear": {"charges": 2}}
    assert robot_from_dict(data) == robot
    twin = robot.copy()
    twin.statuses.add("virtual")
    twin.option_data["ramming gear"]["charges"] = 1
    assert robot.statuses == {"flying", "energized"} and robot.option_data["ramming gear"]["charges"] == 2


def test_a_copy_keeps_every_field():
    robot = robot_from_dict({**OLD_SNAPSHOT, "destroyed": True, "virtual": True, "first_turn": True,
                             "powered_down": True, "options": ["brakes"], "statuses": ["flying"],
                             "option_data": {"brakes": {"charges": 1}}})
    assert robot.copy() == robot
