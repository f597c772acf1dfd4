"""Bad input never ends in a traceback: ``referee simulate`` on mutated scenarios exits 0 or 2 with one line,
and ``referee board check`` lists every fault of a malformed board file (issue 33 item 9, issue 32)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from referee.cli import main

RICH = {
    "board": {"width": 8, "height": 8, "void": ["r8c8"], "elements": [
        {"kind": "wall", "at": "r4c4", "sides": ["N", "E"]},
        {"kind": "belt", "at": "r1c3-r6c3", "dir": "N"},
        {"kind": "express", "at": "r7c1-r7c4", "dir": "E"},
        {"kind": "laser", "at": "r6c1", "dir": "E", "count": 2},
        {"kind": "pusher", "at": "r2c6", "dir": "W", "phases": [1, 3, 5]},
        {"kind": "gear", "at": "r5c5", "turn": "left"},
        {"kind": "flag", "at": "r6c6", "number": 1},
        {"kind": "repair", "at": "r2c2"},
        {"kind": "pit", "at": "r3c7"},
        {"kind": "crusher", "at": "r4c1", "phases": [2, 4]},
    ]},
    "rules": {"edge": "fence"},
    "robots": [{"name": "Twonky", "at": "r3c4", "facing": "N", "damage": 2, "lives": 3},
               {"name": "Hammer", "at": "r1c1", "facing": "E", "archive": "r1c1",
                "damage": 5}],
    "programs": {"Twonky": ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"],
                 "Hammer": ["FWD2 710", "LF90 150", "FWD1 500", "RT90 220", "RT90 360"]},
    "seed": 7,
    "phases": 5,
}

WEIRD: list[Any] = [None, True, 0, -1, 10**30, 3.5, "", "x", "r99c99", "N", [], [1, "a"], {}, {"kind": []},
                    ["pit"], {"a": 1}, "FWD2 670", "r1c1-r9c9", [None], {"1": None}]


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value (keys of objects, indexes of lists)."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*prefix, i))
    return out


def mutate(base: dict, rng: random.Random) -> dict:
    """One to three changes: a value replaced by one of another type, deleted, or an odd key added."""
    data = copy.deepcopy(base)
    for _ in range(rng.randint(1, 3)):
        where = rng.choice(paths(data))
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        roll = rng.random()
        if roll < 0.7:
            parent[last] = copy.deepcopy(rng.choice(WEIRD))
        elif roll < 0.85:
            del parent[last]
        elif isinstance(parent, dict):
            parent[f"{last}x"] = copy.deepcopy(rng.choice(WEIRD))
        else:
            parent.append(copy.deepcopy(rng.choice(WEIRD)))
        if not paths(data):
            break
    return data


def simulate(data: Any) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(main, ["simulate", "-"], input=json.dumps(data))
    error = result.exception if not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.output, error


def test_the_rich_scenario_itself_resolves():
    code, out, error = simulate(RICH)
    assert (code, error) == (0, None), out
    assert {r["name"] for r in json.loads(out)["robots"]} == {"Twonky", "Hammer"}


def test_five_hundred_mutated_scenarios_end_in_a_result_or_one_line_never_a_traceback():
    rng = random.Random(20261125)
    refused = 0
    for n in range(500):
        data = mutate(RICH, rng)
        code, out, error = simulate(data)
        assert error is None, f"mutation {n}: {type(error).__name__}: {error}\n{json.dumps(data)}"
        assert code in (0, 2), f"mutation {n}: exit {code}\n{out}"
        if code == 2:
            refused += 1
            assert len(out.strip().splitlines()) == 1 and out.startswith("referee simulate: "), out
    assert refused > 100   # the mutations do reach the checks


def test_a_kind_that_is_a_list_or_a_table_and_void_not_a_list_exit_2_with_one_line():
    for board in ({"width": 4, "height": 4, "elements": [{"kind": ["pit"], "at": "r1c1"}]},
                  {"width": 4, "height": 4, "elements": [{"kind": {"a": 1}, "at": "r1c1"}]},
                  {"width": 4, "height": 4, "void": 5, "elements": []}):
        code, out, error = simulate({**RICH, "board": board, "robots": [], "programs": {}})
        assert (code, error) == (2, None)
        assert len(out.strip().splitlines()) == 1


MALFORMED = """\
width = 6
height = 6
void = 5
elements = [
  { kind = ["pit"], at = "r1c1" },
  { kind = "pitt", at = "r2c2" },
  { kind = { a = 1 }, at = "r1c2" },
]
"""

RINGED = """\
width = 6
height = 6
elements = [
  { kind = "belt", at = "r9c9", dir = "N" },
  { kind = "gear", at = "r1c1", dir = "Q" },
  { kind = "flag", at = "r4c4", number = 1 },
  { kind = "start", at = "r1c6", number = 1 },
  { kind = "pit", at = "r3c4" },
  { kind = "pit", at = "r5c4" },
  { kind = "pit", at = "r4c3" },
  { kind = "wall", at = "r4c4", sides = ["E"] },
]
"""


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["board", "check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_board_check_lists_every_fault_of_a_malformed_file_given_by_path_and_goes_on(tmp_path: Path):
    (tmp_path / "malformed.toml").write_text(MALFORMED)
    code, out = check(str(tmp_path / "malformed.toml"), "sprint")
    assert code == 1
    lines = out.splitlines()
    assert any("void must be a list" in line for line in lines)
    assert any("element 1: kind must be one word" in line for line in lines)
    assert any("element 2 (pitt at r2c2): unknown element kind 'pitt' (did you mean pit?)" in line for line in lines)
    assert any("element 3: kind must be one word" in line for line in lines)
    assert lines[-1].startswith("ok     sprint")   # the next board is still checked


def test_board_check_refuses_a_flag_ringed_by_pits_and_walls_with_the_other_errors(tmp_path: Path):
    (tmp_path / "ringed.toml").write_text(RINGED)
    code, out = check(str(tmp_path / "ringed.toml"), "--json")
    assert code == 1
    [verdict] = json.loads(out)
    errors = verdict["errors"]
    assert verdict["ok"] is False and len(errors) == 3, errors
    assert "element 1 (belt at r9c9): r9c9 is off the 6x6 board" in errors[0]
    assert "element 2 (gear at r1c1)" in errors[1]
    assert errors[2].endswith("flag 1 at r4c4 cannot be reached from start square 1 at r1c6")


def test_board_show_draws_the_board_and_its_key_and_names_only_its_kinds(tmp_path: Path):
    picture = tmp_path / "sprint.png"
    result = CliRunner().invoke(main, ["board", "show", "sprint", "--png", str(picture)])
    assert result.exit_code == 0, result.output
    key = next(line for line in result.output.splitlines() if line.startswith("key: "))
    assert "belt" in key and "teleporter" not in key and "ventilator" not in key
    from PIL import Image

    with Image.open(picture) as img:
        assert img.format == "PNG" and img.height > img.width > 300
