"""Queueing the mails a turn produces, in the caller's transaction.

After a turn is resolved, :func:`enqueue_turn_mails` draws the report once (pictures, GIF, tables) and puts
one mail per player in the outbox (the public report plus, privately, the hand for the next turn, the
fused registers and an order template), and a copy for the game master. When the game holds results
for review, the players' mails wait as ``held`` until the GM publishes the turn
(:func:`referee.store.outbox.release_held`); the GM's copy goes at once. :func:`enqueue_start_mails`
does the same for a game that has just started: the robots, the board and each player's first hand.

Everything is derived from what the store holds, so queueing the same turn again finds the mails
already queued (by their Message-ID) and adds nothing; a turn resolved again (after a ``ROLLBACK``, or a
re-run with ``correction=True``) gets new Message-IDs, tied to that resolution.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import Session, object_session

from ..archive.links import turn_url
from ..common.config import Settings
from ..common.deadlines import deadline_text as when_deadline
from ..engine import Board, Robot, square_name
from ..messages.community import how_to_stop
from ..orders.language import StandingOrders
from ..orders.replies import program_block
from ..render import Picture, build_message, content_id, message_id
from ..render.crops import piece_picture
from ..render.frames import frame
from ..render.layout import CELL, Layout
from ..render.players import Player as Column
from ..render.png import png_bytes
from ..render.tables import WIDTH, PrivateSection, build_private
from ..render.turn import file_stem, light_turn_mail
from ..store.community import observers, resigned, unsubscribe_headers
from ..store.community_models import CoMaster
from ..store.errors import GameStateError, InvalidValue
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player, Turn
from ..store.outbox import Outgoing, enqueue_mail, enqueue_mails
from ..store.queries import get_game, get_turn, load_course
from ..store.records import hand_of, locked_of
from ..store.types import utcnow
from .drawn import draw_stored_turn
from .final import enqueue_final_mails
from .headers import Sender, gm_address, mail_headers
from .news import news_since
from .option_help import card_line
from .stored import course_board, report_players, robots_before
from .templating import render

#: ``OutgoingMail.kind`` of the mails queued here
KIND_TURN, KIND_START, KIND_GM_COPY = "turn_report", "turn_start", "gm_copy"
#: ``OutgoingMail.kind`` of a turn's public results to an observer (issue 31)
KIND_OBSERVER = "observer"

#: ``reply_to(player) -> address or None``: a Reply-To for a player's mail (e.g. a plus address)
ReplyTo = Callable[[Player], "str | None"]


def comaster_addresses(s: Session, game: Game) -> list[str]:
    """The game's co-masters (as :func:`referee.games.masters.comasters`), who get the GM's copy too."""
    return list(s.scalars(_COMASTERS, {"game": game.id}))


_COMASTERS = select(CoMaster.address).where(CoMaster.game_id == bindparam("game")).order_by(CoMaster.id)


def thread_headers(s: Session, game: Game, player: Player, turn: int) -> dict[str, str]:
    """In-Reply-To and References that keep a player's mails of one game in one conversation: the first
    mail of the game (the start mail) and the last report of a turn before ``turn``."""
    return threads_of(s, game, [player], turn).get(player.id, {})


#: the mails of :func:`thread_headers` (built once: a statement costs more to build than to run)
#: read from the index ``ix_outgoing_mails_thread`` alone; sorted here, since an ORDER BY id makes SQLite
#: prefer the game's index and read every mail of the game
_THREADS = (select(OutgoingMail.player_id, OutgoingMail.id, OutgoingMail.message_id)
            .where(OutgoingMail.game_id == bindparam("game"),
                   OutgoingMail.player_id.in_(bindparam("players", expanding=True)),
                   or_(OutgoingMail.kind == KIND_START,
                       and_(OutgoingMail.kind == KIND_TURN, OutgoingMail.turn_number < bindparam("turn")))))


def threads_of(s: Session, game: Game, players: Sequence[Player], turn: int) -> dict[int, dict[str, str]]:
    """:func:`thread_headers` of each of ``players`` (by player id), in one query."""
    if not players:
        return {}
    found: dict[int | None, list[str]] = {}
    rows = s.execute(_THREADS, {"game": game.id, "players": [p.id for p in players], "turn": turn}).all()
    for player_id, _, sent_id in sorted(rows, key=lambda row: row[1]):
        found.setdefault(player_id, []).append(sent_id)
    out: dict[int, dict[str, str]] = {}
    for player_id, rows in found.items():
        if player_id is None:  # (not asked for: the query is by player)
            continue
        refs = list(dict.fromkeys([rows[0], rows[-1]]))
        out[player_id] = {"In-Reply-To": rows[-1], "References": " ".join(refs)}
    return out


def deadline_text(deadline: datetime | None, now: datetime | None = None, tz: str | None = None) -> str | None:
    """A deadline as players read it: weekday, date, UTC, time left (and their own time zone)."""
    return when_deadline(deadline, now, tz)


def standing_of(player: Player) -> StandingOrders:
    """A player's standing orders as the order language knows them (keys it does not know are left out)."""
    stored = player.standing_orders or {}
    out = StandingOrders()
    if isinstance(stored.get("power_down"), bool):
        out.power_down = stored["power_down"]
    if isinstance(stored.get("sacrifice_at"), int):
        out.sacrifice_at = stored["sacrifice_at"]
    if stored.get("two_wrenches") in ("repair", "option"):
        out.two_wrenches = stored["two_wrenches"]
    if isinstance(stored.get("reenter_facing"), int) and 0 <= stored["reenter_facing"] <= 3:
        out.reenter_facing = stored["reenter_facing"]
    fire = stored.get("fire")
    if isinstance(fire, dict):
        out.fire = {int(k): str(v) for k, v in fire.items() if str(k).isdigit()}
    out.options = StandingOrders.from_dict({"options": stored.get("options")}).options  # option cards' orders
    return out


def order_template(game: Game, player: Player, turn: Turn, robot: Robot | None) -> str:
    """The BEGIN ... END block a player fills in for ``turn`` (their secret in the BEGIN line)."""
    lines = program_block(game=game.code, robot=player.robot, turn=turn.number, key=player.secret, registers={},
                          locked=locked_of(turn, player.robot), standing=standing_of(player),
                          hand=hand_of(turn, player.robot), options=list(robot.options) if robot else [],
                          elements=course_kinds(game.course), powered_down=bool(robot and robot.powered_down))
    return "\n".join(lines) + "\n"


def course_kinds(course: str) -> list[str]:
    """The element kinds on a course (for the order form's lines of the choices they ask); none when the course
    cannot be loaded (the form is still sent)."""
    try:
        return sorted(load_course(course).layers)
    except InvalidValue:
        return []


def recipients_of(game: Game, turn: Turn) -> list[Player]:
    """The players who get the turn's mail, in seat order: everyone whose robot was in it, unless ejected."""
    in_turn = {d["name"] for d in turn.state_before}
    session = object_session(game)
    gone = resigned(session, game) if session is not None else set()   # players who resigned (issue 31)
    return [p for p in game.players if p.robot in in_turn and p.status != "ejected" and p.id not in gone]


def _next_turn(s: Session, game: Game, turn: Turn) -> Turn | None:
    return s.scalars(_NEXT_TURN, {"game": game.id, "number": turn.number + 1}).one_or_none()


_NEXT_TURN = select(Turn).where(Turn.game_id == bindparam("game"), Turn.number == bindparam("number"))


def _options_shown(s: Session, game: Game, turn: Turn) -> dict[str, list[str]]:
    """robot -> the option cards already explained to its player when ``turn`` was resolved: those it held
    when the turn opened, as the GM's corrections left them (a card the GM gives is explained in the GM's
    notice, :mod:`referee.gm.dealt`)."""
    return {r.name: list(r.options) for r in robots_before(turn)}


def _result_digest(turn: Turn) -> str:
    data = json.dumps([turn.played, turn.events, turn.state_after], sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:10]


def _generation(turn: Turn) -> str:
    """Which resolution of the turn a mail reports: a turn rolled back and resolved again (even to the same
    result) is reported again, while queueing the same resolution twice finds its mails already queued."""
    when = turn.resolved_at.isoformat() if turn.resolved_at else ""
    return hashlib.sha256(f"{when}\0{_result_digest(turn)}".encode()).hexdigest()[:10]


def _resolve(s: Session, game: Game | str | int, turn: Turn | int | None) -> tuple[Game, Turn]:
    g = game if isinstance(game, Game) else get_game(s, game)
    t = turn if isinstance(turn, Turn) else get_turn(s, g, turn)
    return g, t


def _private_section(game: Game, player: Player, column: Column, number: int, turn: Turn | None,
                     robot: Robot | None, flag_total: int, now: datetime | None = None) -> PrivateSection:
    """A player's own part of a mail about turn ``number``: their hand, fused registers and an order template
    while their robot plays on (even without cards: powered down, or waiting to re-enter, it may still give
    standing orders); only its state once the robot or the player is out, or the game is over."""
    playing_on = (turn is not None and player.status == "active" and robot is not None and not robot.out_of_game)
    if not playing_on or turn is None:
        section = build_private(column, number, [], {}, "", robot, flag_total, None)
        section.game_over = game.status == "finished"
        return section
    return build_private(column, number, hand_of(turn, player.robot), locked_of(turn, player.robot),
                         order_template(game, player, turn, robot), robot, flag_total,
                         deadline_text(turn.deadline, turn.opened_at or now, player.timezone))


# -- after a turn ---------------------------------------------------------------------------------------
def enqueue_turn_mails(s: Session, settings: Settings, game: Game | str | int, turn: Turn | int, *,
                       now: datetime | None = None, correction: bool = False,
                       reply_to: ReplyTo | None = None) -> list[OutgoingMail]:
    """Queue the mails of resolved ``turn``: one per player, then the GM's copy. Returns the outbox rows.

    Runs in the caller's transaction (e.g. the one that resolved the turn). ``correction``: the turn was
    re-run after mails went out; these mails replace them (new Message-IDs, "correction" in the subject).
    """
    now = now or utcnow()
    game, turn = _resolve(s, game, turn)
    if turn.status != "resolved":
        raise GameStateError(f"turn {turn.number} of {game.code} is not resolved: no report to send")
    sender = Sender.from_settings(settings)
    kind = f"{'correction' if correction else 'turn'}-{_generation(turn)}"
    players = recipients_of(game, turn)
    gm = gm_address(settings, game)

    drawn = draw_stored_turn(s, game, turn)
    rendered, result, columns = drawn.rendered, drawn.result, drawn.columns
    rendered.report.archive_url = turn_url(settings, game.code, turn.number)
    by_robot = {c.robot: c for c in columns}
    next_turn = _next_turn(s, game, turn)
    next_robots = {r.name: r for r in (robots_before(next_turn) if next_turn else result.robots)}
    held = bool(game.hold_for_review) and turn.published_at is None
    title = f"{'Correction: ' if correction else ''}{game.code} turn {turn.number} results"
    if result.winner:
        title += f": {by_robot[result.winner].label if result.winner in by_robot else result.winner} wins"
    elif next_turn is None and game.status == "finished":
        title += ": game over"

    notice = (f"Corrected report: the game master re-ran turn {turn.number} of {game.code}. This report "
              "replaces the one sent before; where they differ, this one counts.") if correction else None
    queue: list[Outgoing] = []
    shared: dict[tuple[Any, ...], str] = {}  # the public report, rendered once for every mail of the turn
    threads = threads_of(s, game, players, turn.number)
    news = news_since(s, game, turn, players, fold_at=None if held else now)
    had = _options_shown(s, game, turn)
    for player in players:
        robot = next_robots.get(player.robot)
        private = _private_section(game, player, by_robot[player.robot], turn.number + 1, next_turn, robot,
                                   rendered.flag_total, now)
        private.story = list(rendered.stories.get(player.robot, []))
        private.news = news.get(player.id, [])
        if robot is not None and player.status == "active":
            private.new_options = [(card, card_line(card), []) for card in robot.options
                                   if card not in had.get(player.robot, ())]
        subject = title + (f", your cards for turn {turn.number + 1}" if private.hand else "")
        # (render.player_mail, but with the kind: a correction's Message-IDs must differ from the first mails')
        msg = light_turn_mail(
            rendered, player.pictures or "all", sender=sender.header, recipient=player.email, subject=subject,
            domain=sender.domain, private=private,
            headers={**mail_headers(settings, game, now, reply_to(player) if reply_to else None),
                     **threads.get(player.id, {})}, kind=kind, notice=notice, shared=shared,
            crops=rendered.crops(player.robot))
        queue.append(Outgoing(msg, kind=KIND_TURN, recipients=[player.email], sender=settings.referee_address,
                              game=game, player=player, turn_number=turn.number, held=held))
    for i, master in enumerate(dict.fromkeys([*([gm] if gm else []), *comaster_addresses(s, game)])):
        # the GM's copy, and one for each co-master (their own Message-ID)
        note = " (held for review: players get it when you publish the turn)" if held else ""
        msg = light_turn_mail(
            rendered, sender=sender.header, recipient=master, subject=f"[GM] {title}{note}", domain=sender.domain,
            headers=mail_headers(settings, game, now), kind=f"gm-{kind}" + (f"-{master}" if i else ""),
            notice=notice, shared=shared)
        queue.append(Outgoing(msg, kind=KIND_GM_COPY, recipients=[master], sender=settings.referee_address,
                              game=game, turn_number=turn.number))
    observer_notice = "\n\n".join(x for x in (notice, how_to_stop(game.code)) if x)   # how to stop, in the text
    for watcher in observers(s, game):   # the public report only, with a working unsubscribe (issue 31)
        msg = light_turn_mail(
            rendered, sender=sender.header, recipient=watcher.address, subject=title, domain=sender.domain,
            headers={**mail_headers(settings, game, now), **unsubscribe_headers(settings, game.code, watcher.token)},
            kind=f"observer-{watcher.id}-{kind}", notice=observer_notice or None, shared=shared)
        queue.append(Outgoing(msg, kind=KIND_OBSERVER, recipients=[watcher.address], sender=settings.referee_address,
                              game=game, turn_number=turn.number, held=held))
    out = enqueue_mails(s, queue, now=now)
    if game.status == "finished" and next_turn is None:
        out += enqueue_final_mails(s, settings, game, now=now, held=held)
    return out


# -- when a game starts ------------------------------------------------------------------------------------
def _start_rows(robots: Sequence[Robot], columns: Sequence[Column]) -> list[dict[str, str]]:
    by_robot = {c.robot: c for c in columns}
    rows = []
    for r in robots:
        c = by_robot[r.name]
        rows.append({"label": c.label, "colour": c.colour, "hex": c.hex,
                     "square": square_name(r.pos) if r.pos else "-",
                     "facing": "NESW"[r.facing], "mode": "virtual" if r.virtual else "real"})
    return rows


def _start_picture(board: Board, game: Game, robots: Sequence[Robot], columns: Sequence[Column]
                   ) -> tuple[Picture, Callable[[Robot | None], Picture | None]]:
    """The board at the start, and what cuts it around a robot (for a phone, on a wide course: :mod:`crops`)."""
    image = frame(board, robots, columns, f"{game.code}: start of the game")
    stem = file_stem(game.code, 1)
    lay = Layout(board.width, board.height, CELL)

    def around(robot: Robot | None) -> Picture | None:
        if robot is None or robot.pos is None:
            return None
        return piece_picture(image, lay, robot.pos, "start", robot.name, stem)

    return Picture("start", f"{stem}-start.png", png_bytes(image)), around


def _duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((days, "day"), (hours, "hour"), (minutes, "minute")) if n]
    return " ".join(parts) or "no time"


#: the missing-orders policy as the welcome mail says it
POLICY_WORDS = {"autopilot": "the autopilot plays the best program of your hand for you",
                "random": "five cards drawn at random from your hand are played for you",
                "power_down": "your robot runs only its fused registers and powers down",
                "repeat_locked": "last turn's cards are played again where possible, the rest at random"}


#: what "virtual" in the start mail's table means, for a player who never read the rules (docs/rulings.md)
VIRTUAL = ("Virtual: robots sharing a start square begin as ghosts of themselves. A virtual robot neither "
           "pushes nor is pushed, neither fires nor is hit by robot lasers, and blocks no one; the board (belts, "
           "pits, board lasers) acts on it as on any robot. It turns real at the end of its first turn if it is "
           "alone on its square, else at the end of the first register it ends alone.")


def welcome(settings: Settings, game: Game) -> dict[str, object]:
    """What the start mail says about the game: the rules of the table, in a few lines each."""
    if game.deadline_seconds:
        deadline = f"{_duration(game.deadline_seconds)} after each turn mail"
        if game.deadline_time:
            deadline += f", moved to {game.deadline_time} UTC on the day it falls"
    else:
        deadline = "none: a turn waits until every program is in"
    settle = (f"{_duration(game.settle_seconds)} after the last program comes in (you may still change yours)"
              if game.settle_seconds else "as soon as the last program comes in")
    return {"title": game.title, "deadline": deadline, "settle": settle,
            "reminder": _duration(game.reminder_seconds) if game.reminder_seconds else None,
            "missing": POLICY_WORDS.get(game.missing_orders, game.missing_orders),
            "gm": gm_address(settings, game), "referee": settings.referee_address}


def enqueue_start_mails(s: Session, settings: Settings, game: Game | str | int, *, now: datetime | None = None,
                        reply_to: ReplyTo | None = None) -> list[OutgoingMail]:
    """Queue the mails of a game that has just started: to each player the robots, the board and their hand
    for turn 1 with an order template; to the GM the same without a hand. Returns the outbox rows."""
    now = now or utcnow()
    game, turn = _resolve(s, game, 1)
    sender = Sender.from_settings(settings)
    players = [p for p in recipients_of(game, turn) if p.status == "active"]
    gm = gm_address(settings, game)

    board = course_board(game)
    robots = robots_before(turn)
    columns = report_players(game, turn)
    picture, around = _start_picture(board, game, robots, columns)
    cid = content_id(game.code, 1, "start-board", sender.domain)
    context = {"game": game.code, "course": board.name, "robots": _start_rows(robots, columns),
               "flags": board.flag_count, "image_file": picture.filename, "image_url": f"cid:{cid.strip('<>')}",
               "width": WIDTH, "welcome": welcome(settings, game), "virtual": VIRTUAL}
    by_robot = {c.robot: c for c in columns}
    by_name = {r.name: r for r in robots}

    def one(recipient: str, subject: str, kind: str, private: PrivateSection | None,
            headers: dict[str, str], piece: Picture | None = None) -> EmailMessage:
        inline = [(cid, picture)]
        if piece is not None:  # the board around the player's robot, first (a phone shows it at its drawn size)
            inline.append((content_id(game.code, 1, piece.key, sender.domain), piece))
        return build_message(sender=sender.header, recipient=recipient, subject=subject,
                             msg_id=message_id(game.code, 1, recipient, sender.domain, kind),
                             text=render("start.txt", **context, private=private),
                             html=render("start.html", **context, private=private,
                                         piece_url=f"cid:{inline[-1][0].strip('<>')}" if piece else None),
                             inline=inline, headers=headers)

    out: list[OutgoingMail] = []
    for player in players:
        robot = by_name.get(player.robot)
        section = _private_section(game, player, by_robot[player.robot], 1, turn, robot, board.flag_count, now)
        msg = one(player.email, f"{game.code} has started: your cards for turn 1", "start", section,
                  mail_headers(settings, game, now, reply_to(player) if reply_to else None), around(robot))
        out.append(enqueue_mail(s, msg, kind=KIND_START, recipients=[player.email],
                                sender=settings.referee_address, game=game, player=player, turn_number=1, now=now))
    if gm:
        msg = one(gm, f"[GM] {game.code} has started", "gm-start", None, mail_headers(settings, game, now))
        out.append(enqueue_mail(s, msg, kind=KIND_GM_COPY, recipients=[gm],
                                sender=settings.referee_address, game=game, turn_number=1, now=now))
    return out
