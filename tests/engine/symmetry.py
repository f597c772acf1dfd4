"""Random scenarios and their turned and re-ordered twins: the engine must play a board the same whichever
way it is turned and in whatever order its file lists elements and robots (issue 33).

:func:`random_scenario` makes a square board with elements of every registered kind (:func:`all_kinds`: a
kind added later is covered without editing anything here), a few robots and their programs; :func:`twin`
turns it a number of quarter turns clockwise and shuffles its lists; :func:`outcome` reads the result back
into the original board's frame. The test runs a fixed seed; the benchmark script
``benchmarks/bench_symmetry.py`` runs many more.
"""

from __future__ import annotations

import random
from typing import Any

from referee.boards.scenario import ScenarioError, simulate
from referee.engine import DECK, BoardError, build_board
from referee.engine.board_spec import offset_spec, rotate_spec
from referee.engine.geometry import DIR_NAMES, parse_dir, parse_square, rotate_square, square_name
from referee.engine.kinds import KINDS

SIZE = 8

#: the classic elements
CLASSIC = ("wall", "pit", "belt", "express", "pusher", "gear", "crusher", "laser", "repair")


def all_kinds() -> tuple[str, ...]:
    """Every registered kind, in name order: a kind added later is played here without editing the test."""
    from referee.engine import elements  # noqa: F401  (registers the kinds)

    return tuple(sorted(KINDS))


def families() -> dict[str, tuple[str, ...]]:
    """The registered kinds by family, for the benchmark's runs of a thousand scenarios each: the classic
    elements, the floors (one per square), and the rest (walls and sides, devices, machines)."""
    kinds = all_kinds()
    return {"classic": CLASSIC,
            "floors": tuple(k for k in kinds if KINDS[k].group == "floor" and k not in CLASSIC),
            "devices": tuple(k for k in kinds if KINDS[k].group != "floor" and k not in CLASSIC)}


#: kept for callers of the name: every registered kind but the classic ones
EXTENDED = tuple(k for k in all_kinds() if k not in CLASSIC)


def _random_fields(rng: random.Random, kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in KINDS[kind].fields:
        if not f.required and rng.random() < 0.5:  # an optional field is left out as often as it is given
            continue
        if f.type == "dir":
            out[f.name] = rng.choice(DIR_NAMES)
        elif f.type == "sides":
            out[f.name] = rng.sample(DIR_NAMES, rng.randint(1, 2))
        elif f.type == "phases":
            out[f.name] = sorted(rng.sample(range(1, 6), rng.randint(1, 5)))
        elif f.type == "choice":
            out[f.name] = rng.choice(list(f.choices))
        elif f.type == "int":
            lo, hi = f.lo if f.lo is not None else 1, f.hi if f.hi is not None else 3
            out[f.name] = rng.randint(lo, min(hi, lo + 2))
        elif f.type == "bool":
            out[f.name] = rng.random() < 0.5
    return out


def random_scenario(rng: random.Random, kinds: tuple[str, ...] | None = None, elements: int = 18,
                    robots: int = 4) -> dict[str, Any]:
    """A scenario on a SIZE x SIZE board: up to ``elements`` elements of ``kinds`` that build together, one
    flag, ``robots`` robots with five distinct cards each (``kinds``: every registered kind when None)."""
    kinds = kinds or all_kinds()
    squares = [(r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1)]
    specs: list[dict[str, Any]] = [{"kind": "flag", "at": square_name(rng.choice(squares)), "number": 1}]
    for _ in range(elements * 3):
        if len(specs) > elements:
            break
        kind = rng.choice(kinds)
        at = rng.choice(squares)
        spec = {"kind": kind, "at": square_name(at), **_random_fields(rng, kind)}
        # a kind that needs partners (a portal's pair, a ring's other squares) comes with them, moved along
        with_partners = [spec, *(offset_spec(p, at[0] - 3, at[1] - 3) for p in KINDS[kind].partners)]
        try:
            build_board({"width": SIZE, "height": SIZE, "elements": [*specs, *with_partners]})
        except (BoardError, ValueError):
            continue
        specs.extend(with_partners)
    cards = rng.sample(list(DECK), 5 * robots)
    starts = rng.sample(squares, robots)
    bots = [{"name": f"R{i + 1}", "at": square_name(sq), "facing": rng.choice(DIR_NAMES)}
            for i, sq in enumerate(starts)]
    programs = {b["name"]: [str(c) for c in cards[5 * i:5 * i + 5]] for i, b in enumerate(bots)}
    return {"board": {"width": SIZE, "height": SIZE, "elements": specs}, "robots": bots, "programs": programs,
            "seed": rng.randrange(10**6)}


def twin(doc: dict[str, Any], quarter_turns: int, rng: random.Random) -> dict[str, Any]:
    """The scenario turned ``quarter_turns`` clockwise, its elements and robots listed in another order."""
    board = doc["board"]
    elements = [rotate_spec(el, SIZE, SIZE, quarter_turns) for el in board["elements"]]
    rng.shuffle(elements)
    robots = []
    for b in doc["robots"]:
        sq = rotate_square(parse_square(b["at"]), SIZE, SIZE, quarter_turns)
        robots.append({**b, "at": square_name(sq), "facing": DIR_NAMES[(parse_dir(b["facing"]) + quarter_turns) % 4]})
    rng.shuffle(robots)
    return {**doc, "board": {**board, "elements": elements}, "robots": robots}


def outcome(doc: dict[str, Any], quarter_turns: int) -> dict[str, Any]:
    """What a scenario's result says of each robot, turned back ``quarter_turns`` into the original frame."""
    result = simulate(doc)
    back = (4 - quarter_turns) % 4
    robots = {}
    for r in result["robots"]:
        at = r["at"]
        if at is not None:
            at = square_name(rotate_square(parse_square(at), SIZE, SIZE, back))
        robots[r["name"]] = (at, DIR_NAMES[(parse_dir(r["facing"]) + back) % 4], r["damage"], r["lives"],
                             r["flags"], r.get("virtual"), tuple(r.get("statuses") or ()),
                             tuple(r.get("options") or ()))
    return {"robots": robots, "winner": result["winner"]}


def differences(doc: dict[str, Any], rng: random.Random) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """The twins (0 = the same board re-ordered, 1-3 quarter turns) whose outcome differs from the scenario's."""
    try:
        base = outcome(doc, 0)
    except ScenarioError:
        return []
    found = []
    for q in (0, 1, 2, 3):
        other = twin(doc, q, rng)
        try:
            got = outcome(other, q)
        except ScenarioError as exc:  # refused turned or re-ordered, accepted as written: a difference too
            got = {"refused": str(exc)}
        if got != base:
            found.append((q, base, got))
    return found
