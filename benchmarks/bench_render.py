"""Rendering speed: one board frame, and one whole turn's mails for 8 players, on the largest shipped course.

    .venv/bin/python benchmarks/bench_render.py [--course NAME] [--players 8] [--repeat 20]

Plays a few turns first (programs drawn from each turn's dealt hands) so the robots are spread over the
course, then times:

- the floor, drawn from nothing (done once per board and cell size, then kept), and a first frame from
  nothing (floor, palette, robots, PNG);
- one frame: the robots drawn on the kept floor, mapped to the palette and encoded as PNG (goal < 50 ms);
- one turn drawn once for everybody: the report, a PNG per stage (with its paths, shots, damage and wrecks),
  the key and the GIF; and the GIF alone, from the stage pictures already drawn (in-between frames and
  encoding; goal < 1 s);
- one turn: all that, then every player's mail built and serialised to bytes, with the floor already drawn
  ("warm") and from nothing ("cold").

Prints medians (and the worst run), and the sizes of a PNG, the GIF and a mail. One core, one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from referee.boards import list_boards, load_board
from referee.engine import Board, Card, Deal, Robot, TurnResult, deal_turn, resolve_turn
from referee.engine.geometry import N
from referee.render import make_players, player_mail, png_bytes, render_turn
from referee.render.board_image import draw_floor, frame, gif_bytes

try:  # where the kept floors are (board_image before issue 18)
    from referee.render import frames as floors
except ImportError:  # pragma: no cover
    from referee.render import board_image as floors  # type: ignore[no-redef]


def forget_floors(board: Board) -> None:
    """Drop the kept floors of ``board`` (on the board since the compiled engine; a module's dict before)."""
    try:
        from referee.render.board_memo import board_memo
    except ImportError:
        floors._FLOORS.clear()
        return
    board_memo(board, "floors").clear()

try:  # (absent before issue 18: the script also runs against older trees, for before-and-after figures)
    from referee.render.motion import animation
except ImportError:  # pragma: no cover
    animation = None  # type: ignore[assignment]

T = TypeVar("T")
NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")
TEMPLATE = "BEGIN {game} {robot} turn {turn}\n1:\n2:\n3:\n4:\n5:\nEND\n"


def largest_course() -> str:
    sizes = []
    for name, kind, _ in list_boards():
        if kind == "course":
            board = load_board(name)
            sizes.append((board.width * board.height, name))
    if not sizes:
        raise SystemExit("no course is shipped in boards/")
    return max(sizes)[1]


def play(board: Board, robots: list[Robot], seed: str, rng: random.Random) -> tuple[TurnResult, Deal]:
    dealt = deal_turn(robots, seed)
    programs: dict[str, list[Card | None]] = {}
    for r in robots:
        if r.name in dealt.hands:
            hand = list(dealt.hands[r.name])
            rng.shuffle(hand)
            locked = dealt.locked.get(r.name, {})
            programs[r.name] = [locked[reg] if reg in locked else hand.pop() for reg in range(1, 6)]
    return resolve_turn(board, robots, programs, seed=seed, undealt=dealt.undealt), dealt


#: CPU time of this process (not wall time): the machine is shared, and other jobs' load should not count
CPU_TIMES: dict[int, list[float]] = {}


def timed(fn: Callable[[], T], repeat: int) -> tuple[list[float], T]:
    times, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    CPU_TIMES[id(times)] = cpu
    return times, out


def ms(times: list[float]) -> str:
    cpu = CPU_TIMES.get(id(times), times)
    return (f"median {statistics.median(times) * 1e3:7.1f} ms, worst {max(times) * 1e3:7.1f} ms wall; "
            f"CPU median {statistics.median(cpu) * 1e3:7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default=None, help="default: the largest shipped course")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--warmup-turns", type=int, default=3)
    args = ap.parse_args()
    course = args.course or largest_course()
    board = load_board(course)
    starts = [board.starts[n] for n in sorted(board.starts)]
    names = NAMES[: args.players]
    robots = [Robot(n, starts[i % len(starts)], N, archive=starts[i % len(starts)]) for i, n in enumerate(names)]
    rng = random.Random(1)
    for turn in range(1, args.warmup_turns + 1):
        robots = play(board, robots, f"bench:{turn}", rng)[0].robots
    turn = args.warmup_turns + 1
    result, _ = play(board, robots, f"bench:{turn}", rng)
    next_deal = deal_turn(result.robots, f"bench:{turn + 1}")
    players = make_players(names)
    print(f"course {course} ({board.width}x{board.height}), {len(names)} players, turn {turn}: "
          f"{len(result.events)} events, {len(result.frames)} pictures")

    floor_times, _ = timed(lambda: draw_floor(board), max(3, args.repeat // 4))
    print(f"floor, drawn from nothing:     {ms(floor_times)}")

    def first_frame() -> bytes:
        forget_floors(board)
        return png_bytes(frame(board, result.robots, players, "after stage 3"))

    first_times, _ = timed(first_frame, max(3, args.repeat // 4))
    print(f"first frame (floor + palette): {ms(first_times)}")
    frame(board, robots, players)  # draw and keep the floor and the palette
    frame_times, png = timed(lambda: png_bytes(frame(board, result.robots, players, "after stage 3")), args.repeat)
    print(f"one frame (draw + PNG):        {ms(frame_times)}   PNG {len(png) / 1024:.1f} KB")

    def whole_turn() -> list[bytes]:
        rendered = render_turn(board, result, players, "RR-7", turn)
        mails = []
        for p in players:
            robot = next(r for r in result.robots if r.name == p.robot)
            msg = player_mail(rendered, p, sender="RR-7 referee <referee@example.test>",
                              recipient=f"{p.robot.lower()}@example.test", subject=f"RR-7 turn {turn}",
                              domain="example.test", hand=next_deal.hands.get(p.robot, []),
                              locked=next_deal.locked.get(p.robot, {}), robot=robot,
                              order_template=TEMPLATE.format(game="RR-7", robot=p.robot, turn=turn + 1),
                              headers={"Date": "Sat, 21 Nov 2026 12:00:00 +0000"})
            mails.append(bytes(msg))
        return mails

    shared, rendered = timed(lambda: render_turn(board, result, players, "RR-7", turn), args.repeat)
    print(f"one turn, drawn once for all:  {ms(shared)}")

    def gif_alone() -> bytes:
        if animation is None:
            return gif_bytes([f.image for f in rendered.frames], 1000)
        images, durations = animation(board, rendered.frames, result.frames, result.events, players,
                                      f"RR-7 turn {turn}")
        return gif_bytes(images, durations)

    gif_times, gif = timed(gif_alone, args.repeat)
    count = len(animation(board, rendered.frames, result.frames, result.events, players)[0]) if animation \
        else len(rendered.frames)
    print(f"the GIF alone ({count} frames):     {ms(gif_times)}   GIF {len(gif) / 1024:.1f} KB")
    warm, mails = timed(whole_turn, args.repeat)

    def cold_turn() -> list[bytes]:
        forget_floors(board)
        return whole_turn()

    cold, _ = timed(cold_turn, max(3, args.repeat // 4))
    rendered = render_turn(board, result, players, "RR-7", turn)
    sizes = [len(p.data) for p in rendered.pictures]
    print(f"whole turn, {len(names)} mails (warm): {ms(warm)}")
    print(f"whole turn, {len(names)} mails (cold): {ms(cold)}")
    print(f"sizes: PNG {min(sizes) / 1024:.1f}-{max(sizes) / 1024:.1f} KB, GIF {len(rendered.gif.data) / 1024:.1f} KB, "
          f"mail {statistics.median(len(m) for m in mails) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
