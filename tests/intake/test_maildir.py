"""The embedded transport (a Maildir) and ``referee ingest`` (one mail from an MTA on standard input)."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from referee.common.config import Settings
from referee.intake.faults import ENV as FAULT_ENV
from referee.intake.faults import POINTS
from referee.intake.maildir import poll_maildir
from referee.store.mail_models import IncomingMail
from tests.servers.forked import shared
from tests.servers.processes import patience

from .helpers import REFEREE, address, block, hand, incoming, mail, new_game, outbox, program_lines

ROOT = Path(__file__).resolve().parents[2]
SERIAL = itertools.count()


@pytest.fixture
def maildir_settings(tmp_path: Path, db_url: str) -> Settings:
    return Settings(database_url=db_url, referee_address=REFEREE, transport="maildir",
                    maildir_in=str(tmp_path / "inbox"), imap_processed="Processed", signing_key="intake-tests")


def deliver(root: Path, raws: list[bytes], sub: str = "new") -> list[Path]:
    """Write mails into a Maildir the way an MTA does (tmp/, then a rename), each under a new name."""
    paths = []
    for sub_dir in ("tmp", "new", "cur"):
        (root / sub_dir).mkdir(parents=True, exist_ok=True)
    for raw in raws:
        i = next(SERIAL)
        name = f"{1700000000 + i}.M{i}P{os.getpid()}.test" + (":2," if sub == "cur" else "")
        tmp = root / "tmp" / name
        tmp.write_bytes(raw)
        paths.append(tmp.rename(root / sub / name))
    return paths


def notes(n: int, tag: str) -> list[bytes]:
    return [mail(address("carol"), f"note {i}\n", msgid=f"<{tag}-{i}@client.example.test>") for i in range(n)]


def test_mail_in_the_maildir_is_stored_once_and_put_in_the_processed_folder(maildir_settings, store):
    root = Path(maildir_settings.maildir_in)
    deliver(root, notes(3, "md"))
    deliver(root, notes(5, "md")[3:], sub="cur")
    first = poll_maildir(maildir_settings, store)
    second = poll_maildir(maildir_settings, store)
    assert (first.waiting, first.stored, first.moved) == (5, 5, 5)
    assert (second.waiting, second.stored) == (0, 0)
    assert os.listdir(root / "new") == [] and os.listdir(root / "cur") == []
    put_away = sorted(os.listdir(root / ".Processed" / "cur"))
    assert len(put_away) == 5 and all(name.endswith(":2,S") for name in put_away)
    rows = incoming(store)
    assert sorted(m.message_id for m in rows) == sorted(f"<md-{i}@client.example.test>" for i in range(5))
    assert all(m.source == "maildir" and m.moved_at is not None for m in rows)


def test_without_a_processed_folder_maildir_mail_is_flagged_seen(maildir_settings, store):
    settings = maildir_settings.with_overrides(imap_processed="")
    root = Path(settings.maildir_in)
    deliver(root, notes(2, "seen"))
    poll_maildir(settings, store)
    assert poll_maildir(settings, store).waiting == 0
    names = os.listdir(root / "cur")
    assert len(names) == 2 and all(name.endswith(":2,S") for name in names)
    assert len(incoming(store)) == 2


def referee(settings: Settings, *args: str, stdin: bytes | None = None, fault: str | None = None,
            extra: dict[str, str] | None = None, forked: bool = False) -> subprocess.CompletedProcess[bytes]:
    """``referee ARGS`` in a process of its own: a fresh interpreter, or ``forked`` from one that imported the
    product once (tests/servers/forked.py; no ``stdin``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update({"REFEREE_CONFIG": "", "REFEREE_DATABASE_URL": settings.database_url,
                "REFEREE_TRANSPORT": "maildir", "REFEREE_MAILDIR_IN": settings.maildir_in,
                "REFEREE_REFEREE_ADDRESS": settings.referee_address, "REFEREE_SIGNING_KEY": "intake-tests"})
    if fault:
        env[FAULT_ENV] = fault
    env.update(extra or {})
    if forked:
        proc = shared().start(list(args), env=env, cwd=ROOT)
        out, err = proc.communicate(timeout=patience(120))
        return subprocess.CompletedProcess(proc.args, proc.returncode or 0, out, err)
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], input=stdin, capture_output=True, env=env,
                          cwd=ROOT, timeout=patience(120))


def test_killing_a_maildir_pass_at_any_point_loses_and_doubles_nothing(maildir_settings, store):
    root = Path(maildir_settings.maildir_in)
    sent = 0
    for n, point in enumerate(POINTS):
        deliver(root, notes(5, f"kill{n}"))
        sent += 5
        nth = 1 if point in ("connected", "marked") else 1 + n % 2   # those two come once a pass
        died = referee(maildir_settings, "poll", "--batch", "2", fault=f"{point}:{nth}", forked=True)
        assert died.returncode == -signal.SIGKILL, (point, died.stderr)
    assert referee(maildir_settings, "poll", forked=True).returncode == 0
    assert os.listdir(root / "new") == [] and os.listdir(root / "cur") == []
    assert len(os.listdir(root / ".Processed" / "cur")) == sent
    with store.read() as s:
        ids = list(s.scalars(select(IncomingMail.message_id)))
    assert len(ids) == len(set(ids)) == sent


def test_ingest_stores_a_mail_from_standard_input_once(maildir_settings, store):
    code = new_game(store)
    cards = hand(store, code, "Zoom")[:5]
    raw = mail(address("carol"), block(store, code, "Zoom", program_lines(cards)))
    first = referee(maildir_settings, "ingest", "--process", stdin=raw)
    again = referee(maildir_settings, "ingest", stdin=raw)
    assert first.returncode == 0 and b"stored as mail" in first.stdout and b"1 accepted" in first.stdout
    assert again.returncode == 0 and b"had it already" in again.stdout
    (row,) = incoming(store)
    assert (row.source, row.outcome) == ("stdin", "accepted")
    assert [m.kind for m in outbox(store)] == ["echo"]


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_ingest_asks_the_mta_to_try_again_when_the_database_cannot_be_reached(maildir_settings, tmp_path):
    raw = mail(address("carol"), "HELP\n")
    down = referee(maildir_settings, "ingest", stdin=raw,
                   extra={"REFEREE_DATABASE_URL": "postgresql+psycopg://referee@127.0.0.1:1/referee"})
    unwritable = referee(maildir_settings, "ingest", stdin=raw,
                         extra={"REFEREE_DATABASE_URL": f"sqlite:///{tmp_path}/no/such/dir/db.sqlite3"})
    for result in (down, unwritable):
        assert result.returncode == 75, result.stderr
        assert b"try again later" in result.stderr


def test_mail_can_be_listed_shown_and_processed_again_from_the_command_line(maildir_settings, store):
    code = new_game(store)
    deliver(Path(maildir_settings.maildir_in), [mail(address("carol"), "HELP\n", msgid="<cli-1@x>"),
                                                mail("nobody@elsewhere.test", "hi\n", msgid="<cli-2@x>")])
    polled = referee(maildir_settings, "poll", "--process")
    assert polled.returncode == 0 and b"2 stored" in polled.stdout and b"1 accepted, 1 ignored" in polled.stdout
    listed = referee(maildir_settings, "mail", "list")
    assert b"accepted" in listed.stdout and b"unknown sender nobody@elsewhere.test" in listed.stdout
    first = incoming(store)[0]
    shown = referee(maildir_settings, "mail", "show", str(first.id), "--raw")
    assert shown.stdout == first.raw
    again = referee(maildir_settings, "mail", "reprocess", "--outcome", "ignored", "--now")
    assert again.returncode == 0 and b"1 mails put back" in again.stdout and b"1 ignored" in again.stdout
    assert [m.attempts for m in incoming(store)] == [1, 2]
    # carol's HELP is answered; the stranger gets one short note, once (processing again sends no second)
    assert code and sorted(m.kind for m in outbox(store)) == ["answer", "stranger"]
