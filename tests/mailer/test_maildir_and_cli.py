"""The embedded default writes outgoing mail into a Maildir; and the outbox from the command line, from
``referee game start`` and ``referee game resolve`` queueing the mails to ``referee outbox send``."""

from __future__ import annotations

import email
import json
from email import policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.common.config import Settings
from referee.common.config_load import load_settings
from referee.mailer import MaildirTransport, send_outbox, transport_for
from tests.reports.helpers import PLAYERS, SETTINGS, T0, new_game, outbox
from tests.servers.ports import free_port

from .conftest import FAST


def _maildir(tmp_path: Path) -> Settings:
    return SETTINGS.with_overrides(transport="maildir", maildir_out=str(tmp_path / "out"))


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((directory / "new").iterdir())}


async def test_mails_go_into_the_outgoing_maildir_with_their_envelope(store, tmp_path):
    settings = _maildir(tmp_path)
    new_game(store)
    report = await send_outbox(store, settings, now=T0, policy=FAST)
    rows = outbox(store)
    assert report.sent == len(rows) == len(PLAYERS) + 1
    files = _files(tmp_path / "out")
    assert len(files) == len(rows)
    assert not list((tmp_path / "out" / "tmp").iterdir())
    by_id = {}
    for data in files.values():
        msg = email.message_from_bytes(data, policy=policy.default)
        by_id[msg["Message-ID"]] = (msg, data)
    for row in rows:
        msg, data = by_id[row.message_id]
        assert msg["Return-Path"] == "<referee@example.test>"
        assert msg["X-Envelope-To"] == row.recipients[0]
        assert data.endswith(row.raw)


async def test_a_mail_written_again_replaces_its_file_instead_of_adding_one(tmp_path):
    transport = MaildirTransport(tmp_path / "out")
    raw = b"From: referee@example.test\r\nTo: alice@example.test\r\nMessage-ID: <m1@example.test>\r\n\r\nhello\r\n"
    await transport.send("referee@example.test", ["alice@example.test"], raw)
    once = _files(tmp_path / "out")
    await transport.send("referee@example.test", ["alice@example.test"], raw)
    assert _files(tmp_path / "out") == once
    other = raw.replace(b"<m1@", b"<m2@")
    await transport.send("referee@example.test", ["alice@example.test"], other)
    assert len(_files(tmp_path / "out")) == 2


def test_the_default_transport_is_a_maildir_beside_the_config_file(tmp_path):
    config = tmp_path / "referee.toml"
    config.write_text('referee_address = "referee@example.test"\n')
    transport = transport_for(load_settings(config, env={}))
    assert isinstance(transport, MaildirTransport)
    assert transport.directory == tmp_path / "mail" / "out"


# -- the command line -----------------------------------------------------------------------------------------
@pytest.fixture
def referee(db_url, tmp_path):
    runner = CliRunner()
    env = {"REFEREE_DATABASE_URL": db_url, "REFEREE_CONFIG": "", "REFEREE_TRANSPORT": "maildir",
           "REFEREE_MAILDIR_OUT": str(tmp_path / "out"), "REFEREE_REFEREE_ADDRESS": "referee@example.test",
           "REFEREE_GM_ADDRESS": "gm@example.test"}

    def run(*args: str, code: int = 0, **more: str):
        result = runner.invoke(main, list(args), env={**env, **more}, catch_exceptions=False)
        assert result.exit_code == code, f"referee {' '.join(args)} -> {result.exit_code}: {result.output}"
        return result.output

    return run


def test_game_start_and_resolve_queue_the_mails_and_outbox_send_sends_them(referee, tmp_path):
    referee("game", "new", "--course", "sprint", "RR-9", "--seed", "cli")
    for robot, user in PLAYERS.items():
        referee("game", "add-player", "RR-9", f"{user}@example.test", robot)
    out = referee("game", "start", "RR-9")
    assert "RR-9: started with 3 robots; turn 1 dealt" in out and out.rstrip().endswith("; 4 mails queued")
    out = referee("game", "resolve", "RR-9", "--fill", "random")
    assert "RR-9: turn 1 resolved, turn 2 dealt; 4 mails queued" in out
    listed = json.loads(referee("outbox", "list", "--json"))
    assert [(m["kind"], m["status"], m["turn"]) for m in reversed(listed)] == \
        [("turn_start", "pending", 1)] * 3 + [("gm_copy", "pending", 1)] + \
        [("turn_report", "pending", 1)] * 3 + [("gm_copy", "pending", 1)]
    assert referee("outbox", "send").strip() == "outbox: 8 sent, 0 postponed, 0 failed"
    assert len(_files(tmp_path / "out")) == 8
    assert {m["status"] for m in json.loads(referee("outbox", "list", "--json"))} == {"sent"}
    assert referee("outbox", "send").strip() == "outbox: 0 sent, 0 postponed, 0 failed"
    text = referee("outbox", "list", "--game", "RR-9", "--status", "sent", "--limit", "2")
    assert len(text.splitlines()) == 2 and "RR-9 t1" in text


def test_a_game_under_review_holds_the_players_mails(referee):
    referee("game", "new", "--course", "sprint", "RR-10", "--seed", "cli", "--hold-for-review")
    for robot, user in PLAYERS.items():
        referee("game", "add-player", "RR-10", f"{user}@example.test", robot)
    referee("game", "start", "RR-10")
    out = referee("game", "resolve", "RR-10", "--fill", "random")
    assert "4 mails queued (held for review)" in out
    held = json.loads(referee("outbox", "list", "--status", "held", "--json"))
    assert [m["kind"] for m in held] == ["turn_report"] * 3


def test_a_failed_mail_can_be_shown_and_queued_again(referee, smtp_server, tmp_path):
    smtp = {"REFEREE_TRANSPORT": "imap", "REFEREE_SMTP_HOST": "127.0.0.1", "REFEREE_SMTP_TLS": "none",
            "REFEREE_SMTP_PORT": str(smtp_server.port)}
    referee("game", "new", "--course", "sprint", "RR-11", "--seed", "cli")
    referee("game", "add-player", "RR-11", "alice@example.test", "Twonky")
    referee("game", "add-player", "RR-11", "nobody@elsewhere.test", "Hammer")
    referee("game", "start", "RR-11")
    assert referee("outbox", "send", **smtp).strip() == "outbox: 3 sent, 0 postponed, 1 failed, GM told of 1"
    [failed] = json.loads(referee("outbox", "list", "--status", "failed", "--json"))
    assert failed["to"] == ["nobody@elsewhere.test"] and failed["last_error"].startswith("nobody@elsewhere.test: 550")
    shown = json.loads(referee("outbox", "show", str(failed["id"])))
    assert shown["message_id"] == failed["message_id"]
    raw = referee("outbox", "show", str(failed["id"]), "--raw")
    assert f"Message-ID: {failed['message_id']}" in raw
    assert referee("outbox", "retry", str(failed["id"])).strip() == f"queued again: {failed['id']}"
    assert json.loads(referee("outbox", "show", str(failed["id"])))["status"] == "pending"
    assert "not failed or cancelled" in referee("outbox", "retry", str(failed["id"]), code=1)


def test_outbox_send_exits_1_when_the_server_cannot_be_reached(referee):
    referee("game", "new", "--course", "sprint", "RR-12", "--seed", "cli")
    referee("game", "add-player", "RR-12", "alice@example.test", "Twonky")
    referee("game", "add-player", "RR-12", "bob@example.test", "Hammer")
    referee("game", "start", "RR-12")
    out = referee("outbox", "send", code=1, REFEREE_TRANSPORT="imap", REFEREE_SMTP_HOST="127.0.0.1",
                  REFEREE_SMTP_TLS="none", REFEREE_SMTP_PORT=str(free_port()), REFEREE_MAIL_TIMEOUT="2")
    assert out.startswith("outbox: 0 sent, 1 postponed, 0 failed; stopped: smtp 127.0.0.1:")
    assert {m["status"] for m in json.loads(referee("outbox", "list", "--json"))} == {"pending"}
