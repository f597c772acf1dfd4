"""Autopilot strength: seeded four-robot games on shipped courses, the autopilot against other players.

    .venv/bin/python benchmarks/strength_autopilot.py [--courses sprint,grand-prix] [--games 4] [--turns 30]
        [--planner against|still] [--opponents picker,random,still]

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

No player knows the turn's seed. Prints, per opponent, the win rate of each side (games without
a winner are draws) and the median turns to the first flag (robots that never touched it count
as ``--turns``), and the CPU time of the autopilot side's hands (median, 95th percentile, worst).
Not a test: a measurement, seeded and repeatable.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from referee.autopilot import course_map, plan_against_others, plan_program
from referee.autopilot.against import HEDGE, NEAR, WARY
from referee.boards import load_board
from referee.cli.demo import choose_program
from referee.engine import Board, Card, Robot, deal_turn, needs_program, resolve_turn
from referee.engine.geometry import N
from referee.store.programs import random_program

Player = Callable[[Board, Robot, list[Robot], list[Card], dict[int, Card], random.Random], list[Card | None]]


def still(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
          rng: random.Random) -> list[Card | None]:
    return plan_program(board, robots, me.name, hand, locked=locked, seed=rng.random()).program


def against(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
            rng: random.Random) -> list[Card | None]:
    return plan_against_others(board, robots, me.name, hand, locked=locked, seed=rng.random(),
                               near=int(SETTINGS["near"]), hedge=bool(SETTINGS["hedge"]),
                               wary=WARINESS[str(SETTINGS["wary"])]).program


#: ``--near``: the squares within which the ``against`` planner predicts another robot
SETTINGS = {"near": NEAR, "hedge": HEDGE, "wary": str(WARY)}
WARINESS: dict[str, bool | None] = {"True": True, "False": False, "None": None}
PLANNERS: dict[str, Player] = {"against": against, "still": still}
#: CPU seconds of each of the autopilot side's hands
HAND_CPU: list[float] = []


def timed(player: Player) -> Player:
    def run(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
            rng: random.Random) -> list[Card | None]:
        t = time.process_time()
        program = player(board, me, robots, hand, locked, rng)
        HAND_CPU.append(time.process_time() - t)
        return program
    return run


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


def play(board: Board, seats: list[tuple[str, Player]], seed: str, max_turns: int) -> tuple[str | None, dict[str, int]]:
    """One game: the winner's name (None if nobody won in time) and each robot's turn of its first flag."""
    first = board.starts[min(board.starts)]
    robots = [Robot(name, first, N, virtual=True, first_turn=True, archive=first) for name, _ in seats]
    rng = random.Random(f"players:{seed}")
    first_flag: dict[str, int] = {}
    for turn in range(1, max_turns + 1):
        deal = deal_turn(robots, f"{seed}:{turn}")
        programs: dict[str, list[Card | None]] = {}
        players = dict(seats)
        for robot in robots:  # a board may add robots (a copy machine's copy): they play no cards here
            if robot.name in players and needs_program(robot):
                name = robot.name
                programs[name] = players[name](board, robot, robots, deal.hands[name], deal.locked.get(name, {}), rng)
        for r in robots:
            r.locked = dict(deal.locked.get(r.name, r.locked))
        result = resolve_turn(board, robots, programs, seed=f"{seed}:{turn}", undealt=deal.undealt)
        robots = result.robots
        for r in robots:
            if r.flags and r.name not in first_flag:
                first_flag[r.name] = turn
        if result.winner:
            return result.winner, first_flag
        if all(r.out_of_game for r in robots):
            break
    return None, first_flag


def wilson(won: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % (Wilson score) interval of a win rate of ``won`` in ``games``."""
    if not games:
        return 0.0, 1.0
    p = won / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5
    return max(0.0, centre - half), min(1.0, centre + half)


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
    ap.add_argument("--progress", action="store_true", help="a line per game as it ends")
    ap.add_argument("--first", type=int, default=0, help="the first game's number (seeds): more games, other seeds")
    args = ap.parse_args()
    SETTINGS["near"] = args.near
    SETTINGS["hedge"] = args.hedge
    SETTINGS["wary"] = str(args.wary)
    autopilot = timed(PLANNERS[args.planner])
    for opponent in args.opponents.split(","):
        player = OPPONENTS[opponent]
        HAND_CPU.clear()
        wins = {"autopilot": 0, opponent: 0, "draw": 0}
        flag_turns: dict[str, list[int]] = {"autopilot": [], opponent: []}
        games = 0
        t0 = time.perf_counter()
        for course in args.courses.split(","):
            board = load_board(course)
            course_map(board)
            course_wins = {"autopilot": 0, opponent: 0, "draw": 0}
            for game in range(args.first, args.first + args.games):
                kinds = ["autopilot", opponent, "autopilot", opponent]
                if game % 2:
                    kinds = kinds[1:] + kinds[:1]
                seats = [(f"{kind[:4]}{i}", autopilot if kind == "autopilot" else player)
                         for i, kind in enumerate(kinds)]
                winner, first_flag = play(board, seats, f"{course}:{opponent}:{game}", args.turns)
                games += 1
                by_name = dict(zip((n for n, _ in seats), kinds, strict=True))
                wins[by_name[winner] if winner else "draw"] += 1
                course_wins[by_name[winner] if winner else "draw"] += 1
                for name, kind in by_name.items():
                    flag_turns[kind].append(first_flag.get(name, args.turns))
                if args.progress:
                    print(f"    {course} game {game}: {by_name[winner] if winner else 'draw'} "
                          f"(so far autopilot {wins['autopilot']}, {opponent} {wins[opponent]})", flush=True)
            won, lo, hi = course_wins["autopilot"], *wilson(course_wins["autopilot"], args.games)
            print(f"  {course}: autopilot wins {won} of {args.games} ({won / args.games:.0%}, 95 % interval"
                  f" {lo:.0%}-{hi:.0%}), {opponent} {course_wins[opponent]}, draws {course_wins['draw']}", flush=True)
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
            p95 = statistics.quantiles(HAND_CPU, n=20, method="inclusive")[-1]
            med = statistics.median(HAND_CPU) * 1000
            print(f"  autopilot CPU per hand over {len(HAND_CPU)} hands: median {med:.0f} ms,"
                  f" p95 {p95 * 1000:.0f} ms, worst {max(HAND_CPU) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
