"""Do two versions of the renderer draw the same turns? Pixels, palettes and GIF frames compared.

    # the version before, from a checkout of it (run from outside any checkout, so PYTHONPATH wins):
    cd /tmp && PYTHONPATH=/path/to/before python /path/to/render_same.py dump 40 > before.json
    cd /tmp && PYTHONPATH=/path/to/after python /path/to/render_same.py dump 40 > after.json
    python benchmarks/render_same.py compare before.json after.json

``dump N`` plays N turns on each of five courses (sprint 4 players, grand-prix 8, factory 4, circuit 3,
riverside 5) with seeded random programs, so robots are destroyed, re-enter and are virtual; a game where
fewer than two robots are left starts again. For each turn it renders the turn as the mails do and writes a
digest of every stage PNG decoded (mode, size, pixels, palette) and of every GIF frame decoded and composed
(RGB pixels) with its duration, and the bytes of the PNGs and the GIF. ``compare`` says which turns differ
and how the sizes changed.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
import time
from typing import Any

from bench_render import play  # (this directory: the same random programs as the render benchmark)
from PIL import Image

from referee.boards import load_board
from referee.engine import Robot
from referee.engine.geometry import N
from referee.render import make_players, render_turn

NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")
RUNS = (("sprint", 4), ("grand-prix", 8), ("factory", 4), ("circuit", 3), ("riverside", 5))


def digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:16]


def png_digest(data: bytes) -> str:
    im = Image.open(io.BytesIO(data))
    im.load()
    return digest(im.mode.encode() + repr(im.size).encode() + im.tobytes() + bytes(im.getpalette() or []))


def gif_frames(data: bytes) -> list[tuple[str, int | None]]:
    im = Image.open(io.BytesIO(data))
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append((digest(im.convert("RGB").tobytes()), im.info.get("duration")))
    return out


def dump(turns: int) -> None:
    out: dict[str, Any] = {}
    cpu = 0.0
    for course, count in RUNS:
        board = load_board(course)
        starts = [board.starts[k] for k in sorted(board.starts)]
        names = NAMES[:count]

        def fresh(starts: list[tuple[int, int]] = starts, names: tuple[str, ...] = names) -> list[Robot]:
            return [Robot(n, starts[i % len(starts)], N, archive=starts[i % len(starts)]) for i, n in enumerate(names)]

        robots = fresh()
        players = make_players(names)
        rng = random.Random(course)
        for t in range(1, turns + 1):
            result, _ = play(board, robots, f"same:{course}:{t}", rng)  # random programs from the dealt hands
            c = time.process_time()
            rendered = render_turn(board, result, players, "RR-9", t)
            cpu += time.process_time() - c
            out[f"{course}/{t}"] = {
                "pics": [png_digest(p.data) for p in rendered.pictures],
                "png_bytes": sum(len(p.data) for p in rendered.pictures),
                "gif": gif_frames(rendered.gif.data),
                "gif_bytes": len(rendered.gif.data),
                "virtual": sum(r.virtual for r in result.robots),
                "destroyed": sum(r.pos is None for r in result.robots),
            }
            robots = result.robots
            if sum(not r.out_of_game for r in robots) < 2:
                robots = fresh()
    print(f"render_turn CPU {cpu * 1e3 / len(out):.1f} ms a turn over {len(out)} turns", file=sys.stderr)
    json.dump(out, sys.stdout)


def compare(before_path: str, after_path: str) -> int:
    with open(before_path) as f:
        before = json.load(f)
    with open(after_path) as f:
        after = json.load(f)
    if before.keys() != after.keys():
        print("not the same turns")
        return 1
    differ = 0
    sizes = [0, 0, 0, 0]
    for key, a in before.items():
        b = after[key]
        if a["pics"] != b["pics"]:
            differ += 1
            pics = zip(a["pics"], b["pics"], strict=False)
            print("PNG differs:", key, [i for i, (p, q) in enumerate(pics) if p != q])
        if a["gif"] != b["gif"]:
            differ += 1
            print("GIF differs:", key, len(a["gif"]), "frames before,", len(b["gif"]), "after")
        sizes = [sizes[0] + a["png_bytes"], sizes[1] + b["png_bytes"],
                 sizes[2] + a["gif_bytes"], sizes[3] + b["gif_bytes"]]
    virtual = sum(a["virtual"] > 0 for a in before.values())
    destroyed = sum(a["destroyed"] > 0 for a in before.values())
    print(f"{len(before)} turns ({virtual} with virtual robots, {destroyed} with destroyed robots): {differ} differ")
    print(f"PNG bytes {sizes[0]} -> {sizes[1]} ({(sizes[1] / sizes[0] - 1) * 100:+.1f}%), "
          f"GIF bytes {sizes[2]} -> {sizes[3]} ({(sizes[3] / sizes[2] - 1) * 100:+.1f}%)")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"]:
        dump(int(sys.argv[2]) if len(sys.argv) > 2 else 40)
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
