"""Kill figures: real ``referee tick`` and ``referee ingest`` processes killed with SIGKILL, counted.

    .venv/bin/python benchmarks/kill_intake.py [--gm-midway 60] [--smtp-kills 120] [--postgresql]

Starts a private Dovecot and an SMTP server on loopback (as the tests do: root and Debian's
dovecot-imapd needed) and a new database (a SQLite file, or with ``--postgresql`` a private
PostgreSQL), then runs the two rigs of ``tests/tick/kills.py``:

- GM mails on the Maildir transport: ticks killed until ``--gm-midway`` of them died inside a GM
  mail (its commands carried out, nothing committed), as many again at random times; then counts
  GM mails lost, carried out twice, or not answered exactly once;
- orders and GM mails on the SMTP transport (``transport = "smtp"``): mails piped into ``referee
  ingest`` (killed now and then, and piped again as an MTA does) and ticks killed at random times
  until ``--smtp-kills`` ticks died; then counts mails lost, orders or answers missing or doubled,
  and every mail out as it arrived in Dovecot: missing, or delivered twice (with the resends the
  referee counted itself).

Prints one line per rig. ``--gm-midway 0`` or ``--smtp-kills 0`` skips a rig.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.store import Store  # noqa: E402
from tests.servers.dovecot import start_dovecot  # noqa: E402
from tests.servers.smtp import start_smtp  # noqa: E402
from tests.tick.kills import Rig, gm_kills, smtp_kills  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gm-midway", type=int, default=60, help="ticks to kill inside GM mails")
    parser.add_argument("--smtp-kills", type=int, default=120, help="ticks to kill on the SMTP transport")
    parser.add_argument("--postgresql", action="store_true", help="a private PostgreSQL instead of SQLite")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="referee-kills-"))
    mail_root = Path(tempfile.mkdtemp(prefix="referee-kills-dovecot-"))  # Dovecot's users must reach it
    dovecot = start_dovecot(mail_root)
    smtp = start_smtp(dovecot.lmtp_port)
    cluster = None
    if args.postgresql:
        from tests.store.pgcluster import PostgresCluster

        cluster = PostgresCluster.start()
    try:
        def database(name: str) -> str:
            url = cluster.create_database() if cluster is not None else f"sqlite:///{root / name}.sqlite3"
            Store(url).upgrade()
            return url

        which = "PostgreSQL" if cluster is not None else "SQLite"
        if args.gm_midway:
            url = database("gm")
            (root / "gm").mkdir()
            with Store(url) as store:
                report = gm_kills(Rig(url, root / "gm"), store, midway=args.gm_midway)
            print(f"GM mails, maildir transport, {which}: {report.line()}", flush=True)
        if args.smtp_kills:
            url = database("smtp")
            (root / "smtp").mkdir()
            with Store(url) as store:
                report = smtp_kills(Rig(url, root / "smtp", transport="smtp", smtp_port=smtp.port), store, dovecot,
                                    tick_kills=args.smtp_kills)
            print(f"orders and GM mails, smtp transport, {which}: {report.line()}", flush=True)
            if report.doubled:
                print(f"  delivered twice: {report.doubled} of {report.outgoing} mails out "
                      f"({report.doubled / max(1, report.tick_kills):.3f} per killed tick)")
    finally:
        smtp.stop()
        dovecot.stop()
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(mail_root, ignore_errors=True)


if __name__ == "__main__":
    main()
