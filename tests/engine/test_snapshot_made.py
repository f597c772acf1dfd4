"""A robot's snapshot is what its codecs say, key for key and in their order, whether it is made from the robot or
from a frame's record of it (the stored frames are made from the records: issue 46)."""

from __future__ import annotations

from referee.engine.cards import BY_PRIORITY
from referee.engine.snapshot import CODECS, record_to_dict, robot_from_dict, robot_to_dict
from referee.engine.state import Robot, record_robots


def by_the_codecs(r: Robot) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, codec in CODECS.items():
        value = getattr(r, name)
        if not (codec.optional and not value):
            out[codec.key] = codec.dump(value)
    return out


def test_a_snapshot_is_what_the_codecs_say_from_the_robot_and_from_its_record():
    robots = [
        Robot("Twonky", (3, 4), 1, damage=2),                                    # plain, on the board
        Robot("Hammer", None, 2, lives=1, archive=(5, 6), powered_down=True),    # off the board
        Robot("Zoom", (1, 1), 3, locked={5: BY_PRIORITY[670], 4: BY_PRIORITY[100]}, options=["Brakes", "Ramming Gear"],
              statuses={"slowed", "oiled"}, option_data={"Mini Howitzer": {"shots": 3}}),   # every optional key
    ]
    for robot, record in zip(robots, record_robots(robots), strict=True):
        expected = by_the_codecs(robot)
        for made in (robot_to_dict(robot), record_to_dict(record)):
            assert made == expected and list(made) == list(expected)
        assert robot_from_dict(robot_to_dict(robot)) == robot
