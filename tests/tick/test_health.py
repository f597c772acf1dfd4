"""Health that cron and monitoring see (issue 43): a custom course that cron cannot find, a mail server that is
down for an hour; one line when a fault starts and one when it ends, exit status 4 while it lasts."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from referee import games as g
from referee.boards import _shipped_dir, use_settings
from referee.common.config import Settings
from referee.cron.health import EXIT_DEGRADED
from referee.cron.tick import tick
from referee.store import Store
from referee.store.mail_models import OutgoingMail
from tests.servers.ports import free_port

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def no_boards_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFEREE_BOARDS", raising=False)


@pytest.fixture
def settings(tmp_path: Path, db_url: str) -> Settings:
    return Settings(database_url=db_url, referee_address="referee@example.test", gm_address="gm@example.test",
                    gm_secret="s3", transport="maildir", maildir_in=str(tmp_path / "in"),
                    maildir_out=str(tmp_path / "out"), lock_file=str(tmp_path / "tick.lock"), tick_interval=300,
                    archive_on_tick=False)


@pytest.fixture
def custom_boards(tmp_path: Path) -> Path:
    """A folder with one custom course, ``minicourse`` (the shipped sprint under another name)."""
    folder = tmp_path / "my-boards"
    folder.mkdir()
    shipped = _shipped_dir()
    assert shipped is not None
    shutil.copy(shipped / "sprint.toml", folder / "minicourse.toml")
    return folder


def game_on(store: Store, code: str, course: str) -> None:
    """A started game of two on ``course`` whose first turn is due (both programs in)."""
    with store.write() as s:
        game = g.create_game(s, course=course, code=code, seed=code, deadline_seconds=86400, reminder_seconds=0,
                             gm_address=f"gm-{code.lower()}@example.test", now=T0, actor="test", settle_seconds=0)
        for robot in ("Twonky", "Hammer"):
            g.add_player(s, game, email=f"{robot.lower()}-{code.lower()}@example.test", robot=robot, now=T0)
        g.start_game(s, game, actor="test", now=T0)
    for robot in ("Twonky", "Hammer"):
        with store.write() as s:
            game = g.get_game(s, code)
            turn = g.open_turn(s, game)
            hand = list(turn.hands[robot])
            g.submit_program(s, game, robot, hand[:5], now=T0)


def gm_mails(store: Store, subject_part: str) -> list[OutgoingMail]:
    with store.read() as s:
        return [m for m in s.scalars(select(OutgoingMail).where(OutgoingMail.kind == "gm"))
                if subject_part in m.subject]


def test_a_course_cron_cannot_find_stops_its_game_only_and_its_gm_is_told_once(store, settings, custom_boards):
    with_boards = settings.with_overrides(boards=(str(custom_boards),))
    use_settings(with_boards)   # the GM's shell, where the custom folder is known
    game_on(store, "OP-1", "minicourse")
    game_on(store, "OP-2", "sprint")

    first = tick(settings, now=T0 + timedelta(minutes=5), store=store)   # cron, without the boards setting
    assert first.resolved == ["OP-2 turn 1"] and first.ok
    assert len(first.unresolvable) == 1 and "OP-1 turn 1" in first.unresolvable[0]
    assert "'minicourse'" in first.unresolvable[0] and "turns that cannot be resolved 1" in first.line()
    assert first.exit_code == EXIT_DEGRADED and first.as_dict()["degraded"] is True
    assert len(first.changes) == 1 and first.changes[0].startswith("referee: fault started: OP-1 turn 1")
    told = gm_mails(store, "OP-1: turn 1 cannot be resolved")
    assert [m.recipients for m in told] == [["gm@example.test"]]   # the game's master
    assert b"boards" in told[0].raw

    second = tick(settings, now=T0 + timedelta(minutes=10), store=store)
    assert second.exit_code == EXIT_DEGRADED and second.changes == []   # no line per tick
    assert len(gm_mails(store, "OP-1: turn 1 cannot be resolved")) == 1  # told once

    mended = tick(with_boards, now=T0 + timedelta(minutes=15), store=store)   # the folder in referee.toml
    assert mended.resolved == ["OP-1 turn 1"] and mended.exit_code == 0
    assert mended.changes == ["referee: fault ended (since 2026-06-01T12:05:00+00:00): turn OP-1 turn 1"]


def test_a_mail_server_down_for_an_hour_is_one_fault(store, settings):
    game_on(store, "OP-3", "sprint")
    down = settings.with_overrides(transport="smtp", smtp_host="127.0.0.1", smtp_port=free_port(), smtp_tls="none",
                                   mail_timeout=2)
    first = tick(down, now=T0 + timedelta(minutes=5), store=store)
    assert first.sent == 0 and first.postponed > 0 and first.send_error
    assert first.exit_code == 0 and first.changes == []   # a server restarting is not yet a fault
    health = first.as_dict()["health"]
    assert isinstance(health, dict) and health["unsent"] > 0 and health["retrying"] > 0
    assert health["oldest_unsent_seconds"] is not None and health["last_fetch"] is not None

    later = [tick(down, now=T0 + timedelta(minutes=m), store=store) for m in (66, 71, 76)]
    assert [s.exit_code for s in later] == [EXIT_DEGRADED] * 3
    assert len(later[0].changes) == 1 and "mail has not gone out" in later[0].changes[0]
    assert later[1].changes == later[2].changes == []
    assert later[2].as_dict()["health"]["oldest_unsent_seconds"] >= 3600   # type: ignore[index]

    back = tick(settings, now=T0 + timedelta(minutes=90), store=store)   # mail goes out again
    assert back.sent > 0 and back.exit_code == 0
    assert len(back.changes) == 1 and back.changes[0].startswith("referee: fault ended (since 2026-06-01T13:06")
    assert back.changes[0].endswith("): send")
    assert back.as_dict()["health"]["unsent"] == 0   # type: ignore[index]


def test_the_archive_skips_only_the_game_it_cannot_draw_and_says_which(store, settings, custom_boards, tmp_path):
    from referee.archive.build import build_archive

    with_boards = settings.with_overrides(boards=(str(custom_boards),))
    use_settings(with_boards)
    game_on(store, "OP-1", "minicourse")
    game_on(store, "OP-2", "sprint")
    assert sorted(tick(with_boards, now=T0 + timedelta(minutes=5), store=store).resolved) == [
        "OP-1 turn 1", "OP-2 turn 1"]

    use_settings(settings)   # the course's folder is not known to this process
    report = build_archive(store, tmp_path / "site", now=T0 + timedelta(minutes=6))
    assert report.games == 1 and (tmp_path / "site" / "op-2" / "turn-1.html").is_file()
    assert len(report.skipped) == 1 and report.skipped[0].startswith("OP-1 (cannot be drawn: ")
    assert "minicourse" in report.summary() and not (tmp_path / "site" / "op-1" / "turn-1.html").exists()


def test_config_check_names_every_game_whose_course_does_not_load(store, settings, custom_boards):
    from referee.doctor.local import check_game_courses

    use_settings(settings.with_overrides(boards=(str(custom_boards),)))
    game_on(store, "OP-1", "minicourse")
    game_on(store, "OP-2", "sprint")
    found = check_game_courses(settings)   # the settings cron uses: no boards setting
    assert found.verdict == "FAILED" and "OP-1: its course 'minicourse' does not load" in found.detail
    assert "OP-2" not in found.detail and "boards setting" in found.fix
    mended = check_game_courses(settings.with_overrides(boards=(str(custom_boards),)))
    assert mended.verdict == "ok" and "2 running or paused game(s) load" in mended.detail


@pytest.mark.parametrize("auto", [False, True])
def test_an_sqlite_database_behind_this_release(tmp_path: Path, auto: bool):
    """After an upgrade of referee, an SQLite database one schema behind: one line saying what to do, or
    (sqlite_auto_upgrade) upgraded by the tick with a copy of the old file kept beside it."""
    from referee.store.db import head_revision

    path = tmp_path / "old.sqlite3"
    with Store(f"sqlite:///{path}") as old:
        old.upgrade()
        old.downgrade("-1")
        behind = old.current_revision()
    settings = Settings(database_url=f"sqlite:///{path}", transport="maildir", maildir_in=str(tmp_path / "in"),
                        maildir_out=str(tmp_path / "out"), lock_file=str(tmp_path / "t.lock"),
                        sqlite_auto_upgrade=auto)
    summary = tick(settings, now=T0)
    if not auto:
        assert summary.exit_code == 1 and len(summary.errors) == 1
        assert f"is at schema {behind}, this referee needs {head_revision()}: run 'referee db upgrade'" \
            in summary.errors[0] and "sqlite_auto_upgrade = true" in summary.errors[0]
        return
    assert summary.exit_code == 0, summary.errors
    assert summary.changes[0].startswith(f"referee: upgraded the database from schema {behind} to {head_revision()}")
    assert (tmp_path / f"old.sqlite3.before-{head_revision()}").is_file()
    with Store(f"sqlite:///{path}") as now_at:
        assert now_at.current_revision() == head_revision()


def test_a_turn_the_gm_resolves_by_mail_counts_in_the_tick_summary(store, tmp_path: Path):
    from mailbox import Maildir

    from tests.intake.helpers import GM, GM_SECRET, REFEREE, mail, new_game

    settings = Settings(referee_address=REFEREE, gm_address=GM, gm_secret=GM_SECRET, transport="maildir",
                        maildir_in=str(tmp_path / "in"), maildir_out=str(tmp_path / "out"),
                        lock_file=str(tmp_path / "tick.lock"), archive_on_tick=False)
    code = new_game(store)
    Maildir(str(tmp_path / "in"), create=True).add(mail(GM, f"BEGIN GM {code} key {GM_SECRET}\nPROCESS\nEND\n",
                                                         subject="process it now"))
    summary = tick(settings, now=datetime.now(UTC), store=store)
    assert summary.processed == 1 and summary.resolved == [f"{code} turn 1"]
    assert "resolved 1" in summary.line()


def test_each_turn_records_the_release_that_resolved_it(store, settings):
    """Run from this checkout: the version number and the commit (an installed wheel: the number alone)."""
    from referee import __version__
    from referee.common.release import release

    game_on(store, "OP-4", "sprint")
    assert tick(settings, now=T0 + timedelta(minutes=5), store=store).resolved == ["OP-4 turn 1"]
    with store.read() as s:
        turn = g.get_turn(s, g.get_game(s, "OP-4"), 1)
        assert turn.engine_version == release()
    assert release().startswith(f"{__version__}+g") and len(release()) <= 32


def test_referee_status_shows_what_the_last_tick_left(store, settings, custom_boards, db_url, tmp_path):
    import json

    from click.testing import CliRunner

    from referee.cli import main

    config = tmp_path / "referee.toml"
    config.write_text(f'database_url = "{db_url}"\ntransport = "maildir"\n')

    def status(*args: str):
        return CliRunner().invoke(main, ["-c", str(config), "status", *args], env={"REFEREE_CONFIG": ""})

    quiet = status()
    assert quiet.exit_code == 0 and quiet.output.startswith("status: ok\nlast tick: never\n")
    use_settings(settings.with_overrides(boards=(str(custom_boards),)))
    game_on(store, "OP-1", "minicourse")
    tick(settings, now=T0 + timedelta(minutes=5), store=store)
    degraded = status()
    assert degraded.exit_code == EXIT_DEGRADED and degraded.output.startswith("status: DEGRADED\n")
    assert "fault since 2026-06-01T12:05:00+00:00: OP-1 turn 1 cannot be resolved" in degraded.output
    figures = json.loads(status("--json").output)
    assert figures["degraded"] is True and list(figures["faults"]) == ["turn OP-1 turn 1"]
    assert figures["last_tick"].startswith("2026-06-01T12:05") and figures["failed_sends"] == 0
