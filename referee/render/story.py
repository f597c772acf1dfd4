"""A robot's own story of a turn, in two to four lines, for the top of its player's mail.

"Zoom, turn 4: pushed by Twonky (FWD2 680) into the pit at r7c9 in register 3; took 2 damage; re-entered at
r2c6." then where it stands now, its lives, and its flags with the next flag's square and distance. Made from
the turn's events (the same ones the stage tables read), the robots before the turn and after it, and the
board's flags; nothing is read from the tables' words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..engine import Board, Card, Event, Robot, TurnResult, shown
from ..engine.geometry import DIR_NAMES, Square, square_name
from .causes import Replay, pushed


@dataclass(slots=True)
class _Told:
    items: list[str] = field(default_factory=list)
    damage: int = 0
    repaired: int = 0
    #: repaired before any damage (a powered-down robot's repair comes first)
    repaired_first: bool = False

    def add(self, text: str) -> None:
        if text and (not self.items or self.items[-1] != text):
            self.items.append(text)


def _card(played: Mapping[str, Sequence[Card | None]], robot: str, phase: int) -> Card | None:
    cards = played.get(robot) or []
    return cards[phase - 1] if len(cards) >= phase else None


def _pusher(ev: Event, phase: int, played: Mapping[str, Sequence[Card | None]],
            label: Callable[[str], str]) -> str | None:
    """``Twonky (FWD2 680)`` for a push by a robot, ``a pusher`` for a board element; None when unknown."""
    words = pushed(ev, phase, played, label)
    to = (ev.args or {}).get("to")
    head = f"pushed to {to} by "
    if isinstance(to, str) and words.startswith(head):
        return words[len(head):]
    by = (ev.data or {}).get("by")
    return f"a {by}" if by else None


def _destruction(ev: Event, last: Event | None, phase: int | str, at: Square | None,
                 played: Mapping[str, Sequence[Card | None]], label: Callable[[str], str]) -> str:
    cause = str((ev.data or {}).get("cause") or "")
    where = f" at {square_name(at)}" if at is not None else ""
    when = f" in register {phase}" if isinstance(phase, int) else ""
    declared = shown.CAUSES.get(cause)
    into = declared.into if declared is not None else ""
    if not into:  # not a fall: what did it, as the cause's module declares it
        what = declared.destroyed if declared is not None else f"destroyed ({cause})" if cause else "destroyed"
        return f"{what}{where}{when}"
    if last is not None and last.kind == "pushed" and isinstance(phase, int):
        who = _pusher(last, phase, played, label)
        if who:
            return f"pushed by {who} {into}{where}{when}"
    own = _card(played, ev.robot, phase) if isinstance(phase, int) and ev.robot else None
    if own is not None and own.type.move and (last is None or last.kind in ("move", "face")):
        if last is None or last.kind != "move":  # fell from the square it stood on: no move event first
            where = f" from {square_name(at)}" if at is not None else ""
        return f"drove {into}{where}{when} ({own})"
    if last is not None and last.kind in ("conveyed", "carried", "slide"):
        return f"carried {into}{where}{when}"
    return f"fell {into}{where}{when}"


def _tell(name: str, result: TurnResult, label: Callable[[str], str]) -> _Told:
    """What happened to robot ``name``, event by event, in the words of the story."""
    told = _Told()
    replay = Replay.start(result.frames[0] if result.frames else [])
    last: dict[tuple[str, int | str], Event] = {}
    pending_push: tuple[int, str] | None = None  # (phase, words) of a push not yet told
    for ev in result.events:
        if ev.robot != name:
            replay.see(ev)
            continue
        kind, args, phase = ev.kind, ev.args or {}, ev.phase
        if pending_push is not None and (pending_push[0] != phase or kind not in ("pushed", "destroyed")):
            told.add(pending_push[1])
            pending_push = None
        if kind == "pushed" and isinstance(phase, int):
            who = _pusher(ev, phase, result.played, label)
            pending_push = (phase, f"pushed by {who} to {args.get('to')} in register {phase}" if who
                            else f"pushed to {args.get('to')} in register {phase}")
        elif kind == "destroyed":
            pending_push = None
            told.add(_destruction(ev, last.get((name, phase)), phase, replay.pos.get(name), result.played, label))
        elif kind == "damage":
            told.damage += int(args.get("amount") or 0)
        elif kind == "repair":
            told.repaired_first = told.repaired_first or not told.damage
            told.repaired += int(args.get("amount") or 0)
        elif kind == "flag":
            told.add(f"touched flag {args.get('number')}" + (f" in register {phase}" if isinstance(phase, int) else ""))
        elif kind == "option drawn":
            told.add(f"drew the option card {args.get('option')}")
        elif kind in ("option lost", "sacrificed"):
            told.add(f"lost the option card {args.get('option')}")
        elif kind == "re-enter":
            facing = (ev.data or {}).get("facing")
            told.add(f"re-entered at {args.get('at')}" + (f" facing {facing}" if facing else ""))
        elif kind == "wins":
            told.add("touched the last flag and won the game")
        elif (status := shown.given(kind)) is not None and status.words:
            told.add(status.words + (f" in register {phase}" if isinstance(phase, int) else ""))
        last[(name, phase)] = ev
        replay.see(ev)
    if pending_push is not None:
        told.add(pending_push[1])
    return told


def _distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _flags(board: Board, robot: Robot) -> str:
    total = board.flag_count
    if not total:
        return ""
    text = f"Flags {robot.flags}/{total}."
    nxt = board.flags.get(robot.flags + 1)
    if nxt is None or robot.out_of_game:
        return text
    here = robot.pos if robot.pos is not None else robot.archive
    away = f", {_distance(here, nxt)} square{'s' if _distance(here, nxt) != 1 else ''} away" if here else ""
    return f"{text} Next flag: {robot.flags + 1} at {square_name(nxt)}{away}."


def _now(robot: Robot) -> str:
    lives = max(0, robot.lives)
    left = f"{lives} robot{'s' if lives != 1 else ''} left"
    if robot.out_of_game:
        return (f"{robot.name} is out of the game: no robots left. You get the turn mails until the game ends, "
                "then the final standings.")
    if robot.pos is None:
        where = f", re-enters at {square_name(robot.archive)}" if robot.archive is not None else ""
        return f"Now: destroyed{where}; {left}."
    carried = "".join(f", {words}" for words in shown.carried(robot.statuses))
    return (f"Now at {square_name(robot.pos)} facing {DIR_NAMES[robot.facing]}{carried}, {robot.hp} HP"
            f" ({robot.damage} damage), {left}.")


def robot_story(board: Board, result: TurnResult, name: str, turn: int,
                label: Callable[[str], str] = str) -> list[str]:
    """Two or three lines about robot ``name``'s turn ``turn``: what happened to it, where it stands now
    and its lives, its flags and the next one. Empty when the robot was not in the turn."""
    after = next((r for r in result.robots if r.name == name), None)
    before = next((r for r in (result.frames[0] if result.frames else []) if r.name == name), None)
    if after is None:
        return []
    if after.out_of_game and (before is None or before.out_of_game):
        return [_now(after)]  # out before the turn: one line
    told = _tell(name, result, label)
    items = list(told.items)
    if before is not None and before.pos is not None and before.powered_down:
        items.insert(0, "powered down")
    health = [f"took {told.damage} damage"] if told.damage else []
    if told.repaired:
        health.insert(0 if told.repaired_first else len(health), f"repaired {told.repaired}")
    items += health
    if not items and before is not None:
        if before.pos is None:
            items.append("stayed off the board")
        elif before.pos == after.pos:
            items.append(f"stayed at {square_name(after.pos)}" if after.pos else "left the board")
        elif after.pos is not None:
            items.append(f"moved from {square_name(before.pos)} to {square_name(after.pos)}")
    first = f"{label(name)}, turn {turn}: " + "; ".join(items) + "." if items else f"{label(name)}, turn {turn}."
    lines = [first, _now(after)]
    flags = _flags(board, after)
    if flags:
        lines.append(flags)
    return lines


def stories(board: Board, result: TurnResult, turn: int, label: Callable[[str], str] = str) -> dict[str, list[str]]:
    """:func:`robot_story` of every robot of the turn, by name."""
    return {r.name: robot_story(board, result, r.name, turn, label) for r in result.robots}
