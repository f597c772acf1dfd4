"""``referee archive build``: a static site of every game's published turns, checked file by file and then
opened in a real browser (Debian's Chromium, headless), where the pages and every picture must load.

Rulings cited (docs/rulings.md): 18.p2.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from referee import games as g
from referee.archive import build_archive
from referee.cli import main
from tests.render.browser import chromium_path, run
from tests.reports.helpers import PLAYERS, T0, html_of, new_game, outbox, parse, play_turn, play_turns

NOW = T0 + timedelta(hours=1)


@dataclass
class Site:
    out: Path
    played: str
    held: str
    forming: str


@pytest.fixture
def site(store, tmp_path) -> Site:
    """Three turns of one game, one turn of a game under review (not yet published), one game forming."""
    played = new_game(store)
    play_turns(store, played, 3)
    held = new_game(store, {"Spin": "dave", "Trundle": "erin"}, hold_for_review=True)
    play_turn(store, held, now=NOW)
    with store.write() as s:
        forming = g.create_game(s, course="sprint", code="FORMING-1", actor="test", now=T0).code
    out = tmp_path / "site"
    report = build_archive(store, out, now=NOW)
    assert (report.games, report.turns_written, report.turns_kept) == (2, 3, 0)
    return Site(out, played, held, forming)


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.refs.append(value)


def refs_of(page: Path) -> list[str]:
    parser = Links()
    parser.feed(page.read_text())
    return parser.refs


def test_the_site_has_an_index_a_page_per_game_and_one_per_published_turn(site: Site):
    game = site.played.lower()
    assert sorted(p.relative_to(site.out).as_posix() for p in site.out.rglob("*.html")) == sorted(
        ["index.html", f"{game}/index.html", f"{game}/turn-1.html", f"{game}/turn-2.html", f"{game}/turn-3.html",
         f"{site.held.lower()}/index.html"])
    index = (site.out / "index.html").read_text()
    assert f'<a href="{game}/index.html">{site.played}</a>' in index
    assert site.held in index and site.forming not in index
    # the turn held for review is not in the archive until it is published
    held_page = (site.out / site.held.lower() / "index.html").read_text()
    assert "No turn has been played yet." in held_page
    game_page = (site.out / game / "index.html").read_text()
    for n in (1, 2, 3):
        assert f'<a href="turn-{n}.html">' in game_page


def test_every_link_and_picture_of_the_site_is_there_and_every_picture_decodes(site: Site):
    pages = list(site.out.rglob("*.html"))
    for page in pages:
        for ref in refs_of(page):
            target = (page.parent / ref).resolve()
            assert target.is_file(), f"{page.relative_to(site.out)} links to missing {ref}"
    pictures = list(site.out.rglob("*.png")) + list(site.out.rglob("*.gif"))
    assert len(pictures) == 3 * (7 + 1) + 1  # each turn's stages and GIF, and the game's key
    for pic in pictures:
        with Image.open(pic) as img:
            img.load()
            assert img.format == ("GIF" if pic.suffix == ".gif" else "PNG")


def test_a_turn_page_shows_the_tables_of_each_stage_and_the_end_and_no_private_data(site: Site, store):
    page = (site.out / site.played.lower() / "turn-2.html").read_text()
    for title in ("Stage 1", "Stage 5", "End of turn"):
        assert f">{title}</caption>" in page
    for robot in PLAYERS:
        assert robot in page
    assert '<a href="turn-1.html" rel="prev">' in page and '<a href="turn-3.html" rel="next">' in page
    with store.read() as s:
        players = [p for game in g.list_games(s) for p in game.players]
    everything = "".join(p.read_text() for p in site.out.rglob("*.html")) + \
        "".join(p.read_text() for p in site.out.rglob("*.json"))
    for p in players:
        assert p.email not in everything and f"key {p.secret}" not in everything
    assert "Your hand" not in everything


def test_a_turn_page_shows_the_key_the_filled_cards_and_the_late_players_as_the_turn_mail_does(site: Site, store):
    """Nobody of the played game sent orders: the referee filled every program in. Turn 2's page says who was
    late and marks each filled card, in the words of the players' turn mail, and shows the key to the
    pictures beside the first picture."""
    game = site.out / site.played.lower()
    page = (game / "turn-2.html").read_text()
    [mail, *_] = [m for m in outbox(store, kind="turn_report", turn_number=2) if m.subject.startswith(site.played)]
    mailed = html_of(parse(mail.raw))
    late = re.search(r'<p class="late"[^>]*>([^<]+)</p>', mailed)
    assert late is not None and "Late players: no orders came from" in late.group(1)
    assert late.group(0) in page
    for robot in PLAYERS:
        assert robot in late.group(1)
    marks = re.findall(r"\b[A-Z0-9]+ \d+ \((?:autopilot|random|powered down|repeated)\)", mailed)
    assert len(marks) == 5 * len(PLAYERS) - mailed.count("(fused)")
    assert sorted(re.findall(r"\b[A-Z0-9]+ \d+ \((?:autopilot|random|powered down|repeated)\)", page)) == sorted(marks)
    key = re.search(r'<div class="legend"[^>]*>\s*<img src="([^"]+)" alt="key to the pictures"', page)
    assert key is not None and key.group(1) == "img/key.png"
    with Image.open(game / key.group(1)) as img:
        assert img.format == "PNG" and img.width > 100


def test_building_again_redraws_only_what_changed_and_drops_turns_rolled_back(site: Site, store):
    again = build_archive(store, site.out, now=NOW)
    assert (again.turns_written, again.turns_kept, again.removed) == (0, 3, 0)
    game = site.out / site.played.lower()
    with store.write() as s:
        g.rollback_to(s, site.played, 3, actor="test", now=NOW + timedelta(days=1))
    after = build_archive(store, site.out, now=NOW)
    # turn 2's page loses its link to turn 3 (redrawn); turn 3's page and pictures go
    assert (after.turns_written, after.turns_kept, after.removed) == (1, 1, 9)
    assert not (game / "turn-3.html").exists() and not list(game.glob("img/*turn3*"))
    assert "rel=\"next\"" not in (game / "turn-2.html").read_text()
    # the held turn appears once published
    with store.write() as s:
        g.publish_turn(s, site.held, 1, actor="test", now=NOW)
    published = build_archive(store, site.out, now=NOW)
    assert published.turns_written == 1
    assert (site.out / site.held.lower() / "turn-1.html").is_file()
    manifest = json.loads((site.out / site.held.lower() / "manifest.json").read_text())
    assert sorted(manifest["turns"]) == ["1"]


def test_referee_archive_build_writes_the_site_where_it_is_told(store, db_url, tmp_path):
    code = new_game(store)
    play_turns(store, code, 1)
    out = tmp_path / "public"
    result = CliRunner().invoke(main, ["archive", "build", "--out", str(out)],
                                env={"REFEREE_DATABASE_URL": db_url, "REFEREE_CONFIG": ""}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"archive {out}: 1 games, 1 turn pages written, 0 unchanged"
    assert (out / code.lower() / "turn-1.html").is_file()


# -- in a browser ----------------------------------------------------------------------------------------------
#: a page of the test's own that opens an archive page in a frame and writes down how its pictures loaded
PROBE = """<!DOCTYPE html>
<html><body>
<pre id="result">not loaded</pre>
<iframe id="page" src="{url}" width="1200" height="900"></iframe>
<script>
document.getElementById("page").addEventListener("load", function () {{
  var doc = this.contentDocument;
  var images = Array.from(doc.images).map(function (img) {{
    return {{src: img.getAttribute("src"), complete: img.complete, width: img.naturalWidth,
            height: img.naturalHeight}};
  }});
  var header = doc.querySelector("header");
  document.getElementById("result").textContent = JSON.stringify({{
    title: doc.title, images: images, tables: doc.querySelectorAll("table").length,
    header: header ? getComputedStyle(header).backgroundColor : null}});
}});
</script>
</body></html>
"""


#: the browser sees files, not the database: one database is enough for its tests
BROWSER_DB = pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_path()


def probe(chromium: str, tmp: Path, page: Path) -> dict:
    probe_page = tmp / "probe.html"
    probe_page.write_text(PROBE.format(url=page.as_uri()))
    done = run(chromium, tmp / "profile-probe", "--allow-file-access-from-files",
                        "--virtual-time-budget=10000", "--dump-dom", probe_page.as_uri())
    found = re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stdout[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@BROWSER_DB
def test_chromium_shows_a_turn_page_with_every_picture_loaded(site: Site, chromium: str, tmp_path):
    page = site.out / site.played.lower() / "turn-2.html"
    seen = probe(chromium, tmp_path, page)
    assert seen["title"] == f"{site.played} turn 2"
    assert seen["header"] == "rgb(34, 51, 51)"  # the style sheet was read
    assert seen["tables"] == 7  # five stages, the end of turn and every robot's program
    stages = [f"img/{site.played}-turn2-{key}.png" for key in
              ("start", "stage1", "stage2", "stage3", "stage4", "stage5", "end")]
    # the key to the pictures comes after the stages; the GIF comes last
    expected = [*stages, "img/key.png", f"img/{site.played}-turn2.gif"]
    assert [img["src"] for img in seen["images"]] == expected
    for img in seen["images"]:
        with Image.open(page.parent / img["src"]) as pic:
            assert img["complete"] and (img["width"], img["height"]) == pic.size, img

    shot = tmp_path / "shot.png"
    run(chromium, tmp_path / "profile-shot", "--window-size=1280,2000", f"--screenshot={shot}",
                 page.as_uri())
    with Image.open(shot) as img:
        screen = img.convert("RGB")
    assert screen.size == (1280, 2000)
    # the board is on the screen: its floor colour covers a good part of it
    with Image.open(page.parent / expected[0]) as board:
        _, floor = max(board.convert("RGB").getcolors(board.width * board.height) or [(0, None)])
    share = dict((c, n) for n, c in screen.getcolors(screen.width * screen.height) or []).get(floor, 0) \
        / (screen.width * screen.height)
    assert share > 0.05, f"floor colour {floor} covers only {share:.1%} of the screenshot"


@BROWSER_DB
def test_the_browser_check_notices_a_missing_picture(site: Site, chromium: str, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(site.out, copy)
    page = copy / site.played.lower() / "turn-1.html"
    missing = page.parent / "img" / f"{site.played}-turn1-stage3.png"
    missing.unlink()
    seen = probe(chromium, tmp_path, page)
    broken = [img["src"] for img in seen["images"] if not img["width"]]
    assert broken == [f"img/{missing.name}"]


@BROWSER_DB
def test_chromium_opens_the_index_and_the_game_page(site: Site, chromium: str, tmp_path):
    seen = probe(chromium, tmp_path, site.out / "index.html")
    assert seen["title"] == "RoboRally games" and seen["tables"] == 1
    game = probe(chromium, tmp_path, site.out / site.played.lower() / "index.html")
    assert game["title"] == site.played
    assert len(game["images"]) == 3 and all(img["complete"] and img["width"] for img in game["images"])
