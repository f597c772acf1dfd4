"""Orders for the open turn: a robot's program (and power down, re-entry facing, option orders), and
Recompile (a second hand dealt for the turn)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..engine import Card, needs_program
from ..engine.dealing import flywheel_card
from ..engine.geometry import NotationError, dir_name, parse_dir
from ..store.errors import GameStateError, InvalidValue, ProgramError, StaleOrders
from ..store.models import ORDER_SOURCES, Game, Order, Turn
from ..store.programs import check_program
from ..store.queries import active_orders, get_player, locked_game, open_turn, owes_program
from ..store.records import cards_of, cards_text, hand_of, locked_of, robots_of, undealt_of
from ..store.types import utcnow
from .common import audit


def submit_program(s: Session, game: Game | str, robot: str, cards: Sequence[Card | str | None], *,
                   turn_number: int | None = None, source: str = "cli", power_down: bool | None = None,
                   reentry_facing: str | None = None, extra: dict[str, Any] | None = None,
                   text: str | None = None, incoming_mail_id: int | None = None, actor: str | None = None,
                   now: datetime | None = None) -> Order:
    """Accept a program (and the turn's other orders) for ``robot``; the last accepted one counts.

    ``cards``: five registers, or only the unlocked ones (see :func:`check_program`); empty for a
    robot that runs no program this turn (powered down, or off the board), which may still
    announce a power down or choose its re-entry facing. ``turn_number``, when given, must be the
    open turn (:class:`StaleOrders` otherwise). Raises :class:`ProgramError` with every problem.
    """
    now = now or utcnow()
    if source not in ORDER_SOURCES:
        raise InvalidValue(f"order source must be one of {', '.join(ORDER_SOURCES)}, not {source!r}")
    game = locked_game(s, game)
    if game.status not in ("running", "paused"):
        if turn_number is not None:  # a race with the resolution of the game's last turn
            raise StaleOrders(f"orders for turn {turn_number} of {game.code} are stale: "
                              f"{game.code} is {game.status}")
        raise StaleOrders(f"{game.code} is {game.status}: no orders are taken")
    turn = open_turn(s, game)
    if turn is None:
        raise StaleOrders(f"{game.code} has no open turn")
    if turn_number is not None and turn_number != turn.number:
        raise StaleOrders(f"orders for turn {turn_number} of {game.code} are stale: turn {turn.number} is open")
    player = get_player(s, game, robot)
    if player.status != "active":
        raise ProgramError(f"{player.robot} is {'out of the game' if player.status == 'out' else 'ejected'}")
    state = {r.name: r for r in robots_of(turn)}.get(player.robot)
    if state is None:
        raise ProgramError(f"{player.robot} is not in turn {turn.number}")
    facing = None
    if reentry_facing is not None:
        try:
            facing = dir_name(parse_dir(reentry_facing))
        except NotationError as exc:
            raise ProgramError(f"re-entry facing: {exc}") from None
    previous = active_orders(s, turn).get(player.id)
    program: list[Card | None]
    if not cards and previous is not None and previous.program:
        program = cards_of(previous.program)  # only the other orders change (e.g. a power down announced)
    elif owes_program(turn, state) or (needs_program(state) and cards):
        program = list(check_program(player.robot, hand_of(turn, player.robot), locked_of(turn, player.robot),
                                     cards))
    elif cards:
        why = "is powered down this turn" if state.pos is not None else "is off the board this turn"
        raise ProgramError(f"{player.robot} {why}: it runs no program")
    else:
        program = []
    if previous is not None:
        previous.active = False
        previous.superseded_at = now
        if power_down is None:
            power_down = previous.power_down
        if facing is None:
            facing = previous.reentry_facing
    order = Order(turn=turn, player_id=player.id, active=True, source=source, program=cards_text(program),
                  power_down=power_down, reentry_facing=facing, extra=extra, text=text,
                  incoming_mail_id=incoming_mail_id, actor=actor, submitted_at=now)
    s.add(order)
    s.flush()
    return order


def recompile_deal(hand: Sequence[Card], undealt: Sequence[Card], seed: str,
                   robot: str) -> tuple[list[Card], list[Card]]:
    """Recompile: a new hand of the same size for ``robot`` and the cards left undealt, from the turn's seed.

    The new hand comes from the cards nobody holds, shuffled; only when they run short do cards of the
    old hand come back (shuffled too). The old hand then goes back to the undealt cards.
    """
    rng = random.Random(f"recompile:{seed}:{robot}")
    pool = sorted(undealt)
    rng.shuffle(pool)
    old = sorted(hand)
    rng.shuffle(old)
    new = (pool + old)[:len(hand)]
    left = sorted(c for c in {*undealt, *hand} if c not in new)
    return new, left


def recompile_hand(s: Session, game: Game | str, robot: str, *, actor: str = "system",
                   now: datetime | None = None) -> Turn:
    """Deal ``robot`` a second hand for the open turn (the Recompile option). The deadline does not move;
    orders already sent for the robot this turn are voided (they named the old hand); the engine charges
    the damage when the turn is resolved (the RECOMPILE decision)."""
    now = now or utcnow()
    game = locked_game(s, game)
    turn = open_turn(s, game)
    if turn is None or game.status not in ("running", "paused"):
        raise GameStateError(f"{game.code} has no open turn")
    player = get_player(s, game, robot)
    name = player.robot
    if name in (turn.first_hands or {}):
        raise InvalidValue(f"{name} has already recompiled in turn {turn.number}: once a turn")
    hand = hand_of(turn, name)
    if not hand:
        raise InvalidValue(f"{name} holds no cards in turn {turn.number}, so there is no hand to deal again")
    state = next((r for r in robots_of(turn) if r.name == name), None)
    kept = flywheel_card(state) if state is not None else None   # the Flywheel's card is not part of the deal
    dealt = [c for c in hand if c != kept]
    new, left = recompile_deal(dealt, undealt_of(turn), turn.seed, name)
    if kept is not None and kept in hand:
        new.append(kept)
    turn.first_hands = {**(turn.first_hands or {}), name: cards_text(hand)}
    turn.hands = {**turn.hands, name: cards_text(new)}
    turn.undealt = cards_text(left)
    order = active_orders(s, turn).get(player.id)
    if order is not None:
        order.active = False
        order.superseded_at = now
    audit(s, "turn.recompile", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"robot": name, "first_hand": cards_text(hand), "second_hand": cards_text(new),
                   "voided_order": order.id if order is not None else None})
    return turn
