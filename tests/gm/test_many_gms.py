"""Many game masters on one installation (issue 31): Anna and Bert, added by the operator beside the
configured GM, each run their own game. A GM's key works only for the games that GM masters or co-masters;
another GM's attempt is answered exactly as a game that does not exist would be, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from referee import games as g
from referee.games import masters
from referee.gm import run_block
from referee.gm.commands import HANDLERS
from referee.gm.language import Command, GmBlock, parse_command
from referee.gm.people import GAMELESS
from referee.store.mail_models import OutgoingMail
from referee.store.models import AuditEntry, Base

from .conftest import GM, SECRET, Gm

ANNA, BERT = "anna@example.test", "bert@example.test"

#: a line of each GM command on game {game} (a command added later without one is tried bare: it must be
#: refused before it reads its arguments)
SAMPLES = {
    "game": "GAME {game}", "add_player": "ADD PLAYER zed@example.test Zed", "start": "START", "pause": "PAUSE",
    "resume": "RESUME", "end_game": "END GAME", "set_deadline": "SET DEADLINE +2d", "extend": "EXTEND 1d",
    "process": "PROCESS", "preview": "PREVIEW", "hold": "HOLD FOR REVIEW ON", "publish": "PUBLISH",
    "orders": "ORDERS Twonky FWD1 1, FWD1 2, FWD1 3, FWD1 4, FWD1 5", "set_robot": "SET Twonky DAMAGE 3",
    "rollback": "ROLLBACK 1", "rerun": "RERUN 1", "eject": "EJECT Twonky",
    "replace": "REPLACE Twonky WITH zed@example.test", "status": "STATUS", "timezone": "TIMEZONE Twonky Europe/Berlin",
    "hints": "HINTS ON", "comaster": "COMASTER ADD bert@example.test",
}


class Installation:
    """The configured GM plus Anna and Bert (keys from the operator), and a clock."""

    def __init__(self, store, settings) -> None:
        self.store, self.settings, self.gm = store, settings, Gm(store, settings)
        with store.write() as s:
            self.keys = {GM: SECRET, **{a: masters.add_gm(s, settings, a, actor="cli:op")[1] for a in (ANNA, BERT)}}

    def mail(self, sender: str, game: str | None, *lines: str, key: str | None = None):
        """A GM mail from ``sender`` with their key (or ``key``)."""
        head = f"BEGIN GM {game or ''} key {key or self.keys[sender]}".replace("  ", " ")
        return self.gm.mail("\n".join([head, *lines, "END", ""]), sender=sender)


@pytest.fixture
def site(store, settings) -> Installation:
    """Anna runs RR-A (started, Twonky and Hammer), Bert runs RR-B (started, Zoom and Kit)."""
    site = Installation(store, settings)
    for who, code, robots in ((ANNA, "RR-A", ("Twonky", "Hammer")), (BERT, "RR-B", ("Zoom", "Kit"))):
        answer = site.mail(who, None, f"NEWGAME {code} COURSE sprint DEADLINE 2d",
                           *(f"ADD PLAYER {r.lower()}@example.test {r}" for r in robots), "START")
        assert answer.accepted and "0 not done" in answer.reply, answer.reply
    return site


def everything(store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to see that nothing changed."""
    with store.read() as s:
        return {t.name: sorted((tuple(map(repr, row)) for row in s.execute(select(t))), key=repr)
                for t in Base.metadata.sorted_tables}


def test_newgame_makes_the_sender_its_master_and_nobody_else_runs_it(site):
    with site.store.read() as s:
        anna_game, bert_game = g.get_game(s, "RR-A"), g.get_game(s, "RR-B")
        assert masters.masters_of(s, anna_game, site.settings) == [ANNA]
        assert masters.may_master(s, site.settings, ANNA, anna_game)
        assert not masters.may_master(s, site.settings, BERT, anna_game)
        assert not masters.may_master(s, site.settings, GM, anna_game)   # the configured GM is no exception
        assert masters.may_master(s, site.settings, BERT, bert_game)


@pytest.mark.parametrize("intruder", [BERT, GM])
def test_every_gm_command_on_another_gms_game_is_answered_as_for_no_game_and_changes_nothing(site, intruder):
    before = everything(site.store)
    for name in sorted(set(HANDLERS) - GAMELESS):
        if name in SAMPLES:
            line = SAMPLES[name]
            assert parse_command(line.format(game="RR-A")).name == name, line
            theirs = site.mail(intruder, "RR-A", line.format(game="RR-A"))
            nowhere = site.mail(intruder, "RR-ZZ", line.format(game="RR-ZZ"))
            assert theirs.reply.replace("RR-A", "RR-ZZ") == nowhere.reply, name
            assert "no game 'RR-ZZ'" in nowhere.reply and "1 not done" in nowhere.reply, (name, nowhere.reply)
            assert theirs.reason == nowhere.reason, name
        else:   # a command added after this test: refused before it reads anything
            ctx = run_block(site.store, site.settings, GmBlock(game="RR-A", commands=[Command(name, {}, 1, name)],
                                                               found=True),
                            actor=f"gm:{intruder}", now=site.gm.now, reply_to=intruder, master=intruder)
            assert ctx.failures == 1 and "no game 'RR-A'" in ctx.lines[0], (name, ctx.lines)
    assert everything(site.store) == before


def test_the_gameless_commands_of_one_gm_leave_the_other_gms_game_alone(site):
    before = everything(site.store)["games"]
    answer = site.mail(BERT, "RR-A", "HELP")
    assert "COMASTER" in answer.reply and "SET SECRET" in answer.reply
    answer = site.mail(BERT, "RR-A", "NEWGAME RR-C COURSE sprint")
    assert "game RR-C created" in answer.reply
    with site.store.read() as s:
        assert g.get_game(s, "RR-C").gm_address == BERT
        assert g.get_game(s, "RR-A").status == "running"
    assert [row for row in everything(site.store)["games"] if "'RR-A'" in row[1]] == \
        [row for row in before if "'RR-A'" in row[1]]


def test_another_gms_key_is_a_wrong_key_and_reveals_nothing(site):
    before = everything(site.store)
    answer = site.mail(BERT, "RR-A", "PAUSE", key=site.keys[ANNA])
    assert not answer.accepted
    assert "the GM key on the BEGIN GM line is missing or wrong" in answer.reply and "RR-A" not in answer.reply
    assert "change your key (SET SECRET)" in answer.reply
    later = site.mail(BERT, "RR-B", "PAUSE", key="guess")   # the next guess the same day: not answered
    assert later.reply is None and not later.accepted
    after = everything(site.store)
    assert {k: v for k, v in after.items() if k != "service_state"} == \
        {k: v for k, v in before.items() if k != "service_state"}
    # Bert's guesses are counted apart from Anna's and the configured GM's
    assert site.mail(ANNA, "RR-A", "STATUS", key="guess").reply is not None


def test_a_co_master_runs_the_game_until_removed_and_only_the_master_chooses_them(site):
    refused = site.mail(BERT, "RR-A", "COMASTER ADD bert@example.test")
    assert "no game 'RR-A'" in refused.reply
    added = site.mail(ANNA, "RR-A", "COMASTER ADD bert@example.test", "COMASTER")
    assert "bert@example.test may run RR-A beside you" in added.reply
    assert "RR-A: master anna@example.test; co-masters: bert@example.test" in added.reply
    with site.store.read() as s:
        told = [m for m in s.scalars(select(OutgoingMail)) if m.recipients == [BERT]]
    assert any("you may run it too" in m.subject for m in told)
    paused = site.mail(BERT, "RR-A", "PAUSE", "COMASTER ADD gm@example.test")
    assert "done: paused" in paused.reply
    assert "only the master of RR-A (anna@example.test) adds or removes its co-masters" in paused.reply
    assert "no game" not in site.mail(BERT, "RR-A", "RESUME").reply
    with site.store.read() as s:
        actors = [(e.action, e.actor) for e in s.scalars(select(AuditEntry).order_by(AuditEntry.id))
                  if e.action in ("game.pause", "game.resume", "game.comaster.add")]
    assert actors == [("game.comaster.add", f"gm:{ANNA}"), ("game.pause", f"gm:{BERT}"),
                      ("game.resume", f"gm:{BERT}")]
    removed = site.mail(ANNA, "RR-A", "COMASTER REMOVE bert@example.test")
    assert "bert@example.test no longer runs RR-A" in removed.reply
    assert "no game 'RR-A'" in site.mail(BERT, "RR-A", "PAUSE").reply


def test_a_co_master_may_step_down_themselves(site):
    site.mail(ANNA, "RR-A", "COMASTER ADD bert@example.test")
    answer = site.mail(BERT, "RR-A", "COMASTER REMOVE bert@example.test")
    assert "bert@example.test no longer runs RR-A" in answer.reply
    with site.store.read() as s:
        assert masters.masters_of(s, g.get_game(s, "RR-A"), site.settings) == [ANNA]


def test_set_secret_gives_the_sender_a_new_key_and_the_old_one_stops_working(site):
    old = site.keys[ANNA]
    answer = site.mail(ANNA, None, "SET SECRET")
    assert answer.accepted
    new = answer.reply.split("your new GM key is ", 1)[1].split()[0]
    assert new != old and len(new) >= 20
    assert not site.mail(ANNA, "RR-A", "STATUS", key=old).accepted
    assert "RR-A on sprint: running" in site.mail(ANNA, "RR-A", "STATUS", key=new).reply
    assert site.mail(BERT, "RR-B", "STATUS").accepted   # Bert's key is his own, unchanged
    with site.store.read() as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "gm.secret")).one()
        assert entry.actor == f"gm:{ANNA}" and new not in repr(entry.details)


def test_the_configured_gms_key_stays_in_the_settings(site):
    answer = site.mail(GM, None, "SET SECRET")
    assert "your key is gm_secret in the settings file" in answer.reply
    assert site.mail(GM, None, "HELP").accepted   # gm_secret still works


def test_a_game_from_before_many_gms_stays_the_configured_gms(site):
    with site.store.write() as s:   # made at the command line: no gm_address; or for an address that is no GM
        old = g.create_game(s, course="sprint", code="RR-OLD", actor="cli:op")
        other = g.create_game(s, course="sprint", code="RR-X", gm_address="nobody@example.test", actor="cli:op")
        assert masters.masters_of(s, old, site.settings) == [GM]
        assert masters.masters_of(s, old) == []   # without the settings: the caller falls back to gm_address
        assert masters.masters_of(s, other, site.settings) == [GM]
    assert "done: paused" not in site.mail(ANNA, "RR-OLD", "STATUS").reply
    assert "no game 'RR-OLD'" in site.mail(ANNA, "RR-OLD", "STATUS").reply
    assert "RR-OLD on sprint: forming" in site.mail(GM, "RR-OLD", "STATUS").reply
    assert "RR-X on sprint: forming" in site.mail(GM, "RR-X", "STATUS").reply


def test_a_removed_gm_is_refused_and_the_operator_moves_games_first(site):
    with site.store.write() as s, pytest.raises(Exception, match="masters RR-B: transfer it first"):
        masters.remove_gm(s, site.settings, BERT, actor="cli:op")
    with site.store.write() as s:
        game, old = masters.transfer(s, site.settings, "RR-B", ANNA, actor="cli:op")
        assert (game.gm_address, old) == (ANNA, BERT)
        masters.remove_gm(s, site.settings, BERT, actor="cli:op")
    assert not site.mail(BERT, "RR-B", "STATUS").accepted
    assert "RR-B on sprint: running" in site.mail(ANNA, "RR-B", "STATUS").reply
    with site.store.read() as s:
        assert [e.details for e in s.scalars(select(AuditEntry).where(AuditEntry.action == "game.transfer"))] == \
            [{"old": BERT, "new": ANNA}]


def test_the_audit_log_names_the_gm_for_every_change_their_mails_make(site):
    site.mail(ANNA, "RR-A", "COMASTER ADD bert@example.test")
    assert "0 not done" in site.mail(ANNA, "RR-A", "SET DEADLINE +3d", "EXTEND 1d", "HOLD FOR REVIEW ON", "HINTS ON",
                                     "TIMEZONE Twonky Europe/Berlin", "SET Twonky DAMAGE 2").reply
    assert "0 not done" in site.mail(BERT, "RR-A", "PAUSE", "RESUME", "PROCESS", "PUBLISH", "EJECT Hammer").reply
    with site.store.read() as s:
        game = g.get_game(s, "RR-A")
        entries = [(e.action, e.actor) for e in s.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id)
                                                          .order_by(AuditEntry.id))]
    assert {actor for _, actor in entries} == {f"gm:{ANNA}", f"gm:{BERT}"}, entries
    assert ("player.add", f"gm:{ANNA}") in entries and ("game.pause", f"gm:{BERT}") in entries


def test_a_command_that_names_its_game_is_checked_against_that_game(site):
    """A command whose arguments name a game (``code``), as GAME does, acts on that game: it is that game the
    sender must run, whatever the BEGIN line says."""
    own = Command("status", {"code": "RR-B"}, 1, "STATUS")   # as a command naming RR-B would be read
    ctx = run_block(site.store, site.settings, GmBlock(game="RR-A", commands=[own], found=True),
                    actor=f"gm:{ANNA}", now=site.gm.now, reply_to=ANNA, master=ANNA)
    assert ctx.failures == 1 and "no game 'RR-B'" in ctx.lines[0]
