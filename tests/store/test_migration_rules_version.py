"""A game keeps its rules version (issue 44): a database made by the release before (revision 0014, rules
version 3) with games mid-turn upgrades with ``referee db upgrade``; its games go on under version 3, the
turns already dealt are resolved under the version they were dealt under, and only the GM's ``SET RULES 4``
moves a game on, from the next turn dealt, telling its players what changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from click.testing import CliRunner
from sqlalchemy import inspect, select

from referee import games as g
from referee.cli import main
from referee.common.config import Settings
from referee.engine import RULES_VERSION
from referee.games import fills
from referee.games.engine_io import turn_rules
from referee.gm import handle_gm_text
from referee.store import Store, head_revision
from referee.store.mail_models import OutgoingMail

from .conftest import cli_env

GM, SECRET = "gm@example.test", "configured-secret-1"
T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def test_games_mid_turn_keep_rules_version_3_after_the_upgrade_until_their_gm_moves_them(empty_url):
    settings = Settings(database_url=empty_url, referee_address="referee@example.test", gm_address=GM,
                        gm_secret=SECRET, transport="maildir")
    with Store(empty_url) as store:
        # the games are made by today's code, then the database is taken back to 0014 as the release before
        # left it: no game knows its rules version, and no open turn the version it was dealt under
        store.upgrade()
        with store.write() as s:
            for code in ("RR-1", "RR-2"):
                game = g.create_game(s, course="sprint", code=code, seed=code, gm_address=GM, actor="test", now=T0)
                for robot in ("Twonky", "Hammer"):
                    g.add_player(s, game, email=f"{robot.lower()}@example.test", robot=robot, now=T0)
                g.start_game(s, game, actor="test", now=T0)
            g.resolve_turn(s, "RR-2", fill=fills.filling("random", g.get_game(s, "RR-2")), actor="test", now=T0)
        assert store.downgrade("0014") == (head_revision(), "0014")
        with store.read() as s:
            assert "rules_version" not in {c["name"] for c in inspect(s.connection()).get_columns("games")}

    result = CliRunner().invoke(main, ["db", "upgrade"], env=cli_env(empty_url), catch_exceptions=False)
    assert result.exit_code == 0, result.output

    with Store(empty_url) as store:
        with store.read() as s:
            for code, open_turn in (("RR-1", 1), ("RR-2", 2)):
                game = g.get_game(s, code)
                turn = g.get_turn(s, game, open_turn)
                assert game.rules_version == 3 and turn.rules_version == 3
                rules = turn_rules(turn)   # the old readings, as version 3 played them
                assert rules.version == 3 and rules.radioactive_once and not rules.seat_free
            assert g.get_turn(s, g.get_game(s, "RR-2"), 1).rules_version == RULES_VERSION  # resolved: as resolved

        # the open turn is resolved under version 3, and so is the next one dealt: the upgrade changed nothing
        with store.write() as s:
            game = g.get_game(s, "RR-1")
            done = g.resolve_turn(s, game, fill=fills.filling("random", game), actor="test", now=T0)
            assert done.rules_version == 3 and g.get_turn(s, game, 2).rules_version == 3
        with store.read() as s:
            _, same = g.replay_turn(s, g.get_game(s, "RR-1"), 1)
            assert same

        # the GM moves RR-1 to version 4: from the next turn dealt, the players told what changes
        answer = handle_gm_text(store, settings, f"BEGIN GM RR-1 key {SECRET}\nSET RULES 4\nEND\n", sender=GM,
                                now=T0 + timedelta(hours=1))
        assert answer.accepted and "RR-1 plays rules version 4 from turn 3 (was 3)" in answer.reply, answer.reply
        with store.write() as s:
            told = [m for m in s.scalars(select(OutgoingMail)) if "rules version 4" in m.subject]
            assert sorted(r for m in told for r in m.recipients) == ["hammer@example.test", "twonky@example.test"]
            body = told[0].raw.decode("utf-8", "replace")
            assert "radioactive" in body.lower() and "pusher_slides_hold" in body
            game = g.get_game(s, "RR-1")
            assert game.rules_version == 4 and g.get_turn(s, game, 2).rules_version == 3  # dealt under 3
            done = g.resolve_turn(s, game, fill=fills.filling("random", game), actor="test", now=T0)
            assert done.rules_version == 3 and g.get_turn(s, game, 3).rules_version == 4
            assert g.get_game(s, "RR-2").rules_version == 3   # another game is not moved

        answer = handle_gm_text(store, settings, f"BEGIN GM RR-1 key {SECRET}\nSET RULES 9\nEND\n", sender=GM,
                                now=T0 + timedelta(hours=2))
        assert "not one this referee plays" in answer.reply
