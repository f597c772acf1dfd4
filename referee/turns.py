"""Resolving a turn as a service: the missing-orders policy, the engine (through the store), and the
turn's mails queued in the same transaction. The tick, the GM's PROCESS and the CLI all come here.

Missing-orders policies (per game, ``Game.missing_orders``), for a player who owes a program at
the deadline and sent none:

- ``random`` (default, as PBEM referees did): five cards drawn at random from the hand; fused
  registers keep their cards.
- ``power_down``: the robot runs only its fused registers this turn (the rest stay empty) and powers
  down the next turn, as if the player had sent ``REBOOT``.
- ``repeat_locked``: each register repeats the card the robot played there last turn when that card
  is in this turn's hand (fused registers keep theirs); the rest are drawn at random from the hand.
- ``autopilot`` (the default for new games): the best program of the hand by the autopilot's search
  (:mod:`referee.autopilot`), the other robots standing still: it does not look at their orders.
  The tick plans before it takes the game's write lock (:func:`plan_missing`); the fill re-plans
  only when the turn changed meanwhile.
"""

from __future__ import annotations

import random
from datetime import datetime

from sqlalchemy.orm import Session

from .autopilot import plan_program
from .config import Settings
from .coursemaps import cached_course_map
from .engine import BoardState, Card, Robot, Rules, parse_card
from .intake.tokens import reply_to
from .reports.mails import enqueue_turn_mails
from .store.games import (
    FILLS,
    Fill,
    get_game,
    get_turn,
    idle_fill,
    load_course,
    open_turn,
    random_fill,
    resolve_turn,
    robots_of,
    waiting_for,
)
from .store.models import Game, Player, Turn
from .store.programs import REGISTERS


def _previous_program(game: Game, player: Player, turn_number: int) -> list[Card | None]:
    for t in game.turns:
        if t.number == turn_number - 1 and t.played:
            return [parse_card(c) if c else None for c in t.played.get(player.robot, [])]
    return []


def power_down_fill(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                    seed: str) -> list[Card | None]:
    """Policy ``power_down``: only the fused registers run, and the robot powers down next turn."""
    return idle_fill(player, robot, hand, locked, seed)


power_down_fill.powers_down = True  # type: ignore[attr-defined]


def autopilot_program(game: Game, turn: Turn, robot: str, hand: list[Card],
                      locked: dict[int, Card]) -> list[Card | None]:
    """The autopilot's program for ``robot`` in ``turn``: the engine's inputs as the turn will run
    (snapshot, rules, seed, undealt cards), the other robots standing still."""
    board = load_course(game.course)
    plan = plan_program(board, robots_of(turn), robot, hand, locked=locked, seed=turn.seed,
                        rules=Rules.from_dict(turn.rules), undealt=[parse_card(c) for c in turn.undealt],
                        board_state=BoardState.from_dict(turn.board_before),
                        course=cached_course_map(board))  # the course's map from disk, not measured again
    return plan.program


def plan_missing(s: Session, game: Game) -> dict[str, tuple[int, list[Card | None]]]:
    """For an ``autopilot`` game: robot -> (turn number, program) for every player still owing a
    program. Read-only: the tick calls it before it takes the game's write lock."""
    turn = open_turn(s, game)
    if game.missing_orders != "autopilot" or turn is None:
        return {}
    out: dict[str, tuple[int, list[Card | None]]] = {}
    for player in waiting_for(s, game):
        hand = [parse_card(c) for c in turn.hands.get(player.robot, [])]
        locked = {int(reg): parse_card(c) for reg, c in (turn.locked.get(player.robot) or {}).items()}
        out[player.robot] = (turn.number, autopilot_program(game, turn, player.robot, hand, locked))
    return out


def fill_for(game: Game, planned: dict[str, tuple[int, list[Card | None]]] | None = None) -> Fill:
    policy = game.missing_orders
    if policy == "autopilot":
        def autopilot(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                      seed: str) -> list[Card | None]:
            turn = next(t for t in game.turns if t.status == "open")
            number, program = (planned or {}).get(robot.name, (None, None))
            if number == turn.number and program is not None and _fits(program, hand, locked):
                return program
            return autopilot_program(game, turn, robot.name, hand, locked)
        return autopilot
    if policy == "power_down":
        return power_down_fill
    if policy == "repeat_locked":
        def repeat(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                   seed: str) -> list[Card | None]:
            last = _previous_program(game, player, game.turn_number)
            rng = random.Random(f"repeat:{seed}:{robot.name}")
            left = [c for c in hand]
            program: list[Card | None] = []
            for reg in range(1, REGISTERS + 1):
                if reg in locked:
                    program.append(locked[reg])
                    continue
                want = last[reg - 1] if reg <= len(last) else None
                if want is not None and want in left:
                    left.remove(want)
                    program.append(want)
                else:
                    program.append(None)
            for i, card in enumerate(program):
                if card is None and left:
                    program[i] = left.pop(rng.randrange(len(left)))
            return program
        return repeat
    return FILLS.get(policy, random_fill)


def _fits(program: list[Card | None], hand: list[Card], locked: dict[int, Card]) -> bool:
    """A program planned earlier still fits this hand and these fused registers."""
    if len(program) != REGISTERS or any(program[reg - 1] != c for reg, c in locked.items()):
        return False
    free = [c for reg, c in enumerate(program, start=1) if reg not in locked and c is not None]
    return all(c in hand for c in free) and len(set(free)) == len(free)


def resolve_and_report(s: Session, settings: Settings, game: Game | str, *, actor: str, now: datetime,
                       fill_missing: bool = True, expect_turn: int | None = None, wait: bool = True,
                       planned: dict[str, tuple[int, list[Card | None]]] | None = None) -> Turn:
    """Resolve the open turn of ``game`` (filling missing programs by the game's policy when
    ``fill_missing``; ``planned``: autopilot programs made before the lock, see :func:`plan_missing`)
    and queue its mails, in the caller's transaction."""
    game = game if isinstance(game, Game) else get_game(s, game)
    fill = fill_for(game, planned) if fill_missing else None
    turn = resolve_turn(s, game, fill=fill, expect_turn=expect_turn, wait=wait, actor=actor, now=now)
    enqueue_turn_mails(s, settings, game, turn, now=now, reply_to=reply_to(settings, turn.number + 1))
    return turn


def turn_of(s: Session, game: Game, number: int) -> Turn:
    return get_turn(s, game, number)
