"""``referee --version`` and ``referee --help`` are answered before click loads (issue 43: start-up at most 3x
``python -c pass``, measured by benchmarks/startup.py); what they print is what click would print."""

from __future__ import annotations

import subprocess
import sys

from referee import __version__
from referee.launch import HELP
from tests.servers.processes import patience

PROBE = ("import atexit, sys; atexit.register(lambda: print('click loaded' if 'click' in sys.modules else "
         "'click not loaded', file=sys.stderr)); from referee.launch import run; sys.argv[1:] = {args!r}; run()")


def launch(*args: str, columns: str = "") -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", **({"COLUMNS": columns} if columns else {})}
    return subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))], env=env, capture_output=True,
                          text=True, timeout=patience(60), stdin=subprocess.DEVNULL)


def test_the_help_text_is_clicks_own():
    """As click writes it with no terminal (80 columns), run as the console script would run it."""
    said = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'referee'; from referee.cli import main; "
                           "main()", "--help"], env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=patience(60), stdin=subprocess.DEVNULL)
    assert said.returncode == 0 and said.stderr == ""
    assert said.stdout == HELP, f"the commands changed: put this text in referee/launch.py HELP:\n{said.stdout}"


def test_version_and_help_need_no_click():
    for args, out in ((["--version"], f"referee, version {__version__}\n"), (["--help"], HELP), (["-h"], HELP)):
        done = launch(*args)
        assert done.stdout == out and done.stderr == "click not loaded\n"


def test_a_narrow_terminal_and_every_command_go_through_click():
    narrow = launch("--help", columns="60")
    assert narrow.stderr == "click loaded\n" and narrow.stdout != HELP and "Usage: " in narrow.stdout
    listed = launch("board", "list")
    assert "sprint" in listed.stdout and listed.stderr == "click loaded\n"
