"""GM commands run against a real store (SQLite and PostgreSQL), with a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.common.config import Settings
from referee.gm import GmAnswer, handle_gm_text, run_block
from referee.gm.commands import GmContext
from referee.gm.language import GmBlock, parse_lines
from referee.store import Store

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
GM = "gm@example.test"
SECRET = "gm-secret-1"


@pytest.fixture
def settings() -> Settings:
    return Settings(database_url="sqlite://", referee_address="referee@example.test", gm_address=GM,
                    gm_secret=SECRET, transport="maildir")


class Gm:
    """Runs command lines as the GM at a time the test moves."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store, self.settings, self.now, self.game = store, settings, T0, None

    def __call__(self, *lines: str, ok: bool = True) -> GmContext:
        commands, errors = parse_lines(list(enumerate(lines, start=1)))
        assert not errors, errors
        ctx = run_block(self.store, self.settings, GmBlock(game=self.game, commands=commands, found=True),
                        actor=f"gm:{GM}", now=self.now, reply_to=GM)
        self.game = ctx.game
        if ok:
            assert ctx.failures == 0, ctx.lines
        return ctx

    def mail(self, text: str, sender: str = GM) -> GmAnswer:
        return handle_gm_text(self.store, self.settings, text, sender=sender, now=self.now)

    def later(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def gm(store: Store, settings: Settings) -> Gm:
    return Gm(store, settings)


@pytest.fixture
def running(gm: Gm) -> Gm:
    """RR-1 on the sprint course with Twonky, Hammer and Zoom, started."""
    gm("NEWGAME RR-1 COURSE sprint DEADLINE 2d", "ADD PLAYER twonky@example.test Twonky",
       "ADD PLAYER hammer@example.test Hammer", "ADD PLAYER zoom@example.test Zoom", "START")
    return gm
