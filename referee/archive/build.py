"""``referee archive build``: the games as a static HTML site (no server code, any web server will do).

Layout of the site::

    index.html                  every game that has started
    style.css
    <game>/index.html           the robots and the list of turns
    <game>/turn-<n>.html        one turn: the pictures, the tables of each stage and the end, the GIF
    <game>/img/...              the PNGs and the GIF of each turn
    <game>/manifest.json        what each turn page was built from (so unchanged turns are not redrawn)

Only what every player may see goes in: the public report of each resolved turn whose results were
released (a turn held for review appears once it is published), robot names and colours. No addresses,
hands or secrets. Turns are drawn from what the store holds (see :mod:`referee.reports.stored`). A turn
whose stored result changed (a re-run) is redrawn; pages of turns that no longer exist (a rollback) are
removed. Files are written to a temporary name and renamed, so a reader never sees half a page.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import __version__
from ..common.deadlines import deadline_text, when_text
from ..render import report_html
from ..render.turn import file_stem
from ..reports.drawn import draw_stored_turn
from ..reports.fills import filled_robots
from ..reports.standings import summarize
from ..reports.stored import course_board, report_players
from ..reports.templating import render
from ..store.community import archived_press
from ..store.db import Store
from ..store.errors import InvalidValue
from ..store.models import Game, Turn
from ..store.queries import open_turn, waiting_for
from ..store.types import utcnow

STYLE = """\
body { font-family: Verdana, Arial, sans-serif; font-size: 14px; color: #111; background: #fff; margin: 0; }
header { background: #233; color: #fff; padding: 8px 16px; }
header a { color: #fff; }
main { padding: 8px 16px 24px 16px; }
footer { color: #666; font-size: 12px; padding: 8px 16px; border-top: 1px solid #ccc; }
table.list { border-collapse: collapse; margin: 8px 0 16px 0; display: block; overflow-x: auto; max-width: 100%; }
table.list th, table.list td { border: 1px solid #999; padding: 3px 8px; text-align: left; vertical-align: top; }
table.list th { background: #eee; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #222; vertical-align: middle; }
nav.turns { margin: 8px 0; }
nav.turns a, nav.turns span { margin-right: 12px; }
img { max-width: 100%; height: auto; }
ul.thumbs { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 12px; }
ul.thumbs li { text-align: center; }
"""


#: the key to the pictures, one per game (its course's elements and the marks)
LEGEND_FILE = "img/key.png"


@dataclass
class BuildReport:
    games: int = 0
    turns_written: int = 0
    turns_kept: int = 0
    removed: int = 0
    out: Path | None = None
    written: list[Path] = field(default_factory=list)
    #: games whose pages could not be drawn (their course cannot be loaded), with why: the others are built
    skipped: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"archive {self.out}: {self.games} games, {self.turns_written} turn pages written, "
                f"{self.turns_kept} unchanged" + (f", {self.removed} removed" if self.removed else "")
                + "".join(f"; skipped {why}" for why in self.skipped))


def game_dir_name(code: str) -> str:
    return code.lower()


def turn_page_name(number: int) -> str:
    return f"turn-{number}.html"


# -- writing files -----------------------------------------------------------------------------------------------
#: the archive is public: its files and folders are readable by the web server whatever the umask
#: (the systemd unit's is 0027); nothing secret is ever written into it
FILE_MODE = 0o644
DIR_MODE = 0o755


def public_dir(path: Path) -> None:
    """Make folder ``path`` (and missing parents) readable and searchable by everyone."""
    if path.is_dir():
        if stat.S_IMODE(path.stat().st_mode) != DIR_MODE:
            path.chmod(DIR_MODE)
        return
    if not path.parent.exists():
        public_dir(path.parent)
    path.mkdir(exist_ok=True)
    path.chmod(DIR_MODE)


def _write(path: Path, data: bytes | str, report: BuildReport | None = None) -> None:
    """Write ``path`` whole or not at all (a temporary file renamed over it), readable by everyone."""
    public_dir(path.parent)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    tmp.chmod(FILE_MODE)
    os.replace(tmp, path)
    if report is not None:
        report.written.append(path)


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# -- what goes in ------------------------------------------------------------------------------------------------
def published_turns(s: Session, game: Game) -> list[Turn]:
    """The game's resolved turns whose results the players have been given, in order."""
    return list(s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.status == "resolved",
                                             Turn.published_at.is_not(None)).order_by(Turn.number)))


#: the turn pages' own make-up: raised when a page shows more than before, so pages built earlier are redrawn
PAGE_VERSION = 2


def turn_digest(game: Game, turn: Turn, neighbours: tuple[int | None, int | None] = (None, None),
                fills: dict[str, str] | None = None) -> str:
    """What a turn page is drawn from (the turn, the colours, the turns it links to, the programs the
    referee filled in): when this changes, the page is drawn again."""
    data = [__version__, PAGE_VERSION, game.code, game.course, turn.number, turn.state_before, turn.played,
            turn.events, turn.frames, turn.state_after, turn.winner, turn.phases_run, turn.end_of_turn,
            sorted((p.robot, p.colour) for p in game.players), list(neighbours), sorted((fills or {}).items())]
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _robots(game: Game, turns: list[Turn]) -> list[dict[str, Any]]:
    """The robots as the game pages list them, ranked (the standings of :mod:`referee.reports.standings`
    after the last published turn): place, colour, status, flags, HP, lives and the game's statistics."""
    last = turns[-1] if turns else None
    columns = {c.robot: c for c in report_players(game, last)} if last is not None else {}
    board = course_board(game)
    summary = summarize(game, turns, board.flag_count)
    if game.status != "finished":  # while the game runs, a robot still in it is "playing", not yet placed
        for row in summary.standings:
            row.winner = False
    else:   # the race is over: nobody is still "playing"
        for row in summary.standings:
            if row.status == "playing":
                row.status = "finished"
    out = []
    for row in summary.standings:
        col = columns.get(row.robot)
        out.append({"place": row.place, "robot": row.robot, "colour": col.colour if col else row.colour,
                    "hex": col.hex if col else "#888888", "status": "winner" if row.winner else row.status,
                    "flags": row.flags if last is not None else 0, "hp": row.hp if last is not None else None,
                    "lives": row.lives if last is not None else None, "lost": row.lost, "fired": row.shots_fired,
                    "taken": row.shots_taken, "squares": row.squares})
    return out


def _open_turn(s: Session, game: Game, now: datetime) -> dict[str, Any]:
    """A running game's open turn: its number, deadline and the robots whose programs it waits for."""
    turn = open_turn(s, game) if game.status in ("running", "paused") else None
    if turn is None:
        return {"open_turn": None}
    return {"open_turn": turn.number, "deadline": deadline_text(turn.deadline, now) or "none (it waits for everyone)",
            "waiting": [p.robot for p in waiting_for(s, game, turn)]}


def _dates(game: Game, turns: list[Turn]) -> dict[str, str | None]:
    return {"started": _stamp(game.started_at) if game.started_at else None,
            "finished": _stamp(game.finished_at) if game.finished_at and game.status == "finished" else None,
            "last": _stamp(turns[-1].resolved_at) if turns and turns[-1].resolved_at else None}


# -- the build -------------------------------------------------------------------------------------------------
def build_archive(store: Store, out: Path, *, games: list[str] | None = None, force: bool = False,
                  now: datetime | None = None) -> BuildReport:
    """Write (or bring up to date) the static site in ``out``. ``games``: only these codes (the index still
    lists every game). ``force``: draw every turn again."""
    now = now or utcnow()
    report = BuildReport(out=out)
    public_dir(out)
    wanted = {c.upper() for c in games} if games else None
    listing: list[dict[str, Any]] = []
    with store.read() as s:
        # forming games, and games ended before they started, have nothing to show
        all_games = [g for g in s.scalars(select(Game).order_by(Game.id))
                     if g.status != "forming" and g.started_at is not None]
        for game in all_games:
            turns = published_turns(s, game)
            try:
                robots = _robots(game, turns)
                if wanted is None or game.code.upper() in wanted:
                    _build_game(s, game, turns, out / game_dir_name(game.code), force, now, report)
                    report.games += 1
            except InvalidValue as exc:   # its course cannot be loaded: its pages stay as they were
                report.skipped.append(f"{game.code} (cannot be drawn: {exc})")
                robots = []
            listing.append({"code": game.code, "dir": game_dir_name(game.code), "title": game.title,
                            "course": game.course, "status": game.status, "turns": len(turns),
                            "winner": game.winner, "robots": robots, **_dates(game, turns)})
    _write(out / "style.css", STYLE)
    _write(out / "index.html", render("archive_index.html", root="", games=listing, built=_stamp(now),
                                      version=__version__), report)
    return report


def _stamp(now: datetime) -> str:
    return when_text(now)


def _build_game(s: Session, game: Game, turns: list[Turn], gdir: Path, force: bool, now: datetime,
                report: BuildReport) -> None:
    manifest_path = gdir / "manifest.json"
    old = _read_manifest(manifest_path)
    old_turns: dict[str, Any] = old.get("turns", {}) if isinstance(old.get("turns"), dict) else {}
    new_turns: dict[str, Any] = {}
    numbers = [t.number for t in turns]
    entries = []
    for i, turn in enumerate(turns):
        neighbours = (numbers[i - 1] if i > 0 else None, numbers[i + 1] if i + 1 < len(numbers) else None)
        digest = turn_digest(game, turn, neighbours, filled_robots(s, game, turn))
        entry = old_turns.get(str(turn.number))
        files_there = isinstance(entry, dict) and all((gdir / f).is_file() for f in entry.get("files", []))
        if not force and isinstance(entry, dict) and entry.get("digest") == digest and files_there:
            report.turns_kept += 1
        else:
            entry = _build_turn(s, game, turn, gdir, neighbours, digest, report)
            report.turns_written += 1
        new_turns[str(turn.number)] = entry
        entries.append({"number": turn.number, "page": turn_page_name(turn.number), "thumb": entry["thumb"],
                        "winner": turn.winner, "resolved": _stamp(turn.resolved_at) if turn.resolved_at else None})
    # pages of turns that are gone (rolled back, or held again) go too
    keep = {f for e in new_turns.values() for f in e["files"]}
    for number, entry in old_turns.items():
        if number in new_turns or not isinstance(entry, dict):
            continue
        for f in entry.get("files", []):
            if f not in keep and (gdir / f).is_file():
                (gdir / f).unlink()
                report.removed += 1
    page = render("archive_game.html", root="../", game={"code": game.code, "title": game.title,
                                                         "course": game.course, "status": game.status,
                                                         "winner": game.winner, "turns": len(turns),
                                                         **_dates(game, turns), **_open_turn(s, game, now)},
                  robots=_robots(game, turns), turns=entries, built=_stamp(now), version=__version__,
                  press=archived_press(s, game))
    _write(gdir / "index.html", page, report)
    _write(manifest_path, json.dumps({"game": game.code, "turns": new_turns}, indent=1, sort_keys=True))


def _build_turn(s: Session, game: Game, turn: Turn, gdir: Path, neighbours: tuple[int | None, int | None],
                digest: str, report: BuildReport) -> dict[str, Any]:
    """One turn's page and pictures, drawn as the turn mail draws them (the key, fills marked, late players)."""
    rendered = draw_stored_turn(s, game, turn).rendered
    files = []
    urls = {}
    for pic in rendered.pictures:
        rel = f"img/{pic.filename}"
        _write(gdir / rel, pic.data, report)
        urls[pic.key] = rel
        files.append(rel)
    legend = None
    if rendered.legend is not None:  # the same for every turn of the game: one file, shared by the pages
        legend = LEGEND_FILE
        _write(gdir / legend, rendered.legend.data, report)
        files.append(legend)
    gif = f"img/{rendered.gif.filename}"
    _write(gdir / gif, rendered.gif.data, report)
    files.append(gif)
    prev, nxt = neighbours
    nav = {"prev": turn_page_name(prev) if prev is not None else None, "prev_number": prev,
           "next": turn_page_name(nxt) if nxt is not None else None, "next_number": nxt}
    # rendered (and escaped) by its template
    body = Markup(report_html(rendered.report, urls, gif_url=gif, legend_url=legend))
    page = render("archive_turn.html", root="../", game={"code": game.code, "title": game.title},
                  turn=turn.number, body=body, nav=nav, gif=gif, stem=file_stem(game.code, turn.number),
                  version=__version__, resolved=_stamp(turn.resolved_at) if turn.resolved_at else None)
    name = turn_page_name(turn.number)
    _write(gdir / name, page, report)
    files.append(name)
    thumb = urls.get("end") or urls.get(rendered.pictures[-1].key)
    return {"digest": digest, "files": files, "thumb": thumb}
