"""The contract's own example scenario resolves, and a bad one is refused with exit 2."""

import json
import subprocess
import sys

from referee.boards.scenario import simulate

EXAMPLE = {
    "board": {"width": 12, "height": 12, "elements": [
        {"kind": "wall", "at": "r4c4", "sides": ["N", "E"]},
        {"kind": "belt", "at": "r1c3-r6c3", "dir": "N"},
        {"kind": "laser", "at": "r6c1", "dir": "E", "count": 2},
    ]},
    "robots": [{"name": "Twonky", "at": "r3c4", "facing": "N"}],
    "programs": {"Twonky": ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"]},
}


def test_a_wall_stops_a_move_two_halfway():
    result = simulate(EXAMPLE)
    first = [e for e in result["events"] if e["phase"] == 1 and e["robot"] == "Twonky"]
    assert [e["text"] for e in first] == ["move to r4c4", "obstruction encountered"]


def test_simulate_cli_refuses_an_unknown_element_with_exit_2():
    bad = dict(EXAMPLE, board={"width": 12, "height": 12, "elements": [{"kind": "trampoline", "at": "r1c1"}]})
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "simulate", "-"], input=json.dumps(bad),
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "unknown element kind 'trampoline'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
