"""GM administration without surprises (issue 43): only GMs of the installation run games, the referee is no GM,
and whoever loses a game's mail is told why: a removed GM, an ejected or a replaced player; co-masters get
the GM's copy of each turn."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from referee.cli import main
from referee.games import masters
from referee.store.errors import Duplicate, InvalidValue
from referee.store.mail_models import OutgoingMail

from .conftest import GM

ANNA, CAROL = "anna@example.test", "carol@example.test"


def sent_to(store, address: str) -> list[OutgoingMail]:
    with store.read() as s:
        return [m for m in s.scalars(select(OutgoingMail).order_by(OutgoingMail.id)) if m.recipients == [address]]


def test_the_referee_and_an_existing_gm_cannot_be_added(store, settings):
    with store.write() as s, pytest.raises(InvalidValue, match="the referee's own address"):
        masters.add_gm(s, settings, "Referee@Example.test", actor="cli:op")
    with store.write() as s:
        masters.add_gm(s, settings, ANNA, actor="cli:op")
    with store.write() as s, pytest.raises(Duplicate, match="already a GM"):
        masters.add_gm(s, settings, ANNA, actor="cli:op")


def test_an_ejected_player_is_told_and_the_others_too(store, running):
    running("EJECT Hammer")
    told = sent_to(store, "hammer@example.test")
    assert [m.subject for m in told if "no longer" in m.subject] == ["RR-1: you no longer play Hammer"]
    assert b"no more turn mails" in told[-1].raw


def test_a_replaced_player_is_told_at_the_old_address(store, running):
    running("REPLACE Zoom WITH zed@example.test")
    old = [m.subject for m in sent_to(store, "zoom@example.test")]
    assert "RR-1: Zoom has a new player" in old
    assert any("you take over Zoom" in m.subject for m in sent_to(store, "zed@example.test"))


def test_a_co_master_gets_the_gms_copy_of_each_turn(store, settings, running):
    with store.write() as s:
        masters.add_gm(s, settings, ANNA, actor="cli:op")
    running("COMASTER ADD anna@example.test")
    running("PROCESS")
    copies = [m for m in sent_to(store, ANNA) if m.kind == "gm_copy" and "turn 1 results" in m.subject]
    gm_copies = [m for m in sent_to(store, GM) if m.kind == "gm_copy" and "turn 1 results" in m.subject]
    assert len(copies) == len(gm_copies) == 1
    assert copies[0].subject == gm_copies[0].subject and copies[0].message_id != gm_copies[0].message_id


def test_game_new_refuses_a_gm_who_is_none_and_a_removed_gm_is_told(store, settings, db_url, tmp_path):
    config = tmp_path / "referee.toml"
    config.write_text(f'database_url = "{db_url}"\nreferee_address = "referee@example.test"\n'
                      f'gm_address = "{GM}"\ngm_secret = "a-long-gm-secret"\n')
    runner = CliRunner()

    def referee(*args: str):
        return runner.invoke(main, ["-c", str(config), *args], env={"REFEREE_CONFIG": ""})

    refused = referee("game", "new", "OP-1", "--gm", CAROL)
    assert refused.exit_code == 2 and f"{CAROL} is not a game master of this installation" in refused.output
    assert referee("game", "new", "OP-1", "--gm", GM).exit_code == 0
    assert referee("gm-admin", "add", "referee@example.test").exit_code == 1
    added = referee("gm-admin", "add", CAROL)
    assert added.exit_code == 0 and "note:" not in added.output
    removed = referee("gm-admin", "remove", CAROL)
    assert removed.exit_code == 0 and "they are told by mail" in removed.output
    assert [m.subject for m in sent_to(store, CAROL)] == ["You are no longer a game master here"]
