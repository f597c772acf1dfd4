"""The README's first command: the demo plays a game by mail on Maildirs and leaves everything to look at."""

import re
import subprocess
import sys
from pathlib import Path

from referee.cli.demo import MARKER, run_demo
from tests.servers.processes import patience


def test_the_demo_plays_turns_through_the_mail_pipeline(tmp_path: Path):
    lines: list[str] = []
    result = run_demo(tmp_path / "demo", turns=3, echo=lines.append)
    assert result.turns >= 1
    assert result.mails_in >= 1 + 3  # the GM's mail and at least one round of player orders
    assert result.mails_out >= 4 + 4  # start mails and at least one round of turn reports (3 players + GM)
    outbox = tmp_path / "demo" / "mail" / "out" / "new"
    assert len(list(outbox.iterdir())) == result.mails_out
    assert result.reports and all(p.exists() for p in result.reports)
    assert list((tmp_path / "demo" / "reports").glob("*.png"))
    assert (tmp_path / "demo" / "archive" / "index.html").exists()
    assert any("mailed a program" in line for line in lines)
    assert any("static archive" in line for line in lines)
    # each player's turn mail as the HTML file they would read, its pictures beside it
    pages = sorted((tmp_path / "demo" / "reports").glob("DEMO-1-turn1-*.html"))
    assert [p.name for p in pages] == ["DEMO-1-turn1-Hammer.html", "DEMO-1-turn1-Twonky.html", "DEMO-1-turn1-Zoom.html"]
    html = pages[0].read_text()
    assert "cid:" not in html and "How to answer:" in html
    for src in re.findall(r'<img src="([^"]+)"', html):
        assert (tmp_path / "demo" / "reports" / src).is_file(), src


def test_the_demo_refuses_to_overwrite_a_directory_it_did_not_make(tmp_path: Path):
    precious = tmp_path / "mine"
    precious.mkdir()
    (precious / "thesis.txt").write_text("do not delete")
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--dir", str(precious), "--turns", "1"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "not a demo directory" in proc.stderr
    assert (precious / "thesis.txt").exists()
    assert not (precious / MARKER).exists()


def test_the_demo_seats_as_many_players_as_a_large_course_needs(tmp_path: Path):
    lines: list[str] = []
    result = run_demo(tmp_path / "demo", turns=1, course="circuit", echo=lines.append)
    assert "demo: the GM mails NEWGAME, 4 ADD PLAYERs and START for DEMO-1 on circuit" in lines
    assert any(re.match(r"demo: turn 1: (\w+, ){3}\w+ mailed a program", line) for line in lines), lines
    assert result.turns == 1


def test_the_demo_refuses_a_course_it_cannot_play_with_one_line(tmp_path: Path):
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--dir", str(tmp_path / "d"), "--course",
                           "sprnt"], capture_output=True, text=True, timeout=patience(120))
    assert proc.returncode == 1
    assert proc.stderr.strip() == "Error: no board or course named 'sprnt' (did you mean sprint? see 'referee board " \
                                  "list')"
    assert not (tmp_path / "d").exists()
