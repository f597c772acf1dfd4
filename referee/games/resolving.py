"""Resolving a turn: the orders on file (missing programs filled by a strategy of :mod:`.fills`), the
engine, the result stored and the next turn dealt; with its mails queued (:func:`resolve_and_report`,
what the tick, the GM's PROCESS and ``referee game resolve`` call). Also re-running a stored turn."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from ..common.release import release
from ..engine import RULES_VERSION, Card, TurnResult, needs_program
from ..engine.event_codec import same_events
from ..engine.geometry import dir_name
from ..store.community import played_by_autopilot
from ..store.errors import AlreadyResolved, Busy, GameStateError, MissingOrders
from ..store.locking import lock_game
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Order, Turn
from ..store.programs import REGISTERS
from ..store.queries import active_orders, get_game, get_turn, open_turn, resolved_already
from ..store.records import cards_of, cards_text, hand_of, locked_of, robots_of
from ..store.types import utcnow
from .common import audit
from .engine_io import (
    TurnInputs,
    hash_ordered,
    result_columns,
    run_engine,
    stored_inputs,
    stored_result,
    turn_option_orders,
)
from .fills import Fill, Filling, Planned, fill_for, with_autopilot_for
from .lifecycle import after_turn

if TYPE_CHECKING:
    from ..common.config import Settings


def gather_inputs(s: Session, game: Game, turn: Turn, fill: Fill | None, actor: str,
                  now: datetime, orders: dict[int, Order] | None = None) -> TurnInputs:
    """The engine's inputs from the orders in force; a program missing is made by ``fill`` (recorded as an
    ``auto`` order) or, without one, :class:`MissingOrders`. ``orders``: the turn's :func:`active_orders`
    where the caller has them; an ``auto`` order made here replaces the player's entry in it."""
    if orders is None:
        orders = active_orders(s, turn)
    by_robot = {p.robot: p for p in game.players}
    programs: dict[str, list[Card | None]] = {}
    power_down: list[str] = []
    reentry: dict[str, str] = {}
    standing: dict[str, Any] = {}
    option_orders: dict[str, Any] = {}
    missing: list[str] = []
    for robot in robots_of(turn):
        player = by_robot.get(robot.name)
        order = orders.get(player.id) if player is not None else None
        if player is not None and player.standing_orders:
            standing[robot.name] = dict(player.standing_orders)
        said = turn_option_orders(turn, robot.name, order)
        if said:
            option_orders[robot.name] = said
        if order is not None:
            if order.power_down:
                power_down.append(robot.name)
            if order.reentry_facing:
                reentry[robot.name] = order.reentry_facing
        if robot.name not in reentry and player is not None:
            facing = (player.standing_orders or {}).get("reenter_facing")
            if isinstance(facing, int) and not isinstance(facing, bool) and 0 <= facing <= 3:
                reentry[robot.name] = dir_name(facing)  # a standing REENTER FACING holds on turns with no orders
        if not needs_program(robot) or player is None or player.status != "active":
            continue  # an ejected player's robot stands idle for the rest of this turn
        locked = locked_of(turn, robot.name)
        if order is not None and order.program:
            programs[robot.name] = cards_of(order.program)
        elif len(locked) == REGISTERS:
            programs[robot.name] = [locked[reg] for reg in range(1, REGISTERS + 1)]
        elif fill is not None:
            program = fill(player, robot, hand_of(turn, robot.name), locked, turn.seed)
            programs[robot.name] = program
            # a strategy that powers the robot down (``power_down``) says so (:attr:`Filling.powers_down`)
            powers_down = isinstance(fill, Filling) and fill.powers_down_robot(robot.name)
            announce = True if powers_down else (order.power_down if order else None)
            if announce and robot.name not in power_down:
                power_down.append(robot.name)
            auto = Order(turn=turn, player_id=player.id, active=True, source="auto", program=cards_text(program),
                         power_down=announce,
                         reentry_facing=order.reentry_facing if order else None, actor=actor, submitted_at=now,
                         text="(no orders: filled by the missing-orders policy)")
            if order is not None:
                order.active = False
                order.superseded_at = now
            s.add(auto)
            orders[player.id] = auto
        else:
            missing.append(robot.name)
    if missing:
        raise MissingOrders(f"turn {turn.number} of {game.code} still waits for a program from "
                            f"{', '.join(missing)}", missing)
    return TurnInputs(programs, power_down, reentry, standing, option_orders)


def resolve_turn(s: Session, game: Game | str | int, *, expect_turn: int | None = None, fill: Fill | None = None,
                 wait: bool = True, actor: str = "system", now: datetime | None = None) -> Turn:
    """Resolve the open turn of ``game`` and deal the next one. Returns the resolved turn.

    ``expect_turn``: the turn the caller means; if the game has moved past it (another process
    resolved it) :class:`AlreadyResolved`. ``fill`` makes a program for every robot whose player
    sent none (a strategy of :mod:`referee.games.fills`); without it such a turn raises :class:`MissingOrders`.
    ``wait=False``: if another transaction holds the game (PostgreSQL), raise :class:`Busy`
    instead of waiting for it.
    """
    now = now or utcnow()
    key: int | str = game.id if isinstance(game, Game) else game
    locked_game = lock_game(s, key, skip_locked=not wait)
    if locked_game is None:
        busy = get_game(s, key)  # NotFound if there is no such game at all
        raise Busy(f"{busy.code} is being changed by another process")
    game = locked_game
    turn = open_turn(s, game)
    expected = expect_turn is None or (turn is not None and turn.number == expect_turn)
    if expect_turn is not None and not expected and resolved_already(s, game, expect_turn):
        raise AlreadyResolved(f"turn {expect_turn} of {game.code} is already resolved")
    if game.status != "running":
        raise GameStateError(f"{game.code} is {game.status}: no turn to resolve")
    if turn is None or not expected:
        raise GameStateError(f"{game.code} has no open turn {expect_turn or ''}".rstrip())
    orders = active_orders(s, turn)
    inputs = gather_inputs(s, game, turn, fill, actor, now, orders)
    result = run_engine(turn, game.course, inputs)
    for key_, value in {**inputs.to_columns(), **result_columns(result)}.items():
        setattr(turn, key_, value)
    turn.status = "resolved"
    turn.resolved_at = now
    turn.resolved_by = actor
    turn.engine_version = release()
    turn.rules_version = turn.rules_version or RULES_VERSION  # the version it was dealt under (turn_rules)
    turn.published_at = None if game.hold_for_review else now
    for player in game.players:
        order = orders.get(player.id)
        if player.status != "active" or order is None:
            continue
        # an ``auto`` order is made only for a player who owed a program and sent none
        player.missed_turns = player.missed_turns + 1 if order.source == "auto" else 0
    after_turn(s, game, turn, result.robots, result.winner, now, board_state=result.board_state,
                option_deck=result.option_deck)
    audit(s, "turn.resolve", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"winner": result.winner, "filled": sorted(p.robot for p in game.players
                                                            if p.id in orders and orders[p.id].source == "auto")})
    return turn


def replay_turn(s: Session, game: Game, number: int) -> tuple[TurnResult, bool]:
    """Re-run stored turn ``number`` from its snapshot and inputs. Returns the result and whether it
    equals what is stored (it always should: the engine is pure)."""
    turn = get_turn(s, game, number)
    result = run_engine(turn, game.course, stored_inputs(turn))
    new, old = result_columns(result), stored_result(turn)
    same = all(new[k] == old[k] for k in new if k != "events") and same_events(old["events"], result.events,
                                                                               any_order_within_step=hash_ordered(turn))
    return result, same


def resolve_and_report(s: Session, settings: Settings, game: Game | str | int, *, actor: str,
                       now: datetime | None = None, fill_missing: bool = True, fill: Fill | None = None,
                       expect_turn: int | None = None, wait: bool = True,
                       planned: Planned | None = None) -> Turn:
    """Resolve the open turn of ``game`` and queue its mails, in the caller's transaction (see
    :func:`resolve_with_mails`). Returns the resolved turn."""
    return resolve_with_mails(s, settings, game, actor=actor, now=now, fill_missing=fill_missing, fill=fill,
                              expect_turn=expect_turn, wait=wait, planned=planned)[0]


def resolve_with_mails(s: Session, settings: Settings, game: Game | str | int, *, actor: str,
                       now: datetime | None = None, fill_missing: bool = True, fill: Fill | None = None,
                       expect_turn: int | None = None, wait: bool = True,
                       planned: Planned | None = None) -> tuple[Turn, list[OutgoingMail]]:
    """Resolve the open turn of ``game`` and queue its mails, in the caller's transaction: both are kept,
    or neither. Returns the resolved turn and the mails queued.

    Missing programs are filled by ``fill`` when given, else by the game's own policy when
    ``fill_missing`` (``planned``: autopilot programs made before the lock, see
    :func:`~referee.games.fills.plan_missing`); with neither the turn waits (:class:`MissingOrders`).
    """
    from ..reports.mails import enqueue_turn_mails
    from .tokens import reply_to

    if fill is None and fill_missing:
        game = game if isinstance(game, Game) else get_game(s, game)
        turn_now = open_turn(s, game)
        fill = with_autopilot_for(fill_for(game, planned), game,
                                  played_by_autopilot(s, game, turn_now.deadline if turn_now else None), planned)
    turn = resolve_turn(s, game, fill=fill, expect_turn=expect_turn, wait=wait, actor=actor, now=now)
    mails = enqueue_turn_mails(s, settings, turn.game, turn, now=turn.resolved_at,
                               reply_to=reply_to(settings, turn.number + 1))
    return turn, mails
