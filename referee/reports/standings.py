"""Standings and statistics of a game, from its stored turns: for the game-over mail and the archive.

Ranking (a ruling, docs/rulings.md issue 18): the winner first; then more flags touched; then robots
still in the game before those out of it; then more lives left; then more HP; then seat order.

Statistics per robot, counted from the stored event log and frames of every resolved turn: robots
lost (destructions), shots fired (robot laser shots, hit or not) and taken (laser damage from any
laser), squares moved (every square a robot's position changed by between stages, by its cards,
pushes, belts or teleports).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Any

from ..engine.event_codec import decode_events
from ..engine.events import known_kind
from ..store.models import Game, Turn

#: player status -> the word the standings use
STATUS_WORDS = {"active": "playing", "out": "out of the game", "ejected": "left the game"}
#: the event kinds the statistics count (checked against the engine's kinds at import)
DESTROYED, DAMAGE = known_kind("destroyed"), known_kind("damage")


#: the words of a robot still in the race (or in it when the race ended)
STILL_IN = ("playing", "finished")


def _status(game: Game, status: str, lives: int) -> str:
    """A seat's word in the standings: once the game is over nobody is still "playing"."""
    word = STATUS_WORDS.get(status, status) if lives > 0 or status != "active" else "out of the game"
    return "finished" if word == "playing" and game.status == "finished" else word


@dataclass(slots=True)
class Standing:
    place: int
    robot: str
    player: str
    colour: str
    flags: int
    lives: int
    hp: int | None
    status: str
    winner: bool = False
    lost: int = 0
    shots_fired: int = 0
    shots_taken: int = 0
    squares: int = 0


@dataclass(slots=True)
class Summary:
    """What the game-over mail and the archive say about a game."""

    code: str
    course: str
    flag_total: int
    turns: int
    winner: str | None
    standings: list[Standing]
    started: datetime | None = None
    finished: datetime | None = None
    totals: dict[str, int] = field(default_factory=dict)


def _squares(frames: Sequence[Sequence[dict[str, Any]]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for before, after in pairwise(frames):
        at = {d["name"]: d.get("at") for d in before}
        for d in after:
            a, b = at.get(d["name"]), d.get("at")
            if a and b and a != b:
                out[d["name"]] = out.get(d["name"], 0) + _distance(str(a), str(b))
    return out


def _distance(a: str, b: str) -> int:
    from ..engine.geometry import parse_square

    (r1, c1), (r2, c2) = parse_square(a), parse_square(b)
    return abs(r1 - r2) + abs(c1 - c2)


def summarize(game: Game, turns: Sequence[Turn], flag_total: int) -> Summary:
    """Standings and statistics of ``game`` over its resolved ``turns``."""
    resolved = [t for t in turns if t.status == "resolved"]
    last = resolved[-1].state_after if resolved and resolved[-1].state_after else []
    state = {d["name"]: d for d in last}
    stats: dict[str, dict[str, int]] = {p.robot: {"lost": 0, "fired": 0, "taken": 0, "squares": 0}
                                        for p in game.players}
    for turn in resolved:
        for ev in decode_events(turn.events):  # typed, whichever version stored them: no words parsed here
            robot = ev.robot
            if robot not in stats:
                continue
            data = ev.data or {}
            if ev.kind == DESTROYED:
                stats[robot]["lost"] += 1
            elif "hit" in data and ev.step == "lasers":
                stats[robot]["fired"] += 1
            elif ev.kind == DAMAGE and data.get("cause") == "laser":
                stats[robot]["taken"] += 1
        for name, n in _squares(turn.frames or []).items():
            if name in stats:
                stats[name]["squares"] += n
    rows = []
    for p in game.players:
        d = state.get(p.robot, {})
        lives = int(d.get("lives", 0)) if d else 0
        on_board = bool(d.get("at")) if d else False
        rows.append(Standing(place=0, robot=p.robot, player=p.name or p.robot, colour=p.colour,
                             flags=int(d.get("flags", 0)) if d else 0, lives=max(0, lives),
                             hp=10 - int(d.get("damage", 0)) if on_board else None,
                             status=_status(game, p.status, lives),
                             winner=p.robot == game.winner, lost=stats[p.robot]["lost"],
                             shots_fired=stats[p.robot]["fired"], shots_taken=stats[p.robot]["taken"],
                             squares=stats[p.robot]["squares"]))
    seat = {p.robot: p.seat for p in game.players}
    rows.sort(key=lambda r: (not r.winner, -r.flags, r.status not in STILL_IN, -r.lives, -(r.hp or 0), seat[r.robot]))
    for place, row in enumerate(rows, start=1):
        row.place = place
    totals = {"robots lost": sum(r.lost for r in rows), "shots fired": sum(r.shots_fired for r in rows),
              "shots taken": sum(r.shots_taken for r in rows), "squares moved": sum(r.squares for r in rows)}
    return Summary(code=game.code, course=game.course, flag_total=flag_total, turns=len(resolved),
                   winner=game.winner, standings=rows, started=game.started_at, finished=game.finished_at,
                   totals=totals)
