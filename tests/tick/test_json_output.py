"""``--json`` on the commands an operator scripts: tick, db current, resolve-due (board list/check: in
tests/test_bad_input.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main
from referee.cron.tick_summary import TickSummary


def run(db_url: str, tmp_path: Path, *args: str) -> tuple[int, object]:
    config = tmp_path / "referee.toml"
    config.write_text(f'database_url = "{db_url}"\ntransport = "maildir"\nlock_file = "{tmp_path / "t.lock"}"\n'
                      f'maildir_in = "{tmp_path / "in"}"\nmaildir_out = "{tmp_path / "out"}"\n'
                      'referee_address = "referee@example.test"\n')
    result = CliRunner().invoke(main, [*args, "--json", "-c", str(config)], env={"REFEREE_CONFIG": ""})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.output)


def test_tick_db_current_and_resolve_due_speak_json(db_url: str, tmp_path: Path):
    code, tick = run(db_url, tmp_path, "tick")
    assert code == 0 and tick["ok"] is True and tick["fetched"] == 0 and tick["line"].startswith("tick: fetched 0")
    code, current = run(db_url, tmp_path, "db", "current")
    assert code == 0 and current["up_to_date"] is True and current["current"] == current["newest"]
    code, due = run(db_url, tmp_path, "resolve-due")
    assert code == 0 and due == {"resolved": [], "passed_over": 0, "errors": [], "ok": True}


def test_a_multi_line_error_keeps_the_tick_summary_on_one_line():
    summary = TickSummary(errors=['deadlock detected\nDETAIL:  Process 12 waits for ShareLock\nHINT: see the log'])
    assert "\n" not in summary.line() and "DETAIL: Process 12 waits" in summary.line()


def test_gm_speaks_json_line_by_line(db_url: str, tmp_path: Path):
    code, answer = run(db_url, tmp_path, "gm", "-", "NEWGAME RR-1 COURSE sprint", "ADD PLAYER bad-address Twonky",
                       "START", "PAUZE")
    assert code == 1
    assert [(c["line"], c["outcome"]) for c in answer["commands"]] == [(1, "done"), (2, "failed"), (3, "not run")]
    assert answer["commands"][2]["said"] == "ADD PLAYER on line 2 failed"
    assert answer["game"] == "RR-1" and len(answer["not_read"]) == 1 and "PAUSE" in answer["not_read"][0]
