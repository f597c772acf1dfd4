"""One declaration, the lists made from it: a robot's fields (its copy, the snapshot's keys, the keys a scenario
may give, the GM's SET words) and the event kinds code outside the engine decides on."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from referee.boards.scenario import ROBOT_KEYS as SCENARIO_KEYS
from referee.boards.scenario import parse_scenario
from referee.engine.cards import parse_card
from referee.engine.events import WORDING, known_kind
from referee.engine.snapshot import CODECS, robot_to_dict
from referee.engine.state import GM_FIELDS, ROBOT_KEYS, SCENARIO_ROBOT_KEYS, Robot
from referee.gm.language import ROBOT_FIELDS


def _full_robot() -> Robot:
    return Robot("Twonky", (2, 3), 1, damage=5, lives=2, flags=1, virtual=True, first_turn=True, archive=(1, 1),
                 powered_down=True, power_down_next=True, locked={5: parse_card("FWD1 500")}, options=["Brakes"],
                 destroyed=True, statuses={"flying"}, option_data={"Brakes": {"used": 1}})


def test_a_copy_holds_every_field_and_shares_no_container():
    robot = _full_robot()
    copy = robot.copy()
    assert copy == robot
    for f in fields(Robot):
        value = getattr(robot, f.name)
        if isinstance(value, dict | list | set):
            assert getattr(copy, f.name) is not value, f.name
    assert copy.option_data["Brakes"] is not robot.option_data["Brakes"]


def test_the_snapshot_writes_each_field_under_the_key_robot_declares():
    assert set(CODECS) == {f.name for f in fields(Robot)}
    assert set(robot_to_dict(_full_robot())) == set(ROBOT_KEYS.values())
    assert ROBOT_KEYS["pos"] == "at"


def test_a_scenario_takes_every_field_robot_lets_it_give():
    assert SCENARIO_ROBOT_KEYS | {"comment", "tamagotchi"} == SCENARIO_KEYS
    assert "destroyed" not in SCENARIO_KEYS and "statuses" in SCENARIO_KEYS
    spec = {"name": "Twonky", "at": "r2c3", "facing": "E", "damage": 5, "lives": 2, "flags": 1, "virtual": True,
            "first_turn": True, "archive": "r1c1", "powered_down": True, "power_down_next": True,
            "options": ["Brakes"], "option_data": {"Brakes": {"used": 1}}, "statuses": ["flying"]}
    assert set(spec) | {"locked"} == SCENARIO_ROBOT_KEYS
    board = {"width": 4, "height": 4, "elements": [{"kind": "flag", "at": "r4c4", "number": 1},
                                                   {"kind": "flag", "at": "r4c1", "number": 2}]}
    robot = parse_scenario({"board": board, "robots": [spec]})["robots"][0]
    got = robot_to_dict(robot)
    assert {k: got[k] for k in spec} == spec


def test_the_gm_sets_the_fields_robot_names_a_word_for():
    assert ROBOT_FIELDS == set(GM_FIELDS) == {"AT", "FACING", "DAMAGE", "LIVES", "FLAGS", "ARCHIVE", "VIRTUAL",
                                              "POWERED"}
    assert GM_FIELDS["POWERED"] == "powered_down" and set(GM_FIELDS.values()) <= SCENARIO_ROBOT_KEYS


def test_an_event_kind_named_outside_the_engine_is_checked():
    assert known_kind("destroyed") == "destroyed" and "destroyed" in WORDING
    assert known_kind("decision") == "decision"
    with pytest.raises(ValueError, match="no event kind 'exploded'"):
        known_kind("exploded")


def test_every_event_kind_a_report_table_decides_on_is_one_the_engine_logs():
    """The tables and pictures compare kinds written out (``ev.kind == "pushed"``): each must be a kind."""
    root = Path(__file__).resolve().parents[2] / "referee"
    named = {m.group(1) for folder in ("render", "reports") for path in (root / folder).rglob("*.py")
             for m in re.finditer(r"\bkind [!=]= \"([a-z][a-z -]*)\"", path.read_text())}
    assert {"pushed", "destroyed", "face"} <= named
    for kind in named:
        known_kind(kind)
