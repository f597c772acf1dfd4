"""Engine speed: full turns for 8 robots on a course, programs drawn from each turn's dealt hands.

    .venv/bin/python benchmarks/bench_engine.py [--course grand-prix] [--turns 3000] [--robots 8] [--options 3]
        [--against /path/to/other/checkout] [--repeat 3]

Prints turns per second and the median / 95th percentile time of one turn (resolve only; the deal
is timed separately), in process CPU time (the one-core figure, fair on a busy machine) and wall time,
and turns per second counting what reading the result's events and frames adds (an engine may make them
only when they are first read).
One core, one process. The game goes on across turns (damage, re-entry, locked registers), restarting
from the start squares when a robot wins. ``--options N``: every robot holds N option cards at the start
of each turn (topped up from the game's option deck, which travels from turn to turn; the players give no
option orders, so every choice takes its default).

``--course dense`` is a 12x12 board made here, not a shipped one: classic elements on most squares (belt
and express loops, gears, pushers, crushers, board lasers, walls, pits, repair sites) and the eight robots
starting side by side in the middle, so they push, shoot and convey one another all the time.

``--against TREE`` plays the same turns with another checkout's engine (``PYTHONPATH=TREE``) and with this
one, each in a child process, in turn ``--repeat`` times, and prints both side by side (the median of the
repeats). It also checks that both engines play every turn the same way: each turn's events (typed, and
in the scenario contract's words), the robots after it, its frames, and the rest of the result (winner,
cards played, decisions, board state, option deck) are compared turn by turn; the first turn that differs
is named and the run fails.

``--stored`` times what a real turn costs the store: resolving under rules version 2 and building the record the
store keeps (``referee.games.engine_io.result_columns``: events, robots, frames, board state...), and with
``--against`` compares those records turn by turn instead (each turn's record, as JSON, must be the same)::

    .venv/bin/python benchmarks/bench_engine.py --stored --against /path/to/a/checkout/of/fff57f3

``--rounds N`` (with one or more ``--against``) times instead in alternating rounds, for a machine whose load moves
the figures: each round plays the ``--turns`` turns (300, say) with every tree in turn, one child process each,
the trees' order rotated from round to round (each child plays the turns once untimed first, so that a board's
tables are built as in a long run); it prints each tree's best and median round (CPU per turn) and
this tree's speed-up against each, best against best and median against median. No records are compared::

    .venv/bin/python benchmarks/bench_engine.py --stored --turns 300 --rounds 8 --against ../fff57f3 --against ../main
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from referee.boards import load_board
from referee.engine import Board, Card, Robot, deal_turn, resolve_turn

try:
    from referee.engine.board_spec import build_board
except ImportError:   # a tree from before board_spec.py (--against an older checkout)
    from referee.engine.board import build_board  # type: ignore[attr-defined,no-redef]
from referee.engine.event_codec import encode_event
from referee.engine.geometry import N
from referee.engine.option_deck import held_options, new_option_deck
from referee.engine.snapshot import robot_to_dict

NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")
#: the parts of a turn the check compares, each hashed on its own so a difference says where it is
PARTS = ("events", "robots", "frames", "rest")


def dense_board() -> Board:
    """A 12x12 board with classic elements on most squares and the eight starts side by side (see above)."""
    els: list[dict[str, Any]] = []

    def add(kind: str, at: str, **fields: Any) -> None:
        els.append({"kind": kind, "at": at, **fields})

    # an express loop clockwise round the ring r2-r11 c2-c11, a belt loop anticlockwise round r4-r9 c4-c9
    add("express", "r2c2-r10c2", dir="N")
    add("express", "r11c2-r11c10", dir="E")
    add("express", "r11c11-r3c11", dir="S")
    add("express", "r2c11-r2c3", dir="W")
    add("belt", "r9c9-r5c9", dir="S")
    add("belt", "r4c9-r4c5", dir="W")
    add("belt", "r4c4-r8c4", dir="N")
    add("belt", "r9c4-r9c8", dir="E")
    for at, turn in (("r6c6", "right"), ("r7c7", "left"), ("r1c6", "right"), ("r12c7", "left"), ("r6c1", "left"),
                     ("r7c12", "right"), ("r3c5", "right"), ("r10c8", "left")):
        add("gear", at, turn=turn)
    for at in ("r1c1", "r12c12", "r3c8", "r10c5"):
        add("pit", at)
    for at in ("r6c7", "r7c6", "r1c12", "r12c1"):
        add("repair", at)
    add("pusher", "r5c5", dir="E", phases=[1, 3, 5])
    add("pusher", "r8c8", dir="W", phases=[2, 4])
    add("pusher", "r3c3", dir="N", phases=[2, 4])
    add("pusher", "r10c10", dir="S", phases=[1, 3, 5])
    add("crusher", "r5c7", phases=[2, 5])
    add("crusher", "r8c6", phases=[1, 4])
    for at, d, count in (("r1c3", "N", 1), ("r12c10", "S", 1), ("r3c1", "E", 2), ("r10c12", "W", 2),
                         ("r6c8", "W", 1), ("r7c5", "E", 1)):
        add("laser", at, dir=d, count=count)
    for at, sides in (("r5c6", ["N"]), ("r8c7", ["S"]), ("r6c5", ["W"]), ("r7c8", ["E"]), ("r3c6", ["S"]),
                      ("r10c7", ["N"]), ("r6c3", ["E"]), ("r7c10", ["W"]), ("r1c3", ["S"]), ("r12c10", ["N"]),
                      ("r3c1", ["W"]), ("r10c12", ["E"])):
        add("wall", at, sides=sides)
    for i, at in enumerate(("r6c2", "r7c3", "r6c10", "r7c11", "r5c8", "r8c5", "r3c7", "r10c6"), 1):
        add("start", at, number=i)
    for i, at in enumerate(("r12c4", "r1c9", "r9c12", "r4c1"), 1):
        add("flag", at, number=i)
    return build_board({"name": "dense", "width": 12, "height": 12, "elements": els}, "dense")


def board_for(course: str) -> Board:
    return dense_board() if course == "dense" else load_board(course)


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


def _digest(value: Any) -> str:
    return hashlib.blake2b(json.dumps(value, default=str).encode(), digest_size=12).hexdigest()


def turn_digests(result: Any) -> list[str]:
    """One hash per part of :data:`PARTS`: what the check compares between two engines (in the forms the
    store and the scenario contract keep, key order included)."""
    events = [[encode_event(ev) for ev in result.events], [ev.to_dict() for ev in result.events]]
    robots = [robot_to_dict(r) for r in result.robots]
    frames = [[robot_to_dict(r) for r in frame] for frame in result.frames]
    rest = {"winner": result.winner, "phases_run": result.phases_run, "end_of_turn": result.end_of_turn,
            "played": {k: [str(c) if c else None for c in v] for k, v in result.played.items()},
            "decisions": [d.to_dict() for d in result.decisions], "board_state": result.board_state.to_dict(),
            "option_deck": result.option_deck}
    return [_digest(events), _digest(robots), _digest(frames), _digest(rest)]


def stored_parts() -> tuple[Any, Any]:
    """(rules version 2, :func:`result_columns`): what ``--stored`` plays and keeps, in any tree since fff57f3."""
    from referee.engine import Rules
    from referee.games.engine_io import result_columns

    rules = Rules()
    return (rules.for_version(2) if hasattr(rules, "for_version") else rules), result_columns


def measure(course: str, turns: int, count: int, options: int, check: bool, stored: bool = False) -> dict[str, Any]:
    """Play ``turns`` turns; CPU and wall time of each resolve, of each deal, and (``check``) each turn's digests.
    ``stored``: under rules version 2, and each turn's stored record (``result_columns``) made and timed with it."""
    board = board_for(course)
    rules, columns = stored_parts() if stored else (None, None)
    rng = random.Random(1)
    robots = start_robots(board, count)
    cpu: list[float] = []
    wall: list[float] = []
    deal: list[float] = []
    read: list[float] = []
    digests: list[list[str]] = []
    events = wins = 0
    deck = new_option_deck("bench")
    for turn in range(turns):
        if options:
            deck = top_up(robots, deck, options)
        t0 = time.perf_counter()
        programs, undealt = programs_for(robots, f"bench:{turn}", rng)
        t1 = time.perf_counter()
        c1 = time.process_time()
        result = resolve_turn(board, robots, programs, seed=f"bench:{turn}", undealt=undealt,
                              option_deck=deck if options else None, **({"rules": rules} if stored else {}))
        record = columns(result) if stored else None
        c2 = time.process_time()
        t2 = time.perf_counter()
        # what a reader of the result adds (an engine may make its events and frames only when they are read)
        if not stored and result.events and result.frames:
            read.append(time.process_time() - c2)
        deal.append(t1 - t0)
        wall.append(t2 - t1)
        cpu.append(c2 - c1)
        if check:
            digests.append([_digest(record)] if stored else turn_digests(result))
        events += len(result.events)
        robots = result.robots
        deck = result.option_deck
        if result.winner or all(r.out_of_game for r in robots):
            wins += bool(result.winner)
            robots = start_robots(board, count)
            deck = new_option_deck(f"bench:{turn}")
        for r in robots:
            if r.out_of_game:
                r.lives, r.pos, r.damage = 3, r.archive, 2
    return {"size": f"{board.width}x{board.height}", "cpu": cpu, "wall": wall, "deal": deal, "read": read,
            "events": events,
            "wins": wins, "digests": digests}


def summary(run: dict[str, Any], turns: int) -> dict[str, float]:
    """Turns a second (CPU and wall), median and p95 CPU ms a turn."""
    cpu = run["cpu"]
    return {"turns/s": turns / sum(cpu), "wall turns/s": turns / sum(run["wall"]),
            "median": statistics.median(cpu) * 1e3, "p95": statistics.quantiles(cpu, n=20)[18] * 1e3,
            "read turns/s": turns / (sum(cpu) + sum(run["read"] or [0.0]))}


def first_difference(mine: list[list[str]], theirs: list[list[str]]) -> str | None:
    """Where two runs' digests first differ (turn number and parts), or None when they agree throughout."""
    if len(mine) != len(theirs):
        return f"{len(mine)} turns against {len(theirs)}"
    for turn, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if a != b:
            return f"turn {turn}: {', '.join(p for p, x, y in zip(PARTS, a, b, strict=True) if x != y)} differ"
    return None


def child(tree: str, args: argparse.Namespace, check: bool = True) -> dict[str, Any]:
    """:func:`measure` run in a child process on ``tree``'s engine (``check``: then the turns' digests too)."""
    cmd = [sys.executable, __file__, "--course", args.course, "--turns", str(args.turns), "--robots",
           str(args.robots), "--options", str(args.options), "--json", *(["--stored"] if args.stored else []),
           *([] if check else ["--no-check"])]
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=tree)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def side_by_side(args: argparse.Namespace) -> None:
    here = str(Path(__file__).resolve().parents[1])
    trees = {"this tree": here, "against": str(Path(args.against[0]).resolve())}
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
    for _ in range(args.repeat):
        for label, tree in trees.items():
            runs[label].append(child(tree, args))
    first = runs["this tree"][0]
    options = f", {args.options} options each" if args.options else ""
    print(f"course {args.course} ({first['size']}), {args.robots} robots{options}, {args.turns} turns, "
          f"{args.repeat} runs each, in turn; CPU of resolve_turn"
          + (" and result_columns (the stored turn), rules version 2" if args.stored else "")
          + " (median of the runs)")
    figs: dict[str, dict[str, float]] = {}
    for label, tree in trees.items():
        per_run = [summary(r, args.turns) for r in runs[label]]
        figs[label] = {k: statistics.median(s[k] for s in per_run) for k in per_run[0]}
        f = figs[label]
        print(f"  {label:<9} {tree}: {f['turns/s']:,.0f} turns/s (wall {f['wall turns/s']:,.0f}); median "
              f"{f['median']:.3f} ms, p95 {f['p95']:.3f} ms; {runs[label][0]['events'] / args.turns:.1f} events/turn; "
              f"with its events and frames read: {f['read turns/s']:,.0f} turns/s")
    print(f"  speed-up: {figs['this tree']['turns/s'] / figs['against']['turns/s']:.2f}x turns/s, "
          f"{figs['against']['median'] / figs['this tree']['median']:.2f}x median; with the result read: "
          f"{figs['this tree']['read turns/s'] / figs['against']['read turns/s']:.2f}x")
    problems = [d for label in trees for r in runs[label][1:]
                if (d := first_difference(runs[label][0]["digests"], r["digests"]))]
    if problems:
        print(f"  NOT DETERMINISTIC: a repeat differs from the first run: {problems[0]}")
    diff = first_difference(first["digests"], runs["against"][0]["digests"])
    if diff:
        print(f"  SAME TURNS: NO, {diff}")
    else:
        print(f"  same turns: yes, all {args.turns} turns' "
              + ("stored records (result_columns) are identical" if args.stored
                 else "events, robots, frames and results are identical"))
    if diff or problems:
        sys.exit(1)


def rounds(args: argparse.Namespace) -> None:
    """Alternating rounds of this tree and every ``--against`` tree (see the module's doc)."""
    here = str(Path(__file__).resolve().parents[1])
    trees = [here, *(str(Path(t).resolve()) for t in args.against)]
    per_turn: dict[str, list[float]] = {tree: [] for tree in trees}
    for n in range(args.rounds):
        for tree in trees[n % len(trees):] + trees[:n % len(trees)]:
            per_turn[tree].append(sum(child(tree, args, check=False)["cpu"]) / args.turns * 1e6)
    what = "resolve_turn and result_columns (the stored turn), rules version 2" if args.stored else "resolve_turn"
    print(f"course {args.course}, {args.robots} robots, {args.rounds} rounds of {args.turns} turns, the trees "
          f"alternating; CPU of {what}, µs a turn")
    best = {tree: min(v) for tree, v in per_turn.items()}
    median = {tree: statistics.median(v) for tree, v in per_turn.items()}
    for tree in trees:
        label = "this tree" if tree == here else "against"
        ratio = "" if tree == here else (f"; this tree {best[tree] / best[here]:.2f}x best, "
                                         f"{median[tree] / median[here]:.2f}x median")
        print(f"  {label:<9} {tree}: best {best[tree]:.1f}, median {median[tree]:.1f}{ratio}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default="grand-prix", help="a board or course, or 'dense' (made here)")
    ap.add_argument("--turns", type=int, default=3000)
    ap.add_argument("--robots", type=int, default=8)
    ap.add_argument("--options", type=int, default=0, help="option cards every robot holds (0: the classic game)")
    ap.add_argument("--against", action="append", default=[],
                    help="another checkout to play the same turns with, side by side, and compare (--rounds: "
                         "may be given more than once)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each tree with --against")
    ap.add_argument("--rounds", type=int, default=0,
                    help="with --against: time in this many alternating rounds of --turns turns instead (no check)")
    ap.add_argument("--stored", action="store_true",
                    help="time the stored turn: resolve plus the record the store keeps (result_columns), under "
                         "rules version 2; with --against the records are compared")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # a child's answer
    ap.add_argument("--no-check", action="store_true", help=argparse.SUPPRESS)  # a child timing a round
    args = ap.parse_args()
    if args.json:  # timed without the check (its garbage would be collected in the timed turns), then checked
        if args.no_check:  # a round: the same turns played once first (the board's tables built, as in a long run)
            measure(args.course, args.turns, args.robots, args.options, check=False, stored=args.stored)
        run = measure(args.course, args.turns, args.robots, args.options, check=False, stored=args.stored)
        if not args.no_check:
            run["digests"] = measure(args.course, args.turns, args.robots, args.options, check=True,
                                     stored=args.stored)["digests"]
        json.dump(run, sys.stdout)
        return
    if args.against and args.rounds:
        rounds(args)
        return
    if args.against:
        if len(args.against) > 1:
            ap.error("more than one --against needs --rounds")
        side_by_side(args)
        return
    run = measure(args.course, args.turns, args.robots, args.options, check=False, stored=args.stored)
    f = summary(run, args.turns)
    options = f", {args.options} options each" if args.options else ""
    print(f"course {args.course} ({run['size']}), {args.robots} robots{options}, {args.turns} turns")
    print(f"{'resolve + record' if args.stored else 'resolve'} (CPU): {f['turns/s']:,.0f} turns/s "
          f"(wall {f['wall turns/s']:,.0f}); median {f['median']:.3f} ms, "
          f"p95 {f['p95']:.3f} ms; {run['events'] / args.turns:.1f} events/turn; {run['wins']} games won")
    print(f"deal + pick programs: median {statistics.median(run['deal']) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
