"""Autopilot strength: seeded four-robot games on shipped courses, the autopilot against other players.

    .venv/bin/python benchmarks/strength_autopilot.py [--courses sprint,grand-prix] [--games 4] [--turns 30]
        [--planner against|still|bayes|oracle] [--opponents picker,random,still] [--paired]

Each game seats two autopilot robots and two opponents (seats alternate from game to game), all
starting virtual on start square 1 as a new game does, and plays whole turns through the engine
(dealing, fused registers, re-entry) until someone wins or ``--turns`` have passed. Opponents:

- ``picker``: the demo's old player (:func:`referee.cli.demo.choose_program`, the best of 40 random
  programs by straight-line distance); with fused registers or a short hand it plays at random;
- ``random``: five cards drawn at random from the hand, as the ``random`` missing-orders policy;
- ``still``: the standing-still planner (:func:`~referee.autopilot.plan_program`, every other robot
  standing still in its search), the head-to-head opponent of the planner that plans against the
  others (``--planner against``, :func:`~referee.autopilot.plan_against_others`).

The autopilot side plays ``--planner`` (``against`` by default; ``still`` is the standing-still one).
Two more planners measure what the information allows; neither is a player:

- ``bayes``: a best response to the others' programs as a player can know them: twelve deals of the
  unseen cards, each nearby robot's program guessed in each deal by the opponent's own algorithm (the
  standing-still search, 500 register steps); the candidates (the best program of each opening card) are
  each resolved in the twelve worlds, and the best mean score is played;
- ``oracle``: a ceiling, not a player: it sees the opponents' dealt hands, so it knows their programs
  exactly, and plans against them (the standing-still opponent's program depends only on its hand on
  a classic board).

``--paired`` plays every game twice, the second time with the autopilot side replaced by the
standing-still planner (the same seeds and seats), and counts the games whose winning side changed:
with hands dealt alike, most games have the same winner whatever the planner, so the paired count
tells a planner's effect from the luck of the seeds far better than two win rates.

No player knows the turn's seed. Prints, per opponent, the win rate of each side (games without
a winner are draws) and the median turns to the first flag (robots that never touched it count
as ``--turns``), and the CPU time of the autopilot side's hands inside these games (median, 95th percentile,
worst), per course and in all. The hands are planned as the referee plans them (``games.fills.autopilot_plan``:
the garbage collector paused during the search); ``--gc-on`` times them with it running, as before issue 46.
Not a test: a measurement, seeded and repeatable.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from referee.autopilot import course_map, plan_against_others, plan_program
from referee.autopilot.against import HEDGE, NEAR, PREDICT_STEPS, WARY, visible_locked
from referee.autopilot.preview import best_programs
from referee.autopilot.score import score_robot
from referee.boards import load_board
from referee.cli.demo import choose_program
from referee.common.gcpause import gc_paused
from referee.engine import DECK, Board, Card, Robot, deal_turn, hand_size, needs_program, resolve_turn
from referee.engine.geometry import N
from referee.store.programs import random_program

Player = Callable[[Board, Robot, list[Robot], list[Card], dict[int, Card], random.Random], list[Card | None]]


def still(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
          rng: random.Random) -> list[Card | None]:
    return plan_program(board, robots, me.name, hand, locked=locked, seed=str(rng.random())).program


def against(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
            rng: random.Random) -> list[Card | None]:
    plan = plan_against_others(board, robots, me.name, hand, locked=locked, seed=str(rng.random()),
                               near=int(SETTINGS["near"]), hedge=bool(SETTINGS["hedge"]),
                               wary=WARINESS[str(SETTINGS["wary"])], power_down=bool(SETTINGS["power_down"]))
    if plan.power_down:
        ANNOUNCED.add(me.name)
    return plan.program


#: robots whose player announced a power down (for the next turn) with this turn's program
ANNOUNCED: set[str] = set()


def oracle(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
           rng: random.Random) -> list[Card | None]:
    """Knows the opponents' dealt hands (:data:`TABLE`), so their programs: a ceiling, not a player."""
    others = {r.name: TABLE["opponent"](board, r, robots, TABLE["hands"][r.name],
                                        TABLE["locked"].get(r.name, {}), random.Random(0))
              for r in robots if r.name in TABLE["opponents"] and needs_program(r)}
    return plan_program(board, robots, me.name, hand, locked=locked, seed=str(rng.random()), others=others).program


#: bayes: worlds (deals of the unseen cards), and the register steps of each guessed program
BAYES_WORLDS = 12
BAYES_STEPS = PREDICT_STEPS


def bayes(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
          rng: random.Random) -> list[Card | None]:
    """The program with the best mean score over :data:`BAYES_WORLDS` guesses of the nearby robots' programs,
    each guessed by the opponent's own algorithm from a deal of the cards this robot does not see; the
    candidates are the best program of each opening card with the others standing still."""
    seed = str(rng.random())
    course = course_map(board)
    candidates = [p.program for p in best_programs(board, robots, me.name, hand, locked=locked, seed=seed,
                                                   count=7, course=course)]
    close = [r for r in robots if r.name != me.name and needs_program(r) and r.pos is not None and me.pos is not None
             and abs(r.pos[0] - me.pos[0]) + abs(r.pos[1] - me.pos[1]) <= NEAR]
    if len(candidates) == 1 or not close:
        return candidates[0]
    seen = {*hand, *locked.values(), *(c for r in robots for c in visible_locked(r).values())}
    unseen = [c for c in DECK if c not in seen]
    deals = random.Random(f"bayes:{seed}:{me.name}")
    worlds = []
    for _ in range(BAYES_WORLDS):
        deals.shuffle(unseen)
        left, world = list(unseen), {}
        for r in close:
            guess, left = left[:hand_size(r.damage)], left[hand_size(r.damage):]
            world[r.name] = plan_program(board, robots, r.name, guess, locked=visible_locked(r), seed=seed,
                                         course=course, max_steps=BAYES_STEPS).program
        worlds.append(world)

    def worth(program: list[Card | None], world: dict[str, list[Card | None]]) -> float:
        held = {*hand, *locked.values(), *(c for p in world.values() for c in p if c is not None)}
        result = resolve_turn(board, robots, {**world, me.name: program}, seed=seed,
                              undealt=[c for c in DECK if c not in held])
        after = next(r for r in result.robots if r.name == me.name)
        score = score_robot(course, me, after)
        if result.winner and result.winner != me.name:
            return 500.0
        if score.lost:
            return 100.0
        if -score.flags >= board.flag_count:
            return -1000.0
        return 30.0 * score.flags + min(score.distance, 40) + 0.25 * score.damage

    return min(candidates, key=lambda program: sum(worth(program, w) for w in worlds))


#: what the oracle may see of the turn being played: the dealt hands, the opponents' seats and player
TABLE: dict[str, Any] = {}


#: ``--near``: the squares within which the ``against`` planner predicts another robot
SETTINGS = {"near": NEAR, "hedge": HEDGE, "wary": str(WARY), "power_down": True}
WARINESS: dict[str, bool | None] = {"True": True, "False": False, "None": None}
PLANNERS: dict[str, Player] = {"against": against, "still": still, "bayes": bayes, "oracle": oracle}
#: CPU seconds of each of the autopilot side's hands
HAND_CPU: list[float] = []
#: course -> CPU seconds of each of the autopilot side's hands on it
COURSE_CPU: dict[str, list[float]] = {}
#: whether the hands are planned with the garbage collector running (``--gc-on``)
GC_ON = {"on": False}


def timed(player: Player) -> Player:
    def run(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
            rng: random.Random) -> list[Card | None]:
        t = time.process_time()
        with contextlib.nullcontext() if GC_ON["on"] else gc_paused():   # as games.fills.autopilot_plan plans
            program = player(board, me, robots, hand, locked, rng)
        HAND_CPU.append(time.process_time() - t)
        COURSE_CPU.setdefault(board.name, []).append(HAND_CPU[-1])
        return program
    return run


def cpu_line(hands: list[float]) -> str:
    """Median, 95th percentile and worst CPU of ``hands``, in ms."""
    p95 = statistics.quantiles(hands, n=20, method="inclusive")[-1] if len(hands) > 1 else hands[0]
    return (f"median {statistics.median(hands) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"worst {max(hands) * 1000:.0f} ms")


def randomly(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
             rng: random.Random) -> list[Card | None]:
    return list(random_program(hand, locked, str(rng.random())))


def picker(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
           rng: random.Random) -> list[Card | None]:
    if locked or len(hand) < 5:
        return randomly(board, me, robots, hand, locked, rng)
    others = [r for r in robots if r is not me and r.pos]
    return list(choose_program(board, me, others, hand, board.flags.get(me.flags + 1), rng))


OPPONENTS: dict[str, Player] = {"picker": picker, "random": randomly, "still": still}


def play(board: Board, seats: list[tuple[str, Player]], seed: str, max_turns: int,
         opponents: frozenset[str] = frozenset()) -> tuple[str | None, dict[str, int], dict[str, int]]:
    """One game: the winner's name (None if nobody won in time), each robot's turn of its first flag and
    the lives each lost."""
    first = board.starts[min(board.starts)]
    robots = [Robot(name, first, N, virtual=True, first_turn=True, archive=first) for name, _ in seats]
    rng = random.Random(f"players:{seed}")
    first_flag: dict[str, int] = {}
    lost = {name: 0 for name, _ in seats}
    for turn in range(1, max_turns + 1):
        deal = deal_turn(robots, f"{seed}:{turn}")
        programs: dict[str, list[Card | None]] = {}
        players = dict(seats)
        TABLE.update(hands=deal.hands, locked=deal.locked, opponents=opponents)
        for robot in robots:  # a board may add robots (a copy machine's copy): they play no cards here
            if robot.name in players and needs_program(robot):
                name = robot.name
                programs[name] = players[name](board, robot, robots, deal.hands[name], deal.locked.get(name, {}), rng)
        for r in robots:
            r.locked = dict(deal.locked.get(r.name, r.locked))
            r.power_down_next = r.name in ANNOUNCED
        ANNOUNCED.clear()
        result = resolve_turn(board, robots, programs, seed=f"{seed}:{turn}", undealt=deal.undealt)
        lives = {r.name: r.lives for r in robots}
        robots = result.robots
        for r in robots:
            if r.name in lost:
                lost[r.name] += max(0, lives.get(r.name, r.lives) - r.lives)
        for r in robots:
            if r.flags and r.name not in first_flag:
                first_flag[r.name] = turn
        if result.winner:
            return result.winner, first_flag, lost
        if all(r.out_of_game for r in robots):
            break
    return None, first_flag, lost


def wilson(won: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % (Wilson score) interval of a win rate of ``won`` in ``games``."""
    if not games:
        return 0.0, 1.0
    p = won / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(gained: int, lost: int) -> float:
    """Two-sided p of ``gained`` against ``lost`` changed games if either side were as likely (binomial 1/2)."""
    n, k = gained + lost, min(gained, lost)
    if not n:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def games_of(course: str, opponent: str, player: Player, autopilot: Player, first: int, count: int,
             turns: int, progress: bool) -> list[tuple[str, dict[str, int], dict[str, int]]]:
    """Each game's winning side (``autopilot``, the opponent or ``draw``), each robot's turns to the first flag
    and the lives each side lost."""
    board = load_board(course)
    course_map(board)
    TABLE["opponent"] = player
    out = []
    for game in range(first, first + count):
        kinds = ["autopilot", opponent, "autopilot", opponent]
        if game % 2:
            kinds = kinds[1:] + kinds[:1]
        seats = [(f"{kind[:4]}{i}", autopilot if kind == "autopilot" else player) for i, kind in enumerate(kinds)]
        by_name = dict(zip((n for n, _ in seats), kinds, strict=True))
        winner, first_flag, lost = play(board, seats, f"{course}:{opponent}:{game}", turns,
                                  frozenset(n for n, kind in by_name.items() if kind != "autopilot"))
        side = by_name[winner] if winner else "draw"
        lives = {kind: sum(n for name, n in lost.items() if by_name[name] == kind) for kind in set(kinds)}
        out.append((side, {name: first_flag.get(name, turns) for name in by_name}, lives))
        if progress:
            print(f"    {course} game {game}: {side}", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--courses", default="sprint,grand-prix")
    ap.add_argument("--games", type=int, default=4, help="games per course and opponent")
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--planner", choices=sorted(PLANNERS), default="against")
    ap.add_argument("--opponents", default=",".join(OPPONENTS))
    ap.add_argument("--near", type=int, default=SETTINGS["near"], help="the against planner predicts robots this near")
    ap.add_argument("--hedge", action=argparse.BooleanOptionalAction, default=HEDGE,
                    help="the against planner keeps the program safer over both worlds")
    ap.add_argument("--wary", action=argparse.BooleanOptionalAction, default=WARY,
                    help="the against planner weighs damage against distance (default: on big boards only)")
    ap.add_argument("--power-down", action=argparse.BooleanOptionalAction, default=True,
                    help="the against planner powers a robot down when it ends a turn badly damaged")
    ap.add_argument("--progress", action="store_true", help="a line per game as it ends")
    ap.add_argument("--first", type=int, default=0, help="the first game's number (seeds): more games, other seeds")
    ap.add_argument("--gc-on", action="store_true",
                    help="plan the hands with the garbage collector running (the referee pauses it: issue 46)")
    ap.add_argument("--paired", action="store_true",
                    help="play each game again with the standing-still planner on the autopilot side, and compare")
    args = ap.parse_args()
    SETTINGS["near"] = args.near
    SETTINGS["hedge"] = args.hedge
    SETTINGS["wary"] = str(args.wary)
    SETTINGS["power_down"] = args.power_down
    GC_ON["on"] = args.gc_on
    autopilot = timed(PLANNERS[args.planner])
    for opponent in args.opponents.split(","):
        player = OPPONENTS[opponent]
        HAND_CPU.clear()
        COURSE_CPU.clear()
        wins = {"autopilot": 0, opponent: 0, "draw": 0}
        flag_turns: dict[str, list[int]] = {"autopilot": [], opponent: []}
        games = 0
        t0 = time.perf_counter()
        for course in args.courses.split(","):
            played = games_of(course, opponent, player, autopilot, args.first, args.games, args.turns, args.progress)
            course_wins = {"autopilot": 0, opponent: 0, "draw": 0}
            for side, first_flag, _ in played:
                games += 1
                wins[side] += 1
                course_wins[side] += 1
                for name, turn in first_flag.items():
                    flag_turns["autopilot" if name.startswith("auto") else opponent].append(turn)
            won, lo, hi = course_wins["autopilot"], *wilson(course_wins["autopilot"], args.games)
            print(f"  {course}: autopilot wins {won} of {args.games} ({won / args.games:.0%}, 95 % interval"
                  f" {lo:.0%}-{hi:.0%}), {opponent} {course_wins[opponent]}, draws {course_wins['draw']}; lives lost:"
                  f" autopilot {sum(g[2]['autopilot'] for g in played)}, {opponent}"
                  f" {sum(g[2][opponent] for g in played)}", flush=True)
            hands = COURSE_CPU.get(load_board(course).name, [])
            if hands:
                print(f"    autopilot CPU per hand in these games ({len(hands)} hands): {cpu_line(hands)}", flush=True)
            if args.paired:
                cpu, per_course = list(HAND_CPU), {k: list(v) for k, v in COURSE_CPU.items()}
                base = games_of(course, opponent, player, still, args.first, args.games, args.turns, False)
                HAND_CPU[:] = cpu
                COURSE_CPU.clear()
                COURSE_CPU.update(per_course)
                gained = sum(a[0] == "autopilot" != b[0] for a, b in zip(played, base, strict=True))
                lost = sum(b[0] == "autopilot" != a[0] for a, b in zip(played, base, strict=True))
                base_won = sum(b[0] == "autopilot" for b in base)
                print(f"    paired: the standing-still planner in the same seats wins {base_won} of {args.games}"
                      f" and loses {sum(b[2]['autopilot'] for b in base)} lives;"
                      f" {args.planner} won {gained} games it lost and lost {lost} it won"
                      f" (net {gained - lost:+d}, sign test p {sign_test(gained, lost):.2f})", flush=True)
        took = time.perf_counter() - t0
        print(f"autopilot ({args.planner}) vs {opponent}: {games} games on {args.courses} ({took:.0f} s)")
        for side in ("autopilot", opponent):
            print(f"  {side:<9} wins {wins[side]:>3} ({wins[side] / games:4.0%}), "
                  f"median turns to the first flag {statistics.median(flag_turns[side]):.1f}")
        print(f"  draws     {wins['draw']:>3} (nobody won within {args.turns} turns)")
        decided = wins["autopilot"] + wins[opponent]
        if decided:
            print(f"  autopilot wins {wins['autopilot'] / decided:.0%} of the {decided} games someone won")
        if HAND_CPU:
            print(f"  autopilot CPU per hand over {len(HAND_CPU)} hands"
                  f"{' (garbage collector on)' if args.gc_on else ''}: {cpu_line(HAND_CPU)}")


if __name__ == "__main__":
    main()
