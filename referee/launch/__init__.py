"""The ``referee`` command as installed (the console script): ``--version`` and ``--help`` answered before the
command framework (click) and the application load, every other command handed to :mod:`referee.cli`.

Start-up matters for an MTA that pipes each mail into ``referee ingest`` and for scripts that ask the
version; the goal is at most 3x a bare ``python -c pass`` (``benchmarks/startup.py`` measures it). The help
text here is the one click writes at its usual width (a terminal of 80 columns or more, or no terminal);
tests/test_launch.py checks that they agree (and prints the new text when the commands change). A narrower
terminal gets click's own, wrapped to fit.
"""

import os
import sys

#: ``referee --help`` as :mod:`referee.cli` writes it 80 columns wide
HELP = """\
Usage: referee [OPTIONS] COMMAND [ARGS]...

  A play-by-email referee for RoboRally.

  Players and the game master use it by mail; the operator runs 'referee tick'
  from cron and checks the settings with 'referee config check'. Every command
  has its own --help.

Options:
  --version          Show the version and exit.
  -c, --config FILE  Settings file (TOML); default $REFEREE_CONFIG.
                     REFEREE_<NAME> variables override it.
  -h, --help         Show this message and exit.

For the game master:
  gm    Run game master commands at the shell, as in a GM mail.
  game  Create, seat, start, play and inspect games turn by turn.

For the operator, running the service:
  tick            Run one pass of the service: cron runs it every few minutes.
  status          Show the service's health: faults, mail waiting, the last
                  fetch.
  resolve-due     Resolve the turns due now, sharing them with other workers
                  (PostgreSQL).
  config          Look at the settings and check them.
  doctor          Do the same as 'referee config check'.
  db              Create, upgrade or inspect the database schema.
  outbox          Send, list, show or retry the mails waiting to go out.
  archive         Build the public archive of every game's turns.
  gm-admin        Add, list and remove game masters; move a game to another
                  one.
  compile-engine  Compile the rules engine to C for faster turns.

For the operator, moving mail by hand:
  poll     Take the new mail from the inbox and store it.
  ingest   Store one mail piped in by the mail server.
  process  Read the stored mails and carry out what they say.
  mail     List, show or reprocess the stored incoming mails.

For anyone: boards, rules and the demo:
  board     List, draw and check the boards and courses.
  simulate  Resolve one turn described in JSON and print what happened.
  demo      Play a whole game by mail on this machine, without a mail server.
"""


def _wide() -> bool:
    """Whether click would lay the help out 80 columns wide (as :data:`HELP` is)."""
    columns = os.environ.get("COLUMNS", "")
    if columns:
        return columns.isdigit() and int(columns) >= 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns >= 80
    except (OSError, ValueError, AttributeError):
        return True   # no terminal: click's fallback is 80 columns


def run() -> None:
    """The console script ``referee``."""
    args = sys.argv[1:]
    if args == ["--version"]:
        from .. import __version__

        sys.stdout.write(f"referee, version {__version__}\n")
        return
    if args in (["--help"], ["-h"]) and _wide():
        sys.stdout.write(HELP)
        return
    from ..cli import main

    main()
