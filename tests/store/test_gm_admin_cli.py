"""``referee gm-admin``: the operator adds a game master (whose key is shown once and works by mail at once),
lists them with their games, moves a game to another GM (both told), and removes a GM once their games
are moved (their key then stops working)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from click.testing import CliRunner
from sqlalchemy import select

from referee import games as g
from referee.cli import main
from referee.common.config import Settings
from referee.gm import handle_gm_text
from referee.store import Store
from referee.store.community_models import GameMaster
from referee.store.mail_models import OutgoingMail
from referee.store.models import AuditEntry

from .conftest import cli_env

GM, SECRET = "gm@example.test", "configured-secret-1"
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def run(db_url: str, *args: str, ok: bool = True):
    env = cli_env(db_url) | {"REFEREE_GM_ADDRESS": GM, "REFEREE_GM_SECRET": SECRET,
                             "REFEREE_REFEREE_ADDRESS": "referee@example.test"}
    result = CliRunner().invoke(main, ["gm-admin", *args], env=env, catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result


def by_mail(db_url: str, sender: str, key: str, *lines: str):
    settings = Settings(database_url=db_url, referee_address="referee@example.test", gm_address=GM,
                        gm_secret=SECRET, transport="maildir")
    with Store(db_url) as store:
        return handle_gm_text(store, settings, "\n".join([f"BEGIN GM key {key}", *lines, "END", ""]),
                              sender=sender, now=NOW)


def test_an_added_gm_gets_a_key_once_that_works_by_mail_at_once(db_url):
    out = run(db_url, "add", "Anna <Anna@Example.test>").output
    key = re.search(r"^  (\S+)$", out, re.MULTILINE).group(1)
    assert "anna@example.test is a game master" in out
    answer = by_mail(db_url, "anna@example.test", key, "NEWGAME RR-9 COURSE sprint")
    assert answer.accepted and "game RR-9 created" in answer.reply
    with Store(db_url) as store, store.read() as s:
        row = s.scalars(select(GameMaster)).one()
        assert key not in (row.secret_hash, row.address)   # only a digest is kept
        assert g.get_game(s, "RR-9").gm_address == "anna@example.test"
    assert "already a GM" in run(db_url, "add", "anna@example.test", ok=False).output
    assert "is the configured GM" in run(db_url, "add", GM, ok=False).output


def test_list_shows_the_configured_gm_first_and_every_gms_games(db_url):
    key = re.search(r"^  (\S+)$", run(db_url, "add", "anna@example.test").output, re.MULTILINE).group(1)
    by_mail(db_url, "anna@example.test", key, "NEWGAME RR-9 COURSE sprint")
    by_mail(db_url, GM, SECRET, "NEWGAME RR-1 COURSE sprint")
    rows = json.loads(run(db_url, "list", "--json").output)
    assert rows == [{"address": GM, "source": "configured", "active": True, "masters": ["RR-1"], "comasters": []},
                    {"address": "anna@example.test", "source": "added", "active": True, "masters": ["RR-9"],
                     "comasters": []}]
    text = run(db_url, "list").output
    assert "configured (gm_address)" in text and "masters RR-9" in text


def test_transfer_tells_both_and_remove_waits_for_the_games_to_be_moved(db_url):
    key = re.search(r"^  (\S+)$", run(db_url, "add", "anna@example.test").output, re.MULTILINE).group(1)
    by_mail(db_url, "anna@example.test", key, "NEWGAME RR-9 COURSE sprint")
    refused = run(db_url, "remove", "anna@example.test", ok=False).output
    assert "anna@example.test masters RR-9: transfer it first" in refused
    assert "is not a GM of this installation" in run(db_url, "transfer", "RR-9", "zed@example.test", ok=False).output
    moved = run(db_url, "transfer", "RR-9", GM).output
    assert "RR-9: master gm@example.test (was anna@example.test); both are told" in moved
    with Store(db_url) as store, store.read() as s:
        told = {m.recipients[0]: m.subject for m in s.scalars(select(OutgoingMail))}
        assert told == {GM: "RR-9: you are its game master now",
                        "anna@example.test": "RR-9: now run by another game master"}
    assert "no game 'RR-9'" in by_mail(db_url, "anna@example.test", key, "GAME RR-9").reply
    assert "no longer a game master" in run(db_url, "remove", "anna@example.test").output
    assert not by_mail(db_url, "anna@example.test", key, "HELP").accepted
    assert "anna@example.test" not in run(db_url, "list").output
    assert "removed" in run(db_url, "list", "--all").output
    with Store(db_url) as store, store.read() as s:
        actions = [e.action for e in s.scalars(select(AuditEntry).order_by(AuditEntry.id))
                   if e.action.startswith(("gm.", "game.transfer"))]
    assert actions == ["gm.add", "game.transfer", "gm.remove"]


def test_new_key_replaces_a_lost_key(db_url):
    old = re.search(r"^  (\S+)$", run(db_url, "add", "anna@example.test").output, re.MULTILINE).group(1)
    new = re.search(r"^  (\S+)$", run(db_url, "new-key", "anna@example.test").output, re.MULTILINE).group(1)
    assert not by_mail(db_url, "anna@example.test", old, "HELP").accepted
    assert by_mail(db_url, "anna@example.test", new, "HELP").accepted
    assert "gm_secret in the settings file" in run(db_url, "new-key", GM, ok=False).output
