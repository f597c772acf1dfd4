"""What the archive says about a game's state: a running game's open turn (deadline, whom it waits for),
the status of the robots of a finished game, games ended before they started left out, and tables that
scroll rather than overflow a phone's 360 px."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser

from referee import games as g
from referee.archive import build_archive
from referee.archive.build import STYLE
from tests.reports.helpers import T0, new_game, play_turns


class Cells(HTMLParser):
    """The text of each row of the table with id ``robots``."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.inside = ("id", "robots") in attrs
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data.strip()


def statuses(page: str) -> dict[str, str]:
    parser = Cells()
    parser.feed(page)
    return {row[1]: row[3] for row in parser.rows if row}


def test_a_running_game_page_shows_its_deadline_and_whom_it_waits_for(store, tmp_path):
    code = new_game(store)
    last = play_turns(store, code, 1)
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        hand = turn.hands["Twonky"]
        g.submit_program(s, code, "Twonky", hand[:5], now=last + timedelta(minutes=1))
    build_archive(store, tmp_path / "site", now=last + timedelta(minutes=2))
    page = (tmp_path / "site" / code.lower() / "index.html").read_text()
    assert "Turn 2 is being played: deadline " in page
    assert "waiting for the programs of Hammer, Zoom." in page
    assert set(statuses(page).values()) == {"playing"}


def test_a_finished_game_shows_no_robot_still_playing_and_a_game_ended_before_its_start_is_left_out(store, tmp_path):
    ended = new_game(store)
    last = play_turns(store, ended, 2)
    with store.write() as s:
        g.end_game(s, ended, now=last + timedelta(minutes=1))
        never = g.create_game(s, course="sprint", code="NEVER-1", now=T0)
        g.add_player(s, never, email="dan@example.test", robot="Spin", now=T0)
        g.end_game(s, never.code, now=T0 + timedelta(minutes=1))
    build_archive(store, tmp_path / "site", now=last + timedelta(minutes=2))
    page = (tmp_path / "site" / ended.lower() / "index.html").read_text()
    assert "playing" not in statuses(page).values() and "finished" in statuses(page).values()
    index = (tmp_path / "site" / "index.html").read_text()
    assert ended in index and "NEVER-1" not in index
    assert not (tmp_path / "site" / "never-1").exists()


def test_tables_scroll_on_a_narrow_screen_instead_of_overflowing():
    rule = next(line for line in STYLE.splitlines() if line.startswith("table.list {"))
    assert "overflow-x: auto" in rule and "max-width: 100%" in rule and "display: block" in rule
