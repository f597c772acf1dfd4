"""``referee demo``: a whole game played by mail, on embedded defaults, with no mail server.

The demo makes a working directory with its own config (SQLite, Maildir transport), and then does
what real people would: the GM mails NEWGAME / ADD PLAYER / START, three scripted players read each
turn mail they get (their hand and the BEGIN line of its order form) and mail back a program, and
``referee tick`` (called here with a clock that moves an hour per turn) reads the inbox Maildir,
takes the orders, resolves the turns and writes every mail to the outbox Maildir. At the end the
turn reports and pictures are copied out of the mails and the static archive is built.

The players use the autopilot (:mod:`referee.autopilot`): each searches every distinct program of
its hand on a copy of the board and mails the best. They do not know the turn's seed, so a
randomizer may surprise them. :func:`choose_program`, the older picker (the best of a few dozen
random programs), stays for the strength benchmark.
"""

from __future__ import annotations

import email
import random
import re
import secrets
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from mailbox import Maildir
from pathlib import Path

from .. import games as g
from ..autopilot import plan_program
from ..boards import load_board
from ..common.config import Settings
from ..common.config_load import load_settings
from ..common.private import DIR_MODE, write_private
from ..cron.tick import tick
from ..engine import Board, Card, Robot, parse_card, resolve_turn
from ..engine.geometry import square_name
from ..store import Store
from ..store.records import locked_of

MARKER = ".referee-demo"
GAME = "DEMO-1"
#: the scripted players, seated in this order: three, or as many as the course needs at least
ALL_PLAYERS = (("Twonky", "ann@players.example"), ("Hammer", "ben@players.example"), ("Zoom", "cat@players.example"),
               ("Spin", "dan@players.example"), ("Trundle", "eve@players.example"), ("Bolt", "fay@players.example"),
               ("Rivet", "gus@players.example"), ("Sprocket", "hal@players.example"))
PLAYERS = ALL_PLAYERS


class DemoError(Exception):
    """The demo cannot be played as asked (its message says why)."""


def seats_for(course: str) -> int:
    """How many scripted players the demo seats on ``course``: three, or the course's fewest, if more."""
    from ..boards import BoardNotFound
    from ..engine import BoardError
    from ..games.common import course_players

    try:
        fewest, most = course_players(load_board(course))
    except (BoardNotFound, BoardError) as exc:
        raise DemoError(str(exc)) from None
    if fewest > len(ALL_PLAYERS):
        raise DemoError(f"{course} needs at least {fewest} players; the demo has {len(ALL_PLAYERS)}")
    return max(min(3, most), fewest)
HAND_LINE = re.compile(r"^\s+(\d)\s+([A-Z0-9]+ \d+)\s*$")
BEGIN_LINE = re.compile(r"^BEGIN \S+ \S+ turn \d+.*$", re.MULTILINE)


@dataclass
class DemoResult:
    workdir: Path
    turns: int
    winner: str | None
    mails_in: int
    mails_out: int
    reports: list[Path] = field(default_factory=list)
    archive: Path | None = None


def write_config(workdir: Path) -> Path:
    config = workdir / "referee.toml"
    write_private(config,  # it holds the GM secret
        "# written by 'referee demo': everything embedded, no mail server\n"
        'transport = "maildir"\nmaildir_in = "mail/in"\nmaildir_out = "mail/out"\n'
        'referee_address = "referee@demo.example"\nreferee_name = "Demo referee"\n'
        'gm_address = "gm@demo.example"\n'
        f'gm_secret = "{secrets.token_hex(6)}"\narchive_dir = "archive"\n')
    return config


def _send(settings: Settings, sender: str, to: str, subject: str, body: str, now: datetime,
          in_reply_to: str | None = None) -> None:
    """Put a mail in the referee's inbox Maildir, as a mail server delivering it would."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2])
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    msg.set_content(body)
    path = settings.path(settings.maildir_in)
    path.parent.mkdir(parents=True, exist_ok=True)
    Maildir(str(path), create=True).add(msg.as_bytes(policy=policy.SMTP))


@dataclass
class Seen:
    """The outbox Maildir as a reader: each mail once."""

    keys: set[str] = field(default_factory=set)

    def new_mails(self, settings: Settings) -> list[email.message.EmailMessage]:
        path = settings.path(settings.maildir_out)
        path.parent.mkdir(parents=True, exist_ok=True)
        box = Maildir(str(path), factory=None, create=True)
        out = []
        for key in sorted(box.keys()):
            if key in self.keys:
                continue
            self.keys.add(key)
            out.append(email.message_from_bytes(box.get_bytes(key), policy=policy.default))
        return out


def _text(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return part.get_content() if part is not None else ""


def choose_program(board: Board, me: Robot, others: list[Robot], hand: list[Card], target: tuple[int, int] | None,
                   rng: random.Random, tries: int = 40) -> list[Card]:
    """The program (of ``tries`` drawn from the hand) that ends nearest ``target``, alive."""
    best: tuple[float, list[Card]] | None = None
    for _ in range(tries):
        program = rng.sample(hand, 5)
        result = resolve_turn(board, [me, *others], {me.name: list(program)}, seed=str(rng.random()))
        after = next(r for r in result.robots if r.name == me.name)
        if after.pos is None:
            score = 1000.0
        elif target is None:
            score = 0.0
        else:
            score = abs(after.pos[0] - target[0]) + abs(after.pos[1] - target[1]) + after.damage * 0.5
        if best is None or score < best[0]:
            best = (score, program)
    assert best is not None
    return best[1]


def _player_turn(settings: Settings, store: Store, msg: email.message.EmailMessage, now: datetime,
                 rng: random.Random) -> str | None:
    """A scripted player answers one turn mail. Returns the robot's name, or None if the mail wants no answer."""
    text = _text(msg)
    begin = BEGIN_LINE.search(text)
    if begin is None:
        return None
    hand_cards = [parse_card(m.group(2)) for line in text.splitlines() if (m := HAND_LINE.match(line))]
    robot_name = begin.group(0).split()[2]
    with store.read() as s:
        game = g.get_game(s, GAME)
        turn = g.open_turn(s, game)
        if turn is None:
            return None
        robots = g.robots_of(turn)
        board = load_board(game.course)
        locked = locked_of(turn, robot_name)
    me = next(r for r in robots if r.name == robot_name)
    if me.pos is None or me.powered_down or not hand_cards:
        return None
    plan = plan_program(board, [r for r in robots if r is me or r.pos], robot_name, hand_cards, locked=locked,
                        seed=str(rng.random()))
    program = plan.program
    if None in program:
        return None  # a hand too short for its registers: the missing-orders policy plays it
    lines = [begin.group(0)] + [f"{i}: {card}" for i, card in enumerate(program, start=1)] + ["END", ""]
    quoted = "\n".join("> " + line for line in text.splitlines()[:40])
    reply_to = msg["Reply-To"] or msg["From"]
    sender = next(address for name, address in PLAYERS if name == robot_name)
    _send(settings, sender, parseaddr(str(reply_to))[1], f"Re: {msg['Subject']}",
          "Here is my program.\n\n" + "\n".join(lines) + f"\nOn {now:%a %d %b}, the referee wrote:\n" + quoted,
          now, in_reply_to=msg["Message-ID"])
    return robot_name


def _player_html(msg: email.message.EmailMessage, target: Path) -> Path | None:
    """Save a player's turn (or start) mail as the HTML file they would read, its pictures beside it
    (``cid:`` links made file names), so a newcomer can open one in a browser. None: not such a mail."""
    to = parseaddr(str(msg["To"] or ""))[1]
    robot = next((name for name, address in PLAYERS if address == to), None)
    subject = str(msg["Subject"] or "")
    if robot is None or not ("results" in subject or "has started" in subject):
        return None
    html_part = msg.get_body(("html",))
    if html_part is None:
        return None
    html = html_part.get_content()
    for part in msg.walk():
        name, cid = part.get_filename(), str(part["Content-ID"] or "").strip("<>")
        if name and part.get_content_maintype() == "image":
            (target / name).write_bytes(part.get_content())
            if cid:
                html = html.replace(f"cid:{cid}", name)
    m = re.search(r"turn (\d+)", subject)
    number = m.group(1) if m and "results" in subject else "0-start"
    path = target / f"{GAME}-turn{number}-{robot}.html"
    path.write_text(html)
    return path


def _export(settings: Settings, mails: list[email.message.EmailMessage], target: Path) -> list[Path]:
    """Save the GM's copy of each turn report (its text and pictures) and each player's mail as HTML."""
    target.mkdir(parents=True, exist_ok=True)
    saved = []
    for msg in mails:
        if (html := _player_html(msg, target)) is not None:
            saved.append(html)
            continue
        if not str(msg["Subject"] or "").startswith("[GM]") or "results" not in str(msg["Subject"]):
            continue
        m = re.search(r"turn (\d+)", str(msg["Subject"]))
        stem = f"{GAME}-turn{m.group(1) if m else 'x'}"
        path = target / f"{stem}.txt"
        path.write_text(_text(msg))
        saved.append(path)
        for part in msg.walk():
            name = part.get_filename()
            if name and part.get_content_maintype() == "image":
                (target / name).write_bytes(part.get_content())
    return saved


def run_demo(workdir: Path, *, turns: int = 8, course: str = "sprint", seed: str = "demo",
             echo: Callable[[str], None] = print) -> DemoResult:
    seats = seats_for(course)
    players = ALL_PLAYERS[:seats]
    workdir = workdir.resolve()
    if workdir.exists():
        if not (workdir / MARKER).exists():
            raise FileExistsError(f"{workdir} exists and is not a demo directory: pick another with --dir")
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    workdir.chmod(DIR_MODE)  # owner-only: its config, database and mails hold the GM secret and keys
    (workdir / MARKER).write_text("made by referee demo; removed by the next demo run\n")
    settings = load_settings(write_config(workdir), env={})
    store = Store.from_settings(settings)
    store.check_schema()
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    seen = Seen()
    all_out: list[email.message.EmailMessage] = []
    mails_in = 0

    gm_block = [f"BEGIN GM key {settings.gm_secret}", f"NEWGAME {GAME} COURSE {course} SEED {seed} DEADLINE 2d",
                *(f"ADD PLAYER {address} {robot}" for robot, address in players), "START", "END"]
    _send(settings, settings.gm_address, settings.referee_address, "New game", "\n".join(gm_block) + "\n", now)
    mails_in += 1
    echo(f"demo: working in {workdir}")
    echo(f"demo: the GM mails NEWGAME, {seats} ADD PLAYERs and START for {GAME} on {course}")
    summary = tick(settings, now=now, store=store)
    echo(f"  {summary.line()}")
    with store.read() as s:
        started = [x for x in g.list_games(s, None) if x.code == GAME and x.status == "running"]
    if not started:
        store.close()
        raise DemoError(f"{GAME} did not start on {course} (see the GM's answer in "
                        f"{settings.path(settings.maildir_out)}/new)")
    winner = None
    played = 0
    for _ in range(turns):
        new = seen.new_mails(settings)
        all_out.extend(new)
        now += timedelta(hours=1)
        answered = [name for msg in new if (name := _player_turn(settings, store, msg, now, rng))]
        mails_in += len(answered)
        with store.read() as s:
            game = g.get_game(s, GAME)
            number = game.turn_number
        echo(f"demo: turn {number}: {', '.join(answered) or 'nobody'} mailed a program")
        now += timedelta(minutes=5)
        echo(f"  {tick(settings, now=now, store=store).line()}")  # takes the orders
        now += timedelta(minutes=31)  # the settle delay: 30 minutes after the last program, then resolved
        summary = tick(settings, now=now, store=store)
        echo(f"  {summary.line()}")
        with store.read() as s:
            game = g.get_game(s, GAME)
            view = g.game_view(s, game)
        played = game.turn_number if game.status == "finished" else game.turn_number - 1
        for p in view["players"]:
            st = p["state"] or {}
            echo(f"    {p['robot']:<7} at {st.get('at') or 'off the board':<13} {10 - st.get('damage', 0):>2} HP  "
                 f"flags {st.get('flags', 0)}  lives {st.get('lives', '-')}")
        if game.status == "finished":
            winner = game.winner
            echo(f"demo: {GAME} is over" + (f": {winner} wins" if winner else ""))
            break
    now += timedelta(minutes=1)
    tick(settings, now=now, store=store)  # send what is left
    all_out.extend(seen.new_mails(settings))
    from ..archive import build_archive

    archive = settings.path(settings.archive_dir)
    build_archive(store, archive, now=now)
    reports = _export(settings, all_out, workdir / "reports")
    store.close()
    result = DemoResult(workdir, played, winner, mails_in, len(seen.keys), reports, archive)
    echo("")
    echo(f"demo: {played} turns played, {mails_in} mails in, {len(seen.keys)} mails out")
    echo(f"  the mails the referee sent:   {settings.path(settings.maildir_out)}/new (one file per mail)")
    echo(f"  turn reports and pictures:    {workdir / 'reports'}"
         + (f" (e.g. {reports[-1].name})" if reports else ""))
    pages = sorted(p for p in reports if p.suffix == ".html")
    if pages:
        echo(f"  a player's turn mail in HTML: {pages[-1]} (open it in a browser)")
    echo(f"  the static archive:           {archive / 'index.html'}")
    echo(f"  the database:                 {settings.database_url}")
    echo(f"  look around: referee --config {workdir / 'referee.toml'} game status {GAME}")
    return result


__all__ = ["DemoResult", "run_demo", "square_name"]
