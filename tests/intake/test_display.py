"""What comes from mail or from a GM never reaches a header, a terminal or a page unchecked: an ADD
PLAYER address must be one plain address, `referee mail list` shows escapes as visible text, and no
name can turn a page's text around with a bidi control character."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from referee import games as g
from referee.archive import build_archive
from referee.common.textsafe import clean_name, for_terminal
from referee.gm import run_block
from referee.gm.language import GmBlock, parse_lines
from referee.store.errors import InvalidValue
from referee.store.mail import record_incoming
from tests.reports.helpers import T0, play_turn
from tests.reports.helpers import new_game as report_game
from tests.servers.processes import patience

from .helpers import GM, mail, new_game, outbox, text_of
from .stored import deliver, hostile_settings

RLO = "\u202e"
ROOT = Path(__file__).resolve().parents[2]


def gm(store, settings, *lines: str, game: str | None = None):
    commands, errors = parse_lines(list(enumerate(lines, start=1)))
    assert not errors, errors
    return run_block(store, settings, GmBlock(game=game, commands=commands, found=True), actor=f"gm:{GM}",
                     now=T0, reply_to=GM)


@pytest.mark.parametrize("address", ["v@x.example\r\nBcc: w@x.example", "v@x.example\\r\\nBcc: w@x.example",
                                     "u@x.example, w@x.example", "u@x.example; w@x.example",
                                     "Bcc: w@x.example"])
def test_add_player_refuses_a_list_or_a_header_fragment_and_seats_nobody(store, db_url, address):
    settings = hostile_settings(db_url)
    gm(store, settings, "NEWGAME RR-5 COURSE sprint")
    ctx = gm(store, settings, f'ADD PLAYER "{address}" Ry', game="RR-5")
    assert ctx.failures == 1
    assert "give one" in "\n".join(ctx.lines)
    with store.read() as s:
        assert g.get_game(s, "RR-5").players == []


def test_one_plain_address_is_read_as_the_standard_reads_it():
    assert g.normalize_email('Alice <Alice@Example.test>') == "alice@example.test"
    assert g.normalize_email('"alice"@example.test') == "alice@example.test"
    with pytest.raises(InvalidValue):
        g.normalize_email("alice@exa\x00mple.test")


def test_mail_list_shows_terminal_escapes_as_text(store, db_url):
    with store.write() as s:
        record_incoming(s, b"From: \x1b]0;pwned\x07eve@example.test\r\nSubject: \x1b[2J\x1b[31mred " + RLO.encode()
                        + b"\r\nMessage-ID: <esc@x>\r\n\r\nhi\r\n", source="stdin")
    env = {"REFEREE_CONFIG": "", "REFEREE_DATABASE_URL": db_url, "PATH": "/usr/bin:/bin"}
    listed = subprocess.run([sys.executable, "-m", "referee.cli", "mail", "list"], capture_output=True, env=env,
                            cwd=ROOT, timeout=patience(120))
    assert listed.returncode == 0, listed.stderr
    assert b"\x1b" not in listed.stdout and RLO.encode() not in listed.stdout
    assert b"\\x1b[2J" in listed.stdout


def test_names_lose_their_bidi_and_control_characters_when_stored():
    assert clean_name(f"Ali{RLO}ce\x1b[31m\n") == "Alice [31m"
    assert for_terminal(f"a{RLO}\x1bb") == "a\\u202e\\x1bb"


def test_no_output_carries_a_bidi_control_from_a_name(store, db_url, tmp_path):
    code = report_game(store)
    with store.write() as s:   # stored before names were cleaned: the outputs still drop the control
        game = g.get_game(s, code)
        game.title = f"The {RLO}race"
        game.players[0].name = f"evil{RLO}gpj.exe"
    play_turn(store, code, now=T0 + timedelta(hours=1))
    build_archive(store, tmp_path / "site", now=T0 + timedelta(hours=2))
    pages = [p.read_text() for p in (tmp_path / "site").rglob("*.html")]
    assert any("The race" in p for p in pages)
    assert not any(RLO in p for p in pages)
    assert not any(RLO in m.raw.decode("utf-8", "replace") for m in outbox(store))


def test_answers_carry_no_bidi_control(store, db_url):
    new_game(store)
    settings = hostile_settings(db_url)
    deliver(store, settings, mail("alice@example.test", f"HELP {RLO}\n", subject=f"help {RLO}"))
    (answer,) = outbox(store)
    assert RLO not in text_of(answer.raw) and RLO not in answer.subject
