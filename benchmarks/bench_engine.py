"""Engine speed: full turns for 8 robots on a course, programs drawn from each turn's dealt hands.

    .venv/bin/python benchmarks/bench_engine.py [--course grand-prix] [--turns 3000] [--robots 8] [--options 3]

Prints turns per second and the median / 95th percentile time of one turn (resolve only; the deal
is timed separately). One core, one process. The game goes on across turns (damage, re-entry,
locked registers), restarting from the start squares when a robot wins. ``--options N``: every
robot holds N option cards at the start of each turn (topped up from the game's option deck, which
travels from turn to turn; the players give no option orders, so every choice takes its default).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from referee.boards import load_board
from referee.engine import Board, Card, Robot, deal_turn, resolve_turn
from referee.engine.geometry import N
from referee.engine.option_deck import held_options, new_option_deck

NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")


def start_robots(board: Board, count: int) -> list[Robot]:
    starts = [board.starts[n] for n in sorted(board.starts)]
    return [Robot(NAMES[i], starts[i], N, archive=starts[i]) for i in range(count)]


def programs_for(robots: list[Robot], seed: str, rng: random.Random) -> tuple[dict[str, list[Card | None]], list]:
    dealt = deal_turn(robots, seed)
    programs: dict[str, list[Card | None]] = {}
    for r in robots:
        if r.name not in dealt.hands:
            continue
        hand = list(dealt.hands[r.name])
        rng.shuffle(hand)
        locked = dealt.locked.get(r.name, {})
        regs: list[Card | None] = []
        for reg in range(1, 6):
            regs.append(locked[reg] if reg in locked else hand.pop())
        programs[r.name] = regs
    return programs, dealt.undealt


def top_up(robots: list[Robot], deck: list[str], count: int) -> list[str]:
    """Give every robot on the board options from the top of the deck until it holds ``count``."""
    deck = [c for c in deck if c not in set(held_options(robots))]
    for r in robots:
        while r.pos is not None and len(r.options) < count and deck:
            r.options.append(deck.pop(0))
    return deck


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default="grand-prix")
    ap.add_argument("--turns", type=int, default=3000)
    ap.add_argument("--robots", type=int, default=8)
    ap.add_argument("--options", type=int, default=0, help="option cards every robot holds (0: the classic game)")
    args = ap.parse_args()
    board = load_board(args.course)
    rng = random.Random(1)
    robots = start_robots(board, args.robots)
    resolve_times: list[float] = []
    deal_times: list[float] = []
    events = wins = 0
    deck = new_option_deck("bench")
    for turn in range(args.turns):
        if args.options:
            deck = top_up(robots, deck, args.options)
        t0 = time.perf_counter()
        programs, undealt = programs_for(robots, f"bench:{turn}", rng)
        t1 = time.perf_counter()
        result = resolve_turn(board, robots, programs, seed=f"bench:{turn}", undealt=undealt,
                              option_deck=deck if args.options else None)
        t2 = time.perf_counter()
        deal_times.append(t1 - t0)
        resolve_times.append(t2 - t1)
        events += len(result.events)
        robots = result.robots
        deck = result.option_deck
        if result.winner or all(r.out_of_game for r in robots):
            wins += bool(result.winner)
            robots = start_robots(board, args.robots)
            deck = new_option_deck(f"bench:{turn}")
        for r in robots:
            if r.out_of_game:
                r.lives, r.pos, r.damage = 3, r.archive, 2
    total = sum(resolve_times)
    q = statistics.quantiles(resolve_times, n=20)
    options = f", {args.options} options each" if args.options else ""
    print(f"course {args.course} ({board.width}x{board.height}), {args.robots} robots{options}, {args.turns} turns")
    print(f"resolve: {args.turns / total:,.0f} turns/s; median {statistics.median(resolve_times) * 1e3:.3f} ms, "
          f"p95 {q[18] * 1e3:.3f} ms; {events / args.turns:.1f} events/turn; {wins} games won")
    print(f"deal + pick programs: median {statistics.median(deal_times) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
