"""A robot's copy and its frame record are written out field by field; here they are held to the fields'
declared ``copy`` modes, so that a field added to ``Robot`` and forgotten there fails."""

from dataclasses import fields

from referee.engine.cards import BY_PRIORITY
from referee.engine.state import COPY_MODES, Robot, record_robots, restore_robots

#: a value unlike the default for each copy mode, and each plain field by name
_CONTAINERS = {"dict": {2: BY_PRIORITY[490]}, "list": ["Shield", "Brakes"], "set": {"flying", "energized"},
               "dicts": {"Shield": {"charges": 1}}}


def _busy_robot() -> Robot:
    """A robot whose every field holds a value other than its default."""
    plain = {"name": "Twonky", "pos": (3, 4), "facing": 2, "damage": 5, "lives": 1, "flags": 2, "virtual": True,
             "first_turn": True, "archive": (1, 1), "powered_down": True, "power_down_next": True, "destroyed": True}
    values = {}
    for f in fields(Robot):
        mode = f.metadata["copy"]
        assert mode in COPY_MODES
        values[f.name] = _CONTAINERS[mode] if mode else plain[f.name]
    return Robot(**values)


def _containers(robot: Robot) -> list[object]:
    return [getattr(robot, f.name) for f in fields(Robot) if f.metadata["copy"]]


def test_a_copy_has_every_field_and_shares_no_container():
    robot = _busy_robot()
    twin = robot.copy()
    assert twin == robot
    assert all(a is not b for a, b in zip(_containers(twin), _containers(robot), strict=True))
    twin.option_data["Shield"]["charges"] = 0
    assert robot.option_data["Shield"]["charges"] == 1


def test_a_frame_record_gives_back_every_field_and_shares_no_container():
    robot = _busy_robot()
    record = record_robots([robot])
    (back,) = restore_robots(record)
    assert back == robot
    assert all(a is not b for a, b in zip(_containers(back), _containers(robot), strict=True))
    (again,) = restore_robots(record)
    assert again == back and again is not back


def test_empty_containers_are_recorded_as_none_and_come_back_empty():
    robot = Robot("Zoom", (1, 1), 0)
    record = record_robots([robot])
    assert [v for v in record[0][4] if isinstance(v, (dict, list, set))] == []
    (back,) = restore_robots(record)
    assert back == robot
