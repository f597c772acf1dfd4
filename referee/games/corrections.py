"""Corrections by the game master: re-run the last turn with corrected inputs (``RERUN``), reopen an
earlier turn (``ROLLBACK``), correct the robots of the open turn (``SET``). What is overwritten or
removed goes to the audit log first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..common.release import release
from ..engine import Card, Robot, deal_turn
from ..engine.dealing import flywheel_card
from ..engine.event_codec import same_events
from ..engine.geometry import dir_name, parse_dir
from ..store.errors import GameStateError, InvalidValue, NotFound
from ..store.models import Game, Turn
from ..store.programs import check_program
from ..store.queries import active_orders, get_turn, last_resolved, locked_game, open_turn, turns_after
from ..store.records import Deal, hand_of, locked_of, robots_of, snapshot
from ..store.types import utcnow
from .common import audit
from .engine_io import hash_ordered, result_columns, run_engine, stored_inputs
from .lifecycle import after_turn
from .states import GAME, SEAT, TURN, step, turn_state
from .submitting import recompile_deal


def turn_record(s: Session, turn: Turn) -> dict[str, Any]:
    """Everything about a turn, for the audit log before it is overwritten or removed."""
    record = {c.key: getattr(turn, c.key) for c in Turn.__table__.columns if c.key not in ("id", "game_id")}
    for key in ("opened_at", "deadline", "resolved_at", "published_at"):
        if record.get(key) is not None:
            record[key] = record[key].isoformat()
    record["orders"] = [{"player_id": o.player_id, "active": o.active, "source": o.source, "program": o.program,
                         "power_down": o.power_down, "reentry_facing": o.reentry_facing, "text": o.text,
                         "incoming_mail_id": o.incoming_mail_id, "submitted_at": o.submitted_at.isoformat()}
                        for o in turn.orders]
    return record


@dataclass
class Rerun:
    turn: Turn
    #: whether anything the players see changed (result or inputs)
    changed: bool
    #: whether the following turn had to be dealt again (its orders were voided)
    redealt: bool


def rerun_turn(s: Session, game: Game | str, number: int, *,
               programs: dict[str, Sequence[Card | str | None]] | None = None,
               power_down: Sequence[str] | None = None, reentry: dict[str, str] | None = None,
               state_before: Sequence[Robot] | None = None, actor: str = "system",
               now: datetime | None = None) -> Rerun:
    """Re-resolve the last resolved turn from its snapshot, with corrections (a GM ``RERUN``).

    ``programs`` replaces the programs of the robots named (checked against their hands);
    ``power_down`` / ``reentry`` replace those inputs; ``state_before`` corrects the robots the
    turn started from (the hands stay as dealt). The old result goes to the audit log. If the
    robots come out differently, the following turn is dealt again from the new state (same
    seed) and orders already sent for it are voided; if the turn now has a winner the game
    ends, if it no longer has one the game goes on.
    """
    now = now or utcnow()
    game = locked_game(s, game)
    last = last_resolved(s, game)
    if last is None or last.number != number:
        raise GameStateError(f"only the last resolved turn ({last.number if last else 'none'}) of {game.code} "
                             f"can be re-run; roll back to turn {number} first")
    inputs = stored_inputs(last)
    if programs:
        by_robot = {r.name.casefold(): r.name for r in robots_of(last)}
        for robot, cards in programs.items():
            name = by_robot.get(robot.casefold())
            if name is None:
                raise NotFound(f"no robot {robot!r} in turn {number}")
            inputs.programs[name] = list(check_program(name, hand_of(last, name), locked_of(last, name), cards))
    if power_down is not None:
        inputs.power_down = list(power_down)
    if reentry is not None:
        inputs.reentry = {k: dir_name(parse_dir(v)) for k, v in reentry.items()}
    old = turn_record(s, last)
    if state_before is not None:
        last.state_before = snapshot(state_before)
    result = run_engine(last, game.course, inputs)
    new_columns = {**inputs.to_columns(), **result_columns(result)}
    changed = (any(getattr(last, k) != v for k, v in new_columns.items() if k != "events")
               or not same_events(last.events, result.events, any_order_within_step=hash_ordered(last))
               or old["state_before"] != last.state_before)
    redealt = False
    if changed:
        state_changed = (result_columns(result)["state_after"] != last.state_after or result.winner != last.winner
                         or result_columns(result)["board_after"] != last.board_after)
        for k, v in new_columns.items():
            setattr(last, k, v)
        last.resolved_at = now
        last.resolved_by = actor
        last.engine_version = release()
        last.published_at = None if game.hold_for_review else now
        if state_changed:
            following = turns_after(s, game, number)
            voided = [turn_record(s, t) for t in following]
            for t in following:
                s.delete(t)
            s.flush()
            _not_over(game, last)
            after_turn(s, game, last, result.robots, result.winner, now, board_state=result.board_state,
                        option_deck=result.option_deck)
            redealt = bool(following) and game.status != "finished"
            old["voided_turns"] = voided
        audit(s, "turn.rerun", actor=actor, game=game, turn_number=number, now=now,
              details={"old": old, "winner": result.winner})
    return Rerun(last, changed, redealt)


def _not_over(game: Game, turn: Turn) -> None:
    """The game goes on from ``turn`` again: no winner, and players whose robots were still in at its
    start are back in."""
    game.status = step(GAME, game.status, "rollback", game.code)   # a finished game runs again
    game.winner = None
    game.finished_at = None
    still_in = {r.name for r in robots_of(turn) if not r.out_of_game}
    for p in game.players:
        if p.status == "out" and p.robot in still_in:
            step(SEAT, "eliminated", "restore", p.robot)
            p.status, p.left_at = "active", None


def rollback_to(s: Session, game: Game | str, number: int, *, actor: str = "system",
                now: datetime | None = None) -> Turn:
    """Reopen turn ``number`` (a GM ``ROLLBACK``): its result and every later turn are removed (kept in
    the audit log); its orders stay, so the GM can correct them and resolve again."""
    now = now or utcnow()
    game = locked_game(s, game)
    turn = get_turn(s, game, number)
    step(GAME, game.status, "rollback", game.code)
    step(TURN, turn_state(s, turn), "rollback", f"turn {number} of {game.code}")
    later = turns_after(s, game, number)
    removed = [turn_record(s, t) for t in later]
    old = turn_record(s, turn)
    for t in later:
        s.delete(t)
    s.flush()
    for key in ("programs", "power_down", "reentry", "standing", "option_orders", "played", "events", "state_after",
                "board_after",
                "frames",
                "winner", "phases_run", "end_of_turn", "resolved_at", "resolved_by", "published_at"):
        setattr(turn, key, None)
    turn.status = "open"
    game.turn_number = number
    _not_over(game, turn)
    audit(s, "turn.rollback", actor=actor, game=game, turn_number=number, now=now,
          details={"reopened": old, "removed": removed})
    return turn


def replace_open_state(s: Session, game: Game | str, robots: Sequence[Robot], *, actor: str = "system",
                       reason: str = "", now: datetime | None = None) -> Turn:
    """Correct the robots of the open turn (a GM ``SET``) and deal its hands again from the same seed.
    If the hands or fused registers change, orders already sent for the turn are voided."""
    now = now or utcnow()
    game = locked_game(s, game)
    turn = open_turn(s, game)
    if turn is None:
        raise GameStateError(f"{game.code} has no open turn")
    names = [d["name"] for d in turn.state_before]
    if sorted(r.name for r in robots) != sorted(names):
        raise InvalidValue(f"the robots of turn {turn.number} are {', '.join(names)}")
    order = {name: i for i, name in enumerate(names)}
    robots = sorted(robots, key=lambda r: order[r.name])
    old = {"state_before": turn.state_before, "hands": turn.hands, "locked": turn.locked}
    dealt = deal_turn(list(robots), turn.seed)
    deal = Deal(hands=dict(dealt.hands), locked=dict(dealt.locked), undealt=list(dealt.undealt))
    hands: dict[str, list[str]] = deal.hands_text()
    locked = deal.locked_text()
    undealt = list(dealt.undealt)
    kept_recompiles = {}
    for name, first in (turn.first_hands or {}).items():   # a recompiled hand stays if its first deal did
        if hands.get(name) == first:
            state = next(r for r in robots if r.name == name)
            kept = flywheel_card(state)
            second, undealt = recompile_deal([c for c in dealt.hands[name] if c != kept], undealt, turn.seed, name)
            hands[name] = [str(c) for c in [*second, *([kept] if kept in dealt.hands[name] else [])]]
            kept_recompiles[name] = first
    turn.first_hands = kept_recompiles or None
    voided = 0
    if hands != turn.hands or locked != turn.locked:
        for o in active_orders(s, turn).values():
            o.active = False
            o.superseded_at = now
            voided += 1
    turn.state_before = snapshot(robots)
    turn.hands, turn.locked, turn.undealt = hands, locked, [str(c) for c in undealt]
    audit(s, "turn.correct_state", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"old": old, "reason": reason, "voided_orders": voided})
    return turn
