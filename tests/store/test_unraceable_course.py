"""A custom course whose flag cannot be reached (ringed by pits) is refused by ``referee board check``
and no game is made or started on it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

from .conftest import BOARDS


def course(flag_ringed: bool) -> str:
    ring = '{ kind = "pit", at = "r5c4" },\n  { kind = "pit", at = "r5c6" },\n' if flag_ringed else ""
    return f"""\
width = 9
height = 9
elements = [
  {{ kind = "start", at = "r1c1", number = 1 }},
  {{ kind = "start", at = "r1c9", number = 2 }},
  {{ kind = "flag", at = "r5c5", number = 1 }},
  {{ kind = "flag", at = "r8c8", number = 2 }},
  {{ kind = "pit", at = "r4c5" }},
  {{ kind = "wall", at = "r5c5", sides = ["N"] }},
  {ring}]
"""


def test_a_flag_ringed_by_pits_fails_board_check_and_no_game_is_made_or_started_on_it(db_url: str, tmp_path: Path):
    boards = tmp_path / "boards"
    boards.mkdir()
    env = {"REFEREE_DATABASE_URL": db_url, "REFEREE_BOARDS": f"{boards}:{BOARDS}", "REFEREE_CONFIG": ""}
    runner = CliRunner()

    def referee(*args: str):
        result = runner.invoke(main, list(args), env=env)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    (boards / "moat.toml").write_text(course(flag_ringed=False))
    assert referee("board", "check", "moat").output.startswith("ok     moat")
    assert referee("game", "new", "RR-1", "--course", "moat").exit_code == 0
    for email, robot in (("alice@example.test", "Twonky"), ("bob@example.test", "Hammer")):
        assert referee("game", "add-player", "RR-1", email, robot).exit_code == 0

    (boards / "moat.toml").write_text(course(flag_ringed=True))   # the GM edits the file after making the game
    checked = referee("board", "check", "moat")
    assert checked.exit_code == 1
    assert "flag 1 at r5c5 cannot be reached from start square 1 at r1c1" in checked.output
    assert "flag 1 at r5c5 cannot be reached from start square 2 at r1c9" in checked.output

    started = referee("game", "start", "RR-1")
    assert started.exit_code == 1 and "moat cannot be raced: flag 1 at r5c5" in started.output
    made = referee("game", "new", "RR-2", "--course", "moat")
    assert made.exit_code == 1 and "moat cannot be raced" in made.output
    assert "RR-2" not in referee("game", "list").output
