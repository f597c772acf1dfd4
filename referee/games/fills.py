"""Missing orders: the one registry of named strategies that make a program for a robot whose player
sent none.

A game names its strategy (``Game.missing_orders``, chosen at ``NEWGAME`` / ``referee game new``);
the tick and the GM's PROCESS fill by it, ``referee game resolve --fill NAME`` by any name here.
Each :class:`Strategy` says what it does in one line (the help texts list them from here) and whether
the robot powers down next turn.

- ``autopilot`` (the default for new games): the best program of the hand by the autopilot's search
  (:mod:`referee.autopilot`) with the planner :data:`AUTOPILOT_PLANNER` (see docs/autopilot.md):
  ``against`` (the default, measured stronger: docs/autopilot.md) predicts the other robots'
  programs from what a player sees (never their orders or hands) and plans against them, and powers
  the robot down next turn when it ends this one with 6 damage or more (:mod:`referee.autopilot.power`;
  the filled orders then say so, as a player's REBOOT would); ``still`` has every other robot standing
  still and never powers down. The tick plans
  before it takes the game's write lock (:func:`plan_missing`); the fill re-plans only when the
  turn changed meanwhile.
- ``autopilot_still`` / ``autopilot_against``: the autopilot with that planner (not a game's policy:
  for ``referee game resolve --fill``).
- ``random`` (as PBEM referees did): five cards drawn at random from the hand; fused registers keep
  their cards.
- ``power_down``: the robot runs only its fused registers this turn (the rest stay empty) and powers
  down the next turn, as if the player had sent ``REBOOT``.
- ``repeat_locked``: each register repeats the card the robot played there last turn when that card
  is in this turn's hand (fused registers keep theirs); the rest are drawn at random from the hand.
- ``idle``: only the fused registers run (no power down). Not a game's policy: for ``referee game
  resolve --fill idle``, and the stand-in of an ejected player's robot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from ..common.gcpause import gc_paused
from ..engine import Card, Robot
from ..store.errors import InvalidValue
from ..store.models import MISSING_ORDERS_POLICIES, Game, Player, Turn
from ..store.programs import REGISTERS, random_program
from ..store.queries import open_turn, waiting_for
from ..store.records import cards_of, hand_of, locked_of
from .engine_io import turn_start

if TYPE_CHECKING:
    from ..autopilot import Plan

#: ``fill(player, robot, hand, locked, seed) -> five registers`` for a robot with no program
Fill = Callable[[Player, Robot, list[Card], dict[int, Card], str], list[Card | None]]
#: robot -> (turn number, program, power down next turn): autopilot plans made before the game's write lock
Planned = dict[str, tuple[int, list[Card | None], bool]]


@dataclass(frozen=True)
class Filling:
    """A strategy made ready for one game: call it like a :data:`Fill`."""

    name: str
    program: Fill
    #: the robot powers down next turn (as if its player had sent REBOOT)
    powers_down: bool = False
    #: robots the autopilot plays instead (never powered down by the policy, only by the autopilot's own
    #: plan): see :func:`with_autopilot_for`
    autopilot_for: frozenset[str] = frozenset()
    #: the autopilot that plays :attr:`autopilot_for`
    pilot: Fill | None = None

    def powers_down_robot(self, robot: str) -> bool:
        """Whether ``robot``, its program filled by this, powers down next turn: by the strategy (the
        ``power_down`` policy), or by the autopilot's plan (a robot badly damaged: :mod:`referee.autopilot.power`)."""
        if robot in self.autopilot_for:
            return _announces(self.pilot, robot)
        return self.powers_down or _announces(self.program, robot)

    def __call__(self, player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                 seed: str) -> list[Card | None]:
        return self.program(player, robot, hand, locked, seed)


@dataclass(frozen=True)
class Strategy:
    """One named way of filling a missing program."""

    name: str
    #: what it plays, in a few words (help texts; the players' wording is with their mails:
    #: ``referee/reports/fills.py``, ``templates/reminder.txt``)
    summary: str
    #: ``make(game, planned) -> fill``; ``game`` is None for a strategy that needs none
    make: Callable[[Game | None, Planned | None], Fill]
    powers_down: bool = False
    #: whether a game may name it as its missing-orders policy
    game_policy: bool = True
    needs_game: bool = False


STRATEGIES: dict[str, Strategy] = {}


def register(strategy: Strategy) -> Strategy:
    if strategy.name in STRATEGIES:
        raise ValueError(f"missing-orders strategy {strategy.name!r} is registered twice")
    STRATEGIES[strategy.name] = strategy
    return strategy


def strategy(name: str) -> Strategy:
    """The strategy called ``name``; :class:`InvalidValue` naming the known ones if there is none."""
    found = STRATEGIES.get(name)
    if found is None:
        raise InvalidValue(f"no missing-orders strategy {name!r}; known: {', '.join(STRATEGIES)}")
    return found


def names(*, game_policy: bool = False) -> list[str]:
    """The strategies' names in registry order (``game_policy``: only those a game may choose)."""
    return [n for n, s in STRATEGIES.items() if s.game_policy or not game_policy]


def check_game_policy(name: str) -> None:
    """Refuse a name a game cannot have as its missing-orders policy."""
    allowed = names(game_policy=True)
    if name not in allowed:
        raise InvalidValue(f"missing-orders policy must be one of {', '.join(allowed)}, not {name!r}")


def filling(name: str, game: Game | None = None, planned: Planned | None = None) -> Filling:
    """Strategy ``name`` made ready for ``game`` (``planned``: see :func:`plan_missing`)."""
    chosen = strategy(name)
    if chosen.needs_game and game is None:
        raise InvalidValue(f"the missing-orders strategy {name!r} works on a game: name one")
    return Filling(chosen.name, chosen.make(game, planned), chosen.powers_down)


def fill_for(game: Game, planned: Planned | None = None) -> Filling:
    """The game's own missing-orders policy, made ready for its open turn."""
    return filling(game.missing_orders, game, planned)


def with_autopilot_for(filling: Filling, game: Game, robots: set[str], planned: Planned | None = None) -> Filling:
    """``filling``, except that the autopilot plays ``robots`` (a player away, or one who resigned, where the
    game lets the autopilot play for them: issue 31)."""
    if not robots or filling.name == "autopilot":
        return filling
    pilot, others = _autopilot(game, planned), filling.program

    def program(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                seed: str) -> list[Card | None]:
        return (pilot if robot.name in robots else others)(player, robot, hand, locked, seed)
    return replace(filling, program=program, autopilot_for=frozenset(robots), pilot=pilot)


class _GameFree(Mapping[str, Filling]):
    """The strategies that need no game, by name (``FILLS["random"]``): for a caller with a fixed choice."""

    def __getitem__(self, name: str) -> Filling:
        if name not in STRATEGIES or STRATEGIES[name].needs_game:
            raise KeyError(name)
        return filling(name)

    def __iter__(self) -> Iterator[str]:
        return iter(n for n, s in STRATEGIES.items() if not s.needs_game)

    def __len__(self) -> int:
        return sum(1 for _ in self)


FILLS: Mapping[str, Filling] = _GameFree()


# -- the strategies -----------------------------------------------------------------------------------
def random_fill(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                seed: str) -> list[Card | None]:
    """A program drawn at random from the hand (fused registers kept)."""
    return list(random_program(hand, locked, f"{seed}:{robot.name}"))


def idle_fill(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
              seed: str) -> list[Card | None]:
    """Only the fused registers run."""
    return [locked.get(reg) for reg in range(1, REGISTERS + 1)]


def _previous_program(game: Game, player: Player, turn_number: int) -> list[Card | None]:
    for t in game.turns:
        if t.number == turn_number - 1 and t.played:
            return cards_of(t.played.get(player.robot, []))
    return []


def _repeat(game: Game | None, planned: Planned | None) -> Fill:
    assert game is not None

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


#: the planner of the ``autopilot`` policy: ``against`` (predicts the others) or ``still`` (they stand still)
AUTOPILOT_PLANNER = "against"


def autopilot_plan(game: Game, turn: Turn, robot: str, hand: list[Card], locked: dict[int, Card],
                   planner: str = AUTOPILOT_PLANNER) -> Plan:
    """The autopilot's plan for ``robot`` in ``turn``: the engine's inputs as the turn will run
    (snapshot, rules, seed, undealt cards); ``planner`` ``still``: the other robots stand still,
    ``against``: their programs are predicted from what a player sees (their hands stay secret), and
    the robot powers down next turn when it ends this one badly damaged (``Plan.power_down``)."""
    from ..autopilot import plan_against_others, plan_program
    from ..boards.coursemaps import cached_course_map

    start = turn_start(turn, game.course)
    course = cached_course_map(start.board, rules=start.rules)  # the course's map from disk, under the turn's rules
    with gc_paused():   # the search keeps thousands of turn states alive: no collections walking them meanwhile
        plan = (plan_against_others if planner == "against" else plan_program)(
            start.board, start.robots, robot, hand, locked=locked, seed=turn.seed, rules=start.rules,
            undealt=start.undealt, board_state=start.board_state, course=course)
    return plan


def plan_missing(s: Session, game: Game) -> Planned:
    """For an ``autopilot`` game: robot -> (turn number, program, power down) for every player still owing a
    program. Read-only: the tick calls it before it takes the game's write lock."""
    turn = open_turn(s, game)
    if game.missing_orders != "autopilot" or turn is None:
        return {}
    planned: Planned = {}
    for player in waiting_for(s, game):
        plan = autopilot_plan(game, turn, player.robot, hand_of(turn, player.robot), locked_of(turn, player.robot))
        planned[player.robot] = (turn.number, plan.program, plan.power_down)
    return planned


def _fits(program: list[Card | None], hand: list[Card], locked: dict[int, Card]) -> bool:
    """A program planned earlier still fits this hand and these fused registers."""
    if len(program) != REGISTERS or any(program[reg - 1] != c for reg, c in locked.items()):
        return False
    free = [c for reg, c in enumerate(program, start=1) if reg not in locked and c is not None]
    return all(c in hand for c in free) and len(set(free)) == len(free)


class _Autopilot:
    """The autopilot as a fill: it keeps whether each robot it played powers down next turn."""

    def __init__(self, game: Game, planned: Planned | None, planner: str) -> None:
        self.game, self.planned, self.planner = game, planned or {}, planner
        self.downs: set[str] = set()

    def __call__(self, player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                 seed: str) -> list[Card | None]:
        turn = next(t for t in self.game.turns if t.status == "open")
        number, program, down = self.planned.get(robot.name, (None, None, False))
        if number != turn.number or program is None or not _fits(program, hand, locked):
            plan = autopilot_plan(self.game, turn, robot.name, hand, locked, self.planner)
            program, down = plan.program, plan.power_down
        (self.downs.add if down else self.downs.discard)(robot.name)
        return program

    def announces(self, robot: str) -> bool:
        """Whether the last plan made for ``robot`` powers it down next turn."""
        return robot in self.downs


def _announces(fill: Fill | None, robot: str) -> bool:
    return isinstance(fill, _Autopilot) and fill.announces(robot)


def _autopilot(game: Game | None, planned: Planned | None, planner: str = AUTOPILOT_PLANNER) -> Fill:
    assert game is not None
    return _Autopilot(game, planned, planner)


# registry order: the games' policies as they were always listed, then the rest
register(Strategy("random", "a program drawn at random from the hand", lambda g, p: random_fill))
register(Strategy("power_down", "only the fused registers, and a power down next turn", lambda g, p: idle_fill,
                  powers_down=True))
register(Strategy("repeat_locked", "last turn's cards where possible, the rest at random", _repeat,
                  needs_game=True))
register(Strategy("autopilot", "the autopilot's program (the best of the hand by its search)", _autopilot,
                  needs_game=True))
register(Strategy("idle", "only the fused registers (no power down)", lambda g, p: idle_fill,
                  game_policy=False))
register(Strategy("autopilot_still", "the autopilot, every other robot standing still in its search",
                  lambda g, p: _autopilot(g, None, "still"), needs_game=True, game_policy=False))
register(Strategy("autopilot_against", "the autopilot, planning against the others' predicted programs",
                  lambda g, p: _autopilot(g, None, "against"), needs_game=True, game_policy=False))

# the database allows exactly the games' policies (a new one needs a migration of that check)
assert tuple(names(game_policy=True)) == MISSING_ORDERS_POLICIES, "fills registry and models disagree"
