"""Fixtures for the store tests.

The databases (``db_url``, ``store``, ``empty_url``: SQLite and a private PostgreSQL) come from
``tests/conftest.py``, shared with the mailer, report and archive tests. The test
boards in ``boards/`` are found through ``REFEREE_BOARDS`` (also by the ``referee`` processes the
tests start).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from referee import games as g
from referee.cli import main
from referee.store import Store
from tests.servers.forked import Forked, shared

BOARDS = Path(__file__).resolve().parent / "boards"
COURSE = "yardrace"
#: a fixed "now" for tests that do not move time
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="session", autouse=True)
def test_boards() -> Iterator[Path]:
    old = os.environ.get("REFEREE_BOARDS")
    os.environ["REFEREE_BOARDS"] = os.pathsep.join(p for p in (str(BOARDS), old) if p)
    yield BOARDS
    if old is None:
        os.environ.pop("REFEREE_BOARDS", None)
    else:
        os.environ["REFEREE_BOARDS"] = old


def new_game(store: Store, robots: tuple[str, ...] = ("Twonky", "Hammer", "Zoom"), *, start: bool = True,
             seed: str = "store-tests", now: datetime = T0, course: str = COURSE, **kwargs: object) -> str:
    """A game on the test course with one player per robot (``<robot>@example.test``); its code."""
    with store.write() as s:
        game = g.create_game(s, course=course, seed=seed, now=now, actor="test", **kwargs)  # type: ignore[arg-type]
        for robot in robots:
            g.add_player(s, game, email=f"{robot.lower()}@example.test", robot=robot, actor="test", now=now)
        if start:
            g.start_game(s, game, actor="test", now=now)
        return game.code


def first_cards(store: Store, code: str, robot: str) -> list[str]:
    """The first five cards of the robot's hand, fused registers left to their cards (None)."""
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        assert turn is not None
        hand = list(turn.hands[robot])
        locked = turn.locked.get(robot, {})
    program: list[str] = []
    for reg in range(1, 6):
        program.append(locked[str(reg)] if str(reg) in locked else hand.pop(0))
    return program


# -- running the command line ------------------------------------------------------------------------
def cli_env(db_url: str) -> dict[str, str]:
    return {"REFEREE_DATABASE_URL": db_url, "REFEREE_BOARDS": str(BOARDS), "REFEREE_CONFIG": ""}


@pytest.fixture
def cli(db_url: str) -> Callable[..., Result]:
    """``cli("game", "list")``: run referee in this process against the test database."""
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, list(args), env=cli_env(db_url), catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, f"referee {' '.join(args)} -> {result.exit_code}: {result.output}"
        return result

    return run


def referee_process(db_url: str, *args: str, cwd: Path | None = None,
                    extra_env: dict[str, str] | None = None) -> Forked:
    """A real ``referee`` process (started, not waited for), forked from a Python that imported the product
    once (tests/servers/forked.py); its output as text."""
    env = dict(os.environ)
    env.update(cli_env(db_url))
    env.update(extra_env or {})
    return shared().start(list(args), env=env, cwd=cwd, text=True)
