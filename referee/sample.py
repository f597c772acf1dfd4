"""A sample turn on a bundled course, for ``referee demo`` (a full demo game comes with the store)."""

from __future__ import annotations

import random

from .boards import load_board
from .engine import Card, Robot, deal, resolve_turn
from .engine.ascii import render
from .engine.geometry import N, square_name

SAMPLE_ROBOTS = ("Twonky", "Hammer", "Zoom")


def pick_program(hand: list[Card], rng: random.Random) -> list[Card]:
    """A plausible program: mostly forward moves, shuffled by the seeded generator."""
    ranked = sorted(hand, key=lambda c: (c.type.move <= 0, rng.random()))
    program = ranked[:5]
    rng.shuffle(program)
    return program


def sample_turn(course_name: str, seed: int = 7) -> str:
    board = load_board(course_name)
    starts = [board.starts[n] for n in sorted(board.starts)] or [(1, c) for c in range(1, board.width + 1)]
    robots = [Robot(name, starts[i % len(starts)], N, archive=starts[i % len(starts)])
              for i, name in enumerate(SAMPLE_ROBOTS)]
    hands = deal({r.name: 9 for r in robots}, seed)
    rng = random.Random(f"sample:{seed}")
    programs: dict[str, list[Card | None]] = {name: list(pick_program(hand, rng)) for name, hand in hands.items()}
    result = resolve_turn(board, robots, programs, seed=seed)
    out = [f"Sample turn on {board.name} ({board.width}x{board.height}), seed {seed}", "", render(board, robots), ""]
    for name, prog in programs.items():
        out.append(f"{name:<8} program: " + ", ".join(str(c) for c in prog))
    out.append("")
    phase = None
    for ev in result.events:
        if ev.phase != phase:
            phase = ev.phase
            out.append(f"-- phase {phase} --" if isinstance(phase, int) else f"-- {phase} of turn --")
        out.append(f"  {ev.step:<12} {ev.robot or '':<8} {ev.text}")
    out.append("")
    out.append(render(board, result.robots))
    for r in result.robots:
        where = square_name(r.pos) if r.pos else "off the board"
        out.append(f"{r.name:<8} {where:<8} facing {'NESW'[r.facing]}  {r.hp} HP  lives {r.lives}  flags {r.flags}")
    return "\n".join(out)
