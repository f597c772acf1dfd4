"""Two game masters on one installation, through the real IMAP and SMTP servers: the configured GM (gm@) runs
TWO-A with alice and bob, and Erin, added by the operator with ``referee gm-admin add``, runs TWO-B with carol
and dave, at the same time. Each GM's commands on the other's game are answered as for a game that does not
exist, and change nothing: not the game, not its players' mailboxes. Both games then play on."""

from __future__ import annotations

import contextlib
import re
import subprocess
from datetime import timedelta

from click.testing import CliRunner
from sqlalchemy import select

from referee import games as g
from referee.cli import main
from referee.store.models import AuditEntry, Base
from tests.e2e.test_game_by_mail import SECRET, T0, Mailer, at, text_of, tick_ok

MINE = {"gm": "TWO-A", "erin": "TWO-B"}
SEATS = {"TWO-A": {"Twonky": "alice", "Hammer": "bob"}, "TWO-B": {"Zoom": "carol", "Kit": "dave"}}


def unmarked(text: str) -> str:
    """An answer without its marker line (``[referee answer <id> ...]``), which differs in every answer."""
    return re.sub(r"^\[referee answer \S+", "[referee answer", text, flags=re.MULTILINE)


def snapshot(store, code: str) -> dict[str, list[str]]:
    """Every row of game ``code``: the game, its players, turns, orders, notices, mails, audit, co-masters."""
    with store.read() as s:
        game_id = g.get_game(s, code).id
        turns = {r.id for r in s.execute(select(Base.metadata.tables["turns"]).where(
            Base.metadata.tables["turns"].c.game_id == game_id))}
        out = {}
        for table in Base.metadata.sorted_tables:
            if table.name == "games":
                mine = table.c.id == game_id
            elif "game_id" in table.c:
                mine = table.c.game_id == game_id
            elif "turn_id" in table.c:
                mine = table.c.turn_id.in_(turns)
            else:
                continue
            out[table.name] = sorted(repr(tuple(r)) for r in s.execute(select(table).where(mine)))
        return out


def empty(dovecot, *users: str) -> None:
    """Empty the mailboxes the e2e fixture leaves alone."""
    for user in users:
        for box in ("INBOX", "Processed"):
            with contextlib.suppress(subprocess.CalledProcessError):
                dovecot.empty(user, box)


def add_gm(settings, user: str) -> str:
    """The operator adds ``user`` as a game master (``referee gm-admin add``): their new key."""
    env = {"REFEREE_DATABASE_URL": settings.database_url, "REFEREE_CONFIG": "", "REFEREE_GM_ADDRESS": at("gm"),
           "REFEREE_GM_SECRET": SECRET, "REFEREE_REFEREE_ADDRESS": at("referee")}
    added = CliRunner().invoke(main, ["gm-admin", "add", at(user)], env=env, catch_exceptions=False)
    assert added.exit_code == 0, added.output
    return re.search(r"^  (\S+)$", added.output, re.MULTILINE).group(1)


def test_two_gms_run_two_games_at_once_and_neither_touches_the_others(settings, store, dovecot, smtp_server):
    empty(dovecot, "erin", "dave")
    keys = {"gm": SECRET, "erin": add_gm(settings, "erin")}
    mail = Mailer(dovecot, smtp_server)
    clock = [T0]

    def commands(who: str, game: str | None, *lines: str, key: str | None = None) -> str:
        """``who`` mails a GM block; a tick runs; the one answer ``who`` gets, as text."""
        mail.send(who, f"BEGIN GM {game or ''} key {key or keys[who]}\n" + "\n".join(lines) + "\nEND\n",
                  subject="commands")
        clock[0] += timedelta(minutes=5)
        tick_ok(settings, store, clock[0])
        answers = [m for m in mail.inbox(who) if "GM commands" in str(m["Subject"])]
        assert len(answers) == 1, [str(m["Subject"]) for m in answers]
        return text_of(answers[0])

    # both set up their games, one mail each, in the same tick's neighbourhood
    for who, code in MINE.items():
        seats = [f"ADD PLAYER {at(user)} {robot}" for robot, user in SEATS[code].items()]
        answer = commands(who, None, f"NEWGAME {code} COURSE sprint SETTLE 0 SEED {code}", *seats, "START")
        assert f"game {code} created" in answer and "0 not done" in answer, answer
    for code, seats in SEATS.items():
        for user in seats.values():
            assert [str(m["Subject"]) for m in mail.inbox(user)] == [f"{code} has started: your cards for turn 1"]

    # each tries the other's game: by BEGIN line, by GAME, and with the other's key
    for who, theirs in (("gm", "TWO-B"), ("erin", "TWO-A")):
        before = snapshot(store, theirs)
        attempt = commands(who, theirs, "PAUSE", "SET DEADLINE +1h", f"ADD PLAYER {at('frank')} Sneak", "STATUS",
                           "END GAME")
        nowhere = commands(who, "TWO-ZZ", "PAUSE", "SET DEADLINE +1h", f"ADD PLAYER {at('frank')} Sneak", "STATUS",
                           "END GAME")
        assert unmarked(attempt.replace(theirs, "TWO-ZZ")) == unmarked(nowhere)
        assert attempt.count(f"NOT DONE: no game '{theirs}'") == 5
        switched = commands(who, MINE[who], f"GAME {theirs}", "PAUSE")
        assert f"NOT DONE: no game '{theirs}'" in switched and "not done: GAME on line 2 failed" in switched
        other = "erin" if who == "gm" else "gm"
        stolen = commands(who, theirs, "PAUSE", key=keys[other])
        assert "the GM key on the BEGIN GM line is missing or wrong" in stolen and theirs not in stolen
        assert snapshot(store, theirs) == before
        for user in SEATS[theirs].values():
            assert mail.inbox(user) == []   # the other game's players heard nothing

    # both games play on: each GM processes their own turn; the players get their results
    for who, code in MINE.items():
        answer = commands(who, code, "PROCESS")
        assert "turn 1 resolved" in answer, answer
        for user in SEATS[code].values():
            assert [str(m["Subject"]) for m in mail.inbox(user)] == [f"{code} turn 1 results, your cards for turn 2"]
    with store.read() as s:   # the audit log names each game's own GM, and only them, for what was done
        by_game = {(g.get_game(s, e.game_id).code, e.actor) for e in s.scalars(select(AuditEntry))
                   if e.game_id is not None}
    assert by_game == {("TWO-A", f"gm:{at('gm')}"), ("TWO-B", f"gm:{at('erin')}")}
