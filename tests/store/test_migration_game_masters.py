"""An installation with one configured GM, made before there were many GMs (revision 0012), upgrades with
``referee db upgrade``: its games are the same row for row, and the configured GM runs them by mail as before."""

from __future__ import annotations

from datetime import UTC, datetime

from click.testing import CliRunner
from sqlalchemy import inspect, select

from referee import games as g
from referee.cli import main
from referee.common.config import Settings
from referee.games import masters
from referee.gm import handle_gm_text
from referee.store import Store, head_revision
from referee.store.models import Base

from .conftest import cli_env

GM, SECRET = "gm@example.test", "configured-secret-1"
T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
def columns_at(store: Store, names: set[str]) -> dict[str, set[str]]:
    """The columns each table of ``names`` has in the database as it is now."""
    with store.read() as s:
        have = inspect(s.connection())
        return {name: {c["name"] for c in have.get_columns(name)} for name in names}


def rows(store: Store, columns: dict[str, set[str]]) -> dict[str, list[str]]:
    """Every row of the tables a database at 0012 has, in the columns it had (later revisions add some). An
    open turn's ``rules_version`` is left out: 0017 writes the version it was dealt under into it."""
    with store.read() as s:
        return {t.name: sorted(repr(tuple(r)) for r in s.execute(select(*[
            c for c in t.c if c.name in columns[t.name] and (t.name, c.name) != ("turns", "rules_version")])))
            for t in Base.metadata.sorted_tables if t.name in columns}


def test_a_single_gm_database_upgrades_and_its_games_keep_working(empty_url):
    settings = Settings(database_url=empty_url, referee_address="referee@example.test", gm_address=GM,
                        gm_secret=SECRET, transport="maildir")
    with Store(empty_url) as store:
        # the games are made by today's code, then the database is taken back to 0012 (as it was made then:
        # the columns and tables of later revisions go), so today's models can write them
        assert store.upgrade() == (None, head_revision())
        with store.write() as s:   # one game the GM made by mail (gm_address), one made at the command line
            for code, gm in (("RR-1", GM), ("RR-2", None)):
                game = g.create_game(s, course="sprint", code=code, seed=code, gm_address=gm, actor=f"gm:{GM}",
                                     now=T0)
                for robot in ("Twonky", "Hammer"):
                    g.add_player(s, game, email=f"{robot.lower()}@example.test", robot=robot, now=T0)
                g.start_game(s, game, actor=f"gm:{GM}", now=T0)
        assert store.downgrade("0012") == (head_revision(), "0012")
        with store.read() as s:
            old_tables = set(inspect(s.connection()).get_table_names())
        assert "game_masters" not in old_tables
        old_columns = columns_at(store, old_tables)
        before = rows(store, old_columns)

    env = cli_env(empty_url) | {"REFEREE_GM_ADDRESS": GM, "REFEREE_GM_SECRET": SECRET}
    result = CliRunner().invoke(main, ["db", "upgrade"], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"0012 -> {head_revision()}" in result.output

    with Store(empty_url) as store:
        assert rows(store, old_columns) == before
        with store.read() as s:
            for code in ("RR-1", "RR-2"):
                game = g.get_game(s, code)
                assert masters.masters_of(s, game, settings) == [GM]
                assert masters.may_master(s, settings, GM, game)
        answer = handle_gm_text(store, settings, f"BEGIN GM RR-1 key {SECRET}\nPAUSE\nGAME RR-2\nSTATUS\nEND\n",
                                sender=GM, now=T0)
        assert answer.accepted and "3 command(s) done, 0 not done" in answer.reply
        assert "done: paused" in answer.reply and "RR-2 on sprint: running, turn 1" in answer.reply
        with store.read() as s:
            assert g.get_game(s, "RR-1").status == "paused"
            assert g.get_game(s, "RR-1").gm_address == GM and g.get_game(s, "RR-2").gm_address is None
        assert store.downgrade("0012") == (head_revision(), "0012")
