"""The ``referee simulate`` command: JSON in, JSON out; exit 2 and one line on stderr for a bad scenario.

Rulings cited (docs/rulings.md): 27.
"""

import json
import subprocess
import sys

import pytest

from referee.boards.scenario import ScenarioError, simulate
from tests.servers.processes import patience

from .scenarios import bot, scenario

GOOD = scenario([bot("Twonky", "r3c4", "N"), bot("Hulk", "r8c8", "S")],
                {"Twonky": ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"]},
                [{"kind": "wall", "at": "r4c4", "sides": ["N", "E"]}])


def referee_simulate(arg: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli", "simulate", arg], input=stdin,
                          capture_output=True, text=True, timeout=patience(60))


def test_simulate_reads_a_file_and_prints_the_result(tmp_path):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(GOOD))
    proc = referee_simulate(str(path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == simulate(GOOD)


def test_simulate_reads_standard_input():
    proc = referee_simulate("-", json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert {"robots", "winner", "events"} <= set(result)
    twonky = next(r for r in result["robots"] if r["name"] == "Twonky")
    for key in ("name", "at", "facing", "damage", "lives", "flags", "virtual", "archive", "destroyed"):
        assert key in twonky
    assert all({"phase", "step", "robot", "text"} <= set(e) for e in result["events"])


def _with(**changes):
    doc = json.loads(json.dumps(GOOD))
    doc.update(changes)
    return doc


BAD = {
    "unknown element kind": (_with(board={"width": 12, "height": 12, "elements": [{"kind": "trampoline",
                                                                                     "at": "r1c1"}]}),
                             "trampoline"),
    "card not in the deck": (_with(programs={"Twonky": ["FWD2 675", "RT90 80", "FWD1 490", "RVS1 430",
                                                        "UTRN 10"]}), "675"),
    "robot off the board": (_with(robots=[bot("Twonky", "r13c4", "N")], programs={}), "r13c4"),
    "a card used twice": (_with(programs={"Twonky": ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"],
                                          "Hulk": ["FWD2 670", "RT90 100", "FWD1 500", "RVS1 440", "UTRN 20"]}),
                          "670"),
    "program for an unknown robot": (_with(programs={"Nobody": ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430",
                                                                "UTRN 10"]}), "Nobody"),
    "board file that does not exist": (_with(board="no-such-board"), "no-such-board"),
    "program too short": (_with(programs={"Twonky": ["FWD2 670", "RT90 80"]}), "Twonky"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_scenario_exits_2_with_one_line(case):
    doc, clue = BAD[case]
    proc = referee_simulate("-", json.dumps(doc))
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert clue in lines[0]


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_scenario_raises_scenario_error(case):
    doc, clue = BAD[case]
    with pytest.raises(ScenarioError, match=clue):
        simulate(doc)


def test_two_programs_for_one_robot_exit_2():
    """The same robot named twice in ``programs``: JSON allows the duplicate key, the referee must not."""
    one = '["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"]'
    two = '["FWD2 680", "RT90 100", "FWD1 500", "RVS1 440", "UTRN 20"]'
    text = (f'{{"board": {json.dumps(GOOD["board"])}, "robots": {json.dumps(GOOD["robots"])}, '
            f'"programs": {{"Twonky": {one}, "Twonky": {two}}}}}')
    proc = referee_simulate("-", text)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "Twonky" in lines[0]


def test_not_json_exits_2():
    proc = referee_simulate("-", "{this is not json")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
