"""``referee game new`` takes what it is not told from the ``[default]`` settings, as NEWGAME by mail does."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee import games as g
from referee.cli import main
from referee.store import Store

from .conftest import BOARDS


def test_game_new_takes_the_course_deadline_reminder_settle_and_policy_from_the_default_settings(
        db_url: str, store: Store, tmp_path: Path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text(f'database_url = "{db_url}"\n'
                      '[default]\ncourse = "yardrace"\ndeadline = "2d"\nreminder = "6h"\nsettle = "0"\n'
                      'missing_orders = "power_down"\n')
    env = {"REFEREE_BOARDS": str(BOARDS), "REFEREE_CONFIG": ""}
    result = CliRunner().invoke(main, ["--config", str(config), "game", "new", "RR-1"], env=env)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("RR-1: new game on yardrace")

    # what the command line says still wins over the settings
    result = CliRunner().invoke(main, ["--config", str(config), "game", "new", "RR-2", "--deadline", "36h",
                                       "--missing-orders", "random", "--settle", "5m"], env=env)
    assert result.exit_code == 0, result.output
    with store.read() as s:
        first, second = g.get_game(s, "RR-1"), g.get_game(s, "RR-2")
        assert (first.course, first.deadline_seconds, first.reminder_seconds, first.settle_seconds,
                first.missing_orders) == ("yardrace", 2 * 86400, 6 * 3600, 0, "power_down")
        assert (second.course, second.deadline_seconds, second.reminder_seconds, second.settle_seconds,
                second.missing_orders) == ("yardrace", 36 * 3600, 6 * 3600, 300, "random")


def test_a_default_setting_that_cannot_be_read_is_named(db_url: str, tmp_path: Path) -> None:
    config = tmp_path / "referee.toml"
    config.write_text(f'database_url = "{db_url}"\n[default]\ncourse = "yardrace"\ndeadline = "soon"\n')
    result = CliRunner().invoke(main, ["--config", str(config), "game", "new"],
                                env={"REFEREE_BOARDS": str(BOARDS), "REFEREE_CONFIG": ""})
    assert result.exit_code == 2   # refused when the settings load (issue 43), before anything is made
    assert "setting default_deadline = 'soon'" in result.output and "Traceback" not in result.output
