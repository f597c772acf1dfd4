"""A game's life: create (forming), start (robots placed, turn 1 dealt), the turn after a resolved one,
pause and resume, the deadline, end, and publishing a turn held for review.

Turn seeds are ``f"{game.seed}:{turn number}"``; the engine is pure, so a turn's stored snapshot,
inputs and seed always give the same result.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from ..common.deadlines import BadClock, deadline_after, parse_clock
from ..common.release import release
from ..common.textsafe import clean_name
from ..engine import Board, BoardState, Robot, Rules, deal_turn
from ..engine.geometry import N
from ..engine.option_deck import held_options, new_option_deck
from ..store.errors import Duplicate, GameStateError, InvalidValue
from ..store.locking import lock_named, require_write
from ..store.mail import notice_keys, record_notice
from ..store.mail_models import OutgoingMail
from ..store.models import DEFAULT_SETTLE_SECONDS, Game, Turn, TurnNotice
from ..store.queries import code_taken, game_codes, get_turn, load_course, locked_game, open_turn
from ..store.records import Deal, snapshot
from ..store.types import utcnow
from . import ranges
from .common import CODE_RE, audit, course_players, normalize_email, turn_seed
from .fills import check_game_policy
from .states import EXTENDED_NOTICE, GAME, OUTAGE_NOTICE, SEAT, TURN, step, turn_state

if TYPE_CHECKING:
    from ..common.config import Settings


def _raceable(board: Board, error: type[Exception]) -> None:
    """``error`` when a flag of ``board`` cannot be reached from every start square, in order."""
    from ..boards.checks import race_problems

    problems = race_problems(board)
    if problems:
        more = f" (and {len(problems) - 1} more; see referee board check {board.name})" if len(problems) > 1 else ""
        raise error(f"{board.name} cannot be raced: {problems[0]}{more}")


def _next_code(s: Session, prefix: str = "RR-") -> str:
    numbers = [int(c[len(prefix):]) for c in game_codes(s, prefix) if c[len(prefix):].isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1}"


def create_game(s: Session, *, course: str, code: str | None = None, title: str = "",
                rules: dict[str, Any] | Rules | None = None, seed: str | None = None,
                deadline_seconds: int | None = None, reminder_seconds: int | None = None,
                settle_seconds: int | None = None, missing_orders: str = "autopilot",
                max_missed_turns: int | None = None, deadline_time: str | None = None,
                hold_for_review: bool = False, gm_address: str | None = None,
                actor: str = "system", now: datetime | None = None) -> Game:
    """A new game, forming. ``code`` defaults to the next free ``RR-<n>``; ``seed`` to a random one."""
    now = now or utcnow()
    board = load_course(course)
    if not board.starts:
        raise InvalidValue(f"course {course!r} has no start squares")
    _raceable(board, InvalidValue)
    try:
        house = rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules or {}))
        house.validate()
    except (TypeError, ValueError) as exc:
        raise InvalidValue(str(exc)) from None
    check_game_policy(missing_orders)
    for label, value, limits in (("deadline", deadline_seconds, ranges.DEADLINE),
                                 ("reminder", reminder_seconds, ranges.REMINDER),
                                 ("settle delay", settle_seconds, ranges.SETTLE),
                                 ("missed turns", max_missed_turns, ranges.MISSED)):
        if value is not None and (not isinstance(value, int) or value < 0):
            raise InvalidValue(f"{label} must be a whole number of seconds >= 0, not {value!r}")
        if value is not None and (problem := limits.problem(value)):
            raise InvalidValue(problem)
    if len(title) > ranges.TITLE_CHARS:
        raise InvalidValue(f"a title has at most {ranges.TITLE_CHARS} characters (this one has {len(title)})")
    if deadline_time is not None:
        try:
            deadline_time = parse_clock(deadline_time)
        except BadClock as exc:
            raise InvalidValue(str(exc)) from None
    require_write(s)
    lock_named(s, "games")
    if code is None:
        code = _next_code(s)
    code = code.strip().upper()
    if not CODE_RE.match(code):
        raise InvalidValue(f"bad game code {code!r} (letters, digits and '-', up to 32, e.g. RR-7)")
    if code_taken(s, code):
        raise Duplicate(f"a game {code} exists already")
    game = Game(code=code, title=clean_name(title), course=course, rules=house.to_dict(),
                seed=seed if seed is not None else secrets.token_hex(8), status="forming", turn_number=0,
                settle_seconds=DEFAULT_SETTLE_SECONDS if settle_seconds is None else settle_seconds,
                deadline_time=deadline_time, missing_orders=missing_orders, hold_for_review=hold_for_review,
                gm_address=normalize_email(gm_address) if gm_address else None, created_at=now)
    if deadline_seconds is not None:
        game.deadline_seconds = deadline_seconds
    if reminder_seconds is not None:
        game.reminder_seconds = reminder_seconds
    if max_missed_turns is not None:
        game.max_missed_turns = max_missed_turns
    if len(game.seed) > 64:
        raise InvalidValue("a game seed has at most 64 characters")
    s.add(game)
    s.flush()
    audit(s, "game.new", actor=actor, game=game, now=now,
          details={"course": course, "rules": game.rules, "title": title})
    return game


def start_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Turn:
    """Place the robots by the house rule ``start`` and deal turn 1.

    ``virtual``: every robot on start square 1, virtual for its first turn. ``numbered``: the
    robot of seat n, real, on start square n. All face north, with their archive on the square
    they start on, and the house rule's number of lives.
    """
    now = now or utcnow()
    game = locked_game(s, game)
    step(GAME, game.status, "start", game.code)
    players = [p for p in game.players if p.status == "active"]
    if not players:
        raise GameStateError(f"{game.code} has no players yet (referee game add-player)")
    board = load_course(game.course)
    _raceable(board, GameStateError)   # the file may have changed since the game was made
    fewest = course_players(board)[0]
    if len(players) < fewest:
        raise GameStateError(f"{game.code} needs at least {fewest} players on {game.course}, it has {len(players)}")
    rules = Rules.from_dict(game.rules)
    robots: list[Robot] = []
    first = board.starts[min(board.starts)]
    for p in players:
        if rules.start == "numbered":
            if p.seat not in board.starts:
                raise GameStateError(f"course {game.course} has no start square {p.seat} for {p.robot}")
            at = board.starts[p.seat]
            robots.append(Robot(p.robot, at, N, lives=rules.lives, archive=at))
        else:
            robots.append(Robot(p.robot, first, N, lives=rules.lives, virtual=True, first_turn=True, archive=first))
    game.status = "running"
    game.started_at = now
    turn = open_next_turn(s, game, 1, robots, now)
    audit(s, "game.start", actor=actor, game=game, turn_number=1, now=now,
          details={"start": rules.start, "robots": snapshot(robots)})
    return turn


def start_and_announce(s: Session, settings: Settings, game: Game | str, *, actor: str = "system",
                       now: datetime | None = None) -> tuple[Turn, list[OutgoingMail]]:
    """Start ``game`` and queue every player's first mail (the rules of the table, the hand, the form),
    in the caller's transaction: ``referee game start`` and the GM's ``START``."""
    from ..reports import enqueue_start_mails
    from .tokens import reply_to

    turn = start_game(s, game, actor=actor, now=now)
    mails = enqueue_start_mails(s, settings, turn.game, now=turn.opened_at, reply_to=reply_to(settings, 1))
    return turn, mails


def open_next_turn(s: Session, game: Game, number: int, robots: list[Robot], now: datetime,
                   board_state: BoardState | None = None, option_deck: list[str] | None = None) -> Turn:
    """Deal turn ``number`` from ``robots``; ``board_state``: what the board's elements remember;
    ``option_deck``: the game's option deck as the last turn left it (the first turn shuffles the game's
    deck from its seed)."""
    seed = turn_seed(game, number)
    dealt = deal_turn(robots, seed)
    deal = Deal(hands=dict(dealt.hands), locked=dict(dealt.locked), undealt=list(dealt.undealt))
    if option_deck is None:
        option_deck = new_option_deck(game.seed, Rules.from_dict(game.rules), held_options(robots))
    turn = Turn(game=game, number=number, status="open", seed=seed, rules=dict(game.rules),
                engine_version=release(), rules_version=game.rules_version, opened_at=now,
                deadline=deadline_after(now, game.deadline_seconds, game.deadline_time),
                state_before=snapshot(robots), hands=deal.hands_text(), locked=deal.locked_text(),
                undealt=deal.undealt_text(), option_deck=list(option_deck),
                board_before=board_state.to_dict() if board_state else None)
    s.add(turn)
    game.turn_number = number
    s.flush()
    return turn


def after_turn(s: Session, game: Game, turn: Turn, robots: list[Robot], winner: str | None,
                now: datetime, board_state: BoardState | None = None, option_deck: list[str] | None = None) -> None:
    """Mark players out, finish the game or deal the next turn (with the board state and the option deck
    the turn left)."""
    if option_deck is None and turn.option_deck is not None:
        option_deck = list(turn.option_deck)  # the turn drew and lost nothing
    by_robot = {p.robot: p for p in game.players}
    for r in robots:
        player = by_robot.get(r.name)
        if player is not None and player.status == "active" and r.out_of_game:
            step(SEAT, "playing", "eliminate", player.robot)
            player.status = "out"
            player.left_at = now
    alive = [r for r in robots if not r.out_of_game
             and (by_robot.get(r.name) is None or by_robot[r.name].status == "active")]
    if winner or not alive:
        game.status = step(GAME, game.status, "win", game.code)
        game.winner = winner
        game.finished_at = now
        game.turn_number = turn.number
        return
    next_robots = [r for r in robots if by_robot.get(r.name) is None or by_robot[r.name].status != "ejected"]
    open_next_turn(s, game, turn.number + 1, next_robots, now, board_state=board_state, option_deck=option_deck)


# -- game status changes ---------------------------------------------------------------------------
def pause_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Game:
    now = now or utcnow()
    game = locked_game(s, game)
    game.status, game.paused_at = step(GAME, game.status, "pause", game.code), now
    audit(s, "game.pause", actor=actor, game=game, turn_number=game.turn_number, now=now)
    return game


def resume_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Game:
    """Resume a paused game; the open turn's deadline moves on by the time the game was paused."""
    now = now or utcnow()
    game = locked_game(s, game)
    step(GAME, game.status, "resume", game.code)
    turn = open_turn(s, game)
    if turn is not None and turn.deadline is not None and game.paused_at is not None:
        # moved on by the pause, but never beyond a year from now (nor the calendar's end)
        moved = ranges.later(turn.deadline, int((now - game.paused_at).total_seconds()))
        cap = now + ranges.AHEAD
        turn.deadline = min(moved, cap) if moved is not None else cap
        _moved_on(s, turn, now)
    game.status, game.paused_at = "running", None
    audit(s, "game.resume", actor=actor, game=game, turn_number=game.turn_number, now=now,
          details={"deadline": turn.deadline.isoformat() if turn and turn.deadline else None})
    return game


def set_deadline(s: Session, game: Game | str, deadline: datetime | None, *, actor: str = "system",
                 now: datetime | None = None) -> Turn:
    """Set the open turn's deadline (``None``: no deadline; the turn waits for every program)."""
    now = now or utcnow()
    game = locked_game(s, game)
    turn = open_turn(s, game)
    if turn is None:
        raise GameStateError(f"{game.code} has no open turn")
    problem = ranges.deadline_problem(deadline, now)
    if problem:
        raise InvalidValue(problem)
    old = turn.deadline
    if deadline is None or old is None or deadline > old:
        _moved_on(s, turn, now)
    turn.deadline = deadline
    audit(s, "turn.deadline", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"old": old.isoformat() if old else None, "new": deadline.isoformat() if deadline else None})
    return turn


def _moved_on(s: Session, turn: Turn, now: datetime) -> None:
    """The open turn's deadline moves on (the GM's EXTEND, SET DEADLINE, RESUME): by the turn machine."""
    step(TURN, turn_state(s, turn), "extend", f"turn {turn.number}")
    record_notice(s, turn, EXTENDED_NOTICE, now=now)


def extend_for_outage(s: Session, game: Game, turn: Turn, gap: timedelta, outage: str, *, now: datetime) -> bool:
    """Move the open turn's deadline on by ``gap`` after the outage ``outage`` (its key, :mod:`referee.cron.cadence`),
    by the turn machine and once per outage: False (nothing changed) when this outage extended it already."""
    step(TURN, turn_state(s, turn), "outage", f"turn {turn.number} of {game.code}")
    if turn.deadline is None or outage in outages_of(s, turn):
        return False
    s.add(TurnNotice(turn_id=turn.id, kind=OUTAGE_NOTICE, player_key=outage, sent_at=now))
    moved = ranges.later(turn.deadline, int(gap.total_seconds()))
    set_deadline(s, game, min(moved, now + ranges.AHEAD) if moved is not None else now + ranges.AHEAD,
                 actor="tick", now=now)
    return True


def outages_of(s: Session, turn: Turn) -> set[str]:
    """The outages (their keys) that moved ``turn``'s deadline on."""
    return notice_keys(s, turn, OUTAGE_NOTICE)


def end_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Game:
    """Finish a game without a winner (a GM ``END GAME``)."""
    now = now or utcnow()
    game = locked_game(s, game)
    game.status, game.finished_at = step(GAME, game.status, "end", game.code), now
    audit(s, "game.end", actor=actor, game=game, turn_number=game.turn_number, now=now)
    return game


def publish_turn(s: Session, game: Game | str, number: int, *, actor: str = "system",
                 now: datetime | None = None) -> Turn:
    """Mark a resolved turn's results as released to the players (hold-for-review ``PUBLISH``).
    Mails held in the outbox for it are released by :func:`referee.store.outbox.release_held`."""
    now = now or utcnow()
    game = locked_game(s, game)
    turn = get_turn(s, game, number)
    if turn.status != "resolved":
        raise GameStateError(f"turn {number} of {game.code} is not resolved")
    turn.published_at = now
    audit(s, "turn.publish", actor=actor, game=game, turn_number=number, now=now)
    return turn


