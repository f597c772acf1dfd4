"""Views: a game and a stored turn as plain JSON-able data, for the CLI, the reports and the GM."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..engine.event_codec import contract_events
from ..store.models import Game, Order
from ..store.queries import active_orders, get_turn, last_resolved, open_turn, waiting_for


def game_view(s: Session, game: Game, *, secrets_too: bool = False) -> dict[str, Any]:
    """The state of a game as plain data: settings, open turn, players and their robots."""
    turn = open_turn(s, game) or (last_resolved(s, game) if game.turn_number else None)
    orders = active_orders(s, turn) if turn is not None and turn.status == "open" else {}
    robots = {}
    if turn is not None:
        robots = {d["name"]: d for d in (turn.state_before if turn.status == "open" else turn.state_after or [])}
    owing = {p.id for p in waiting_for(s, game)}
    players = []
    for p in game.players:
        entry: dict[str, Any] = {"seat": p.seat, "robot": p.robot, "email": p.email, "name": p.name,
                                 "colour": p.colour, "status": p.status, "missed_turns": p.missed_turns,
                                 "orders": _orders_state(p.id, orders, owing),
                                 "state": robots.get(p.robot)}
        if turn is not None and turn.status == "open":
            entry["hand"] = turn.hands.get(p.robot, [])
            entry["locked"] = turn.locked.get(p.robot, {})
        if secrets_too:
            entry["secret"] = p.secret
        players.append(entry)
    return {
        "code": game.code, "title": game.title, "course": game.course, "status": game.status,
        "rules": game.rules, "turn": game.turn_number, "winner": game.winner,
        "deadline": turn.deadline.isoformat() if turn is not None and turn.status == "open" and turn.deadline
        else None,
        "deadline_seconds": game.deadline_seconds, "missing_orders": game.missing_orders,
        "hold_for_review": game.hold_for_review, "players": players,
    }


def _orders_state(player_id: int, orders: dict[int, Order], owing: set[int]) -> str:
    if player_id in owing:
        return "owed"
    return "in" if player_id in orders else "none needed"


def turn_view(s: Session, game: Game, number: int, *, hands: bool = True) -> dict[str, Any]:
    """One stored turn as plain data: seed, hands, programs, events, robots before and after."""
    turn = get_turn(s, game, number)
    out: dict[str, Any] = {
        "game": game.code, "turn": turn.number, "status": turn.status, "seed": turn.seed, "rules": turn.rules,
        "engine_version": turn.engine_version, "opened_at": turn.opened_at.isoformat(),
        "deadline": turn.deadline.isoformat() if turn.deadline else None,
        "resolved_at": turn.resolved_at.isoformat() if turn.resolved_at else None,
        "resolved_by": turn.resolved_by, "state_before": turn.state_before, "locked": turn.locked,
        "programs": turn.programs, "power_down": turn.power_down, "reentry": turn.reentry,
        "played": turn.played, "events": contract_events(turn.events), "state_after": turn.state_after,
        "winner": turn.winner,
        "phases_run": turn.phases_run, "end_of_turn": turn.end_of_turn,
    }
    if turn.option_orders:
        out["option_orders"] = turn.option_orders
    if hands:
        out["hands"] = turn.hands
        if turn.first_hands:
            out["first_hands"] = turn.first_hands   # the hands recompiled away
    by_id = {p.id: p.robot for p in game.players}
    out["orders"] = [{"robot": by_id.get(o.player_id), "active": o.active, "source": o.source, "program": o.program,
                      "power_down": o.power_down, "reentry_facing": o.reentry_facing,
                      "submitted_at": o.submitted_at.isoformat()} for o in turn.orders]
    return out
