"""A robot's own story of a turn, in two to five lines, for the top of its player's mail: what happened and why.

"Spin, turn 1: moved 6 squares by its cards, 1 slid off a rising piston, 3 pulled by a magnet; touched flag 1 in
register 4." then "Took 4 damage: turret at r6c6 1, Hammer's laser 2, board laser at r4c7 1; register 5 fused."
then where it stands now, its lives, its flags with the next flag's square and distance. What moved it, what hit
it and how a destruction came are worded by the modules that make the events (``engine/shown.py``: ``mover``,
``told``, ``cause``), so a new element is told without an edit here. Made from the turn's events (the same ones
the stage tables read), the robots before the turn and after it, and the board; nothing is read from the tables'
words. The line saying who played a program the player did not send is the caller's (:func:`robot_story`'s
``filled``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..engine import Board, Card, Event, Robot, TurnResult, shown
from ..engine.events import WORDING
from ..engine.geometry import DIR_NAMES, Square, square_name
from .causes import Replay, hit_words, pushed, told


@dataclass(slots=True)
class _Told:
    items: list[str] = field(default_factory=list)
    #: what moved it: (words, squares), in the order first met
    moves: dict[str, int] = field(default_factory=dict)
    #: what hit it: (words, damage), in the order first met
    hits: dict[str, int] = field(default_factory=dict)
    #: (phase, words) -> squares: a fall the destruction tells with its mover is not counted twice
    phase_moves: dict[tuple[int | str, str], int] = field(default_factory=dict)
    locks: list[str] = field(default_factory=list)
    #: registers lost, by what the event's words say after the register's number (``fused by damage``)
    lost: dict[str, list[int]] = field(default_factory=dict)
    repairs: list[str] = field(default_factory=list)
    #: repaired before any damage (a powered-down robot's repair comes first)
    repaired_first: bool = False
    #: what its own thing (its ghost) did to other robots: its words (``your ghost at r6c7``) -> robot -> damage
    dealt: dict[str, dict[str, int]] = field(default_factory=dict)
    #: (its thing's words, robot) it destroyed
    finished: set[tuple[str, str]] = field(default_factory=set)

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


def _by(text: str) -> str:
    """What a cause's story says, without the ``by ...`` it may end with (``shot down by a turret``)."""
    return text.split(" by ", 1)[0]


def _destruction(ev: Event, last: Event | None, fatal: str | None, phase: int | str, at: Square | None,
                 played: Mapping[str, Sequence[Card | None]], label: Callable[[str], str],
                 came_from: Square | None = None, board: Board | None = None) -> str:
    """How the robot was destroyed: ``pushed by Twonky (FWD3 790) into the pit at r3c5 in register 3``, ``shot down
    by Spin's laser at r4c4 in register 2``; ``fatal``: what dealt the last hit, when a hit did it."""
    cause = str((ev.data or {}).get("cause") or "")
    where = f" at {square_name(at)}" if at is not None else ""
    when = f" in register {phase}" if isinstance(phase, int) else ""
    declared = shown.CAUSES.get(cause)
    into = declared.into if declared is not None else ""
    if not into:  # not a fall: what did it, as the cause's module declares it
        what = declared.destroyed if declared is not None else f"destroyed ({cause})" if cause else "destroyed"
        if fatal:  # "destroyed at r6c10 by Zoom's ghost at r6c7 in register 1"
            return f"{_by(what)}{where} by {fatal}{when}"
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
    if last is not None and last.kind not in ("move", "face"):
        done = told(last, board, came_from)
        if done is not None and done.moves:
            return f"{_by(done.story.format(by=label(str((last.data or {}).get('by') or ''))))} {into}{where}{when}"
    return f"fell {into}{where}{when}"


def _register_words(kind: str) -> str:
    """What an event of ``kind`` says after the register it names (``fused`` of ``register {register} fused``); ""
    when its words are not ``register {register} <words>`` with nothing else to fill in."""
    template = WORDING.get(kind, "")
    head = "register {register} "
    rest = template[len(head):]
    return rest if template.startswith(head) and "{" not in rest else ""


def _distance(a: Square | None, b: Square | None) -> int:
    if a is None or b is None:
        return 0
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _moved(told_: _Told, ev: Event, board: Board, at: Square | None, after: Square | None, robots: set[str],
           played: Mapping[str, Sequence[Card | None]], label: Callable[[str], str]) -> str | None:
    """Count the squares of a move event under what moved the robot (its cards, a push by whom, a belt...); gives
    back the words it was counted under."""
    squares = _distance(at, after)
    if not squares:
        return None
    by = (ev.data or {}).get("by")
    done = told(ev, board, at)
    if ev.kind == "pushed" and isinstance(by, str) and by in robots and isinstance(ev.phase, int) and (
            done is None or not done.specific):  # a robot's push by its card (not its weapon's)
        who = _pusher(ev, ev.phase, played, label)
        words = f"pushed by {who}" if who else "pushed"
    else:
        if done is None or not done.moves:
            return None
        words = done.story.format(by=label(by) if isinstance(by, str) else "")
    told_.moves[words] = told_.moves.get(words, 0) + squares
    told_.phase_moves[(ev.phase, words)] = told_.phase_moves.get((ev.phase, words), 0) + squares
    return words


def _dealt(told_: _Told, ev: Event, name: str, last_hit: dict[str, tuple[str, str]], robots: set[str],
           label: Callable[[str], str]) -> None:
    """What robot ``name``'s own thing (its ghost, declared by ``shown.actor``) did to another robot in ``ev``: a
    hit, named by where it stood (``your ghost at r6c7``), and the destruction that hit dealt."""
    victim, data = ev.robot, ev.data or {}
    if victim is None or victim == name:
        return
    if ev.kind == "damage":
        by, cause = data.get("by"), str(data.get("cause") or "")
        actor = next((a for a in shown.actors() if isinstance(by, str) and a.dealt_by(name, by)), None)
        if actor is None or not isinstance(by, str):
            last_hit.pop(victim, None)
            return
        words = actor.yours + hit_words(cause, by, robots, label)[len(actor.words.format(owner=name)):]
        hits = told_.dealt.setdefault(words, {})
        hits[label(victim)] = hits.get(label(victim), 0) + int((ev.args or {}).get("amount") or 0)
        last_hit[victim] = (words, cause)
    elif ev.kind == "destroyed" and victim in last_hit:
        words, cause = last_hit.pop(victim)
        if data.get("cause") == cause:
            told_.finished.add((words, label(victim)))


def _tell(name: str, result: TurnResult, board: Board, label: Callable[[str], str]) -> _Told:
    """What happened to robot ``name``, event by event, in the words of the story."""
    out = _Told()
    replay = Replay.start(result.frames[0] if result.frames else [])
    robots = set(replay.pos)
    last: dict[int | str, tuple[Event, Square | None]] = {}  # the robot's last event of a phase, where it stood before
    fatal: tuple[str, str] | None = None  # (cause, what dealt it) of the last hit, while it may be what destroys
    mover: str | None = None  # what moved it last, while the move goes on
    own_hits: dict[str, tuple[str, str]] = {}  # robot -> (its thing's words, cause) of the last hit its thing dealt
    for ev in result.events:
        if ev.robot != name or ev.kind in shown.ACTORS:  # another robot's, or its ghost's (older turns)
            _dealt(out, ev, name, own_hits, robots, label)
            replay.see(ev)
            continue
        kind, args, phase, data = ev.kind, ev.args or {}, ev.phase, ev.data or {}
        say = shown.SAID.get(kind)
        at = replay.pos.get(name)
        replay.see(ev)
        if kind == "destroyed":
            before, came_from = last.get(phase, (None, None))
            hit = fatal[1] if fatal is not None and fatal[0] == data.get("cause") else None
            told_it = _destruction(ev, before, hit, phase, at, result.played, label, came_from, board)
            out.add(told_it)
            declared = shown.CAUSES.get(str(data.get("cause") or ""))
            if mover is not None and declared is not None and declared.into:  # a fall tells the move that led into it
                squares = out.phase_moves.pop((phase, mover), 0)
                out.moves[mover] -= squares
                if out.moves[mover] <= 0:
                    del out.moves[mover]
        elif kind == "damage":
            amount = int(args.get("amount") or 0)
            by = data.get("by")
            cause = str(data.get("cause") or "")
            words = hit_words(cause, by if isinstance(by, str) else None, robots, label)
            out.hits[words] = out.hits.get(words, 0) + amount
            fatal = (cause, words) if isinstance(by, str) and by and by != cause else None  # a hit by someone
            continue
        elif kind == "repair":
            out.repaired_first = out.repaired_first or not out.hits
            done = told(ev, board, at)
            out.repairs.append(f"repaired {args.get('amount')}" + (f" {done.story}" if done is not None else ""))
        elif say is not None and say.with_hits:  # a register lost, by whom or what
            by = data.get("by")
            done = told(ev, board, at)
            rest = _register_words(kind)
            if rest and isinstance(args.get("register"), int) and not (isinstance(by, str) and by in robots):
                out.lost.setdefault(rest + (f" {done.story}" if done is not None else ""), []).append(
                    int(args["register"]))  # told together: "registers 2-5 fused by damage"
            elif isinstance(by, str) and by in robots:
                out.locks.append(f"{ev.text} by {label(by)}" + (f"'s {data['option']}" if data.get("option") else ""))
            else:
                out.locks.append(ev.text + (f" {done.story}" if done is not None else ""))
        elif (words := shown.saying(kind, {k: v for k, v in {**data, **args}.items() if v is not None}, phase)):
            out.add(words)
        elif (status := shown.given(kind)) is not None and status.words:
            out.add(status.words + (f" in register {phase}" if isinstance(phase, int) else ""))
        else:
            mover = _moved(out, ev, board, at, replay.pos.get(name), robots, result.played, label) or mover
        if kind != "destroyed" and kind not in shown.TOLD:
            mover = None
        if not (say is not None and say.with_hits):
            fatal = None
        last[phase] = (ev, at)
    return out


def _moves(moves: dict[str, int]) -> str:
    """``moved 4 squares: 3 by its cards, 1 pushed by Twonky (FWD2 680)``; ``moved 2 squares by its cards``."""
    total = sum(moves.values())
    head = f"moved {total} square{'s' if total != 1 else ''}"
    if len(moves) == 1:
        words = next(iter(moves))
        return f"{head} {words}" if words.startswith("by ") else f"{head}: {words}"
    return f"{head}: " + ", ".join(f"{n} {words}" for words, n in moves.items())


def _health(told_: _Told) -> str:
    """``Took 4 damage: turret at r6c6 1, Spin's laser 2; register 5 fused.`` (one source: ``took 1 damage from
    Spin's laser``), repairs before or after."""
    parts: list[str] = []
    damage = sum(told_.hits.values())
    if damage:
        if len(told_.hits) == 1:
            parts.append(f"took {damage} damage from {next(iter(told_.hits))}")
        else:
            parts.append(f"took {damage} damage: " + ", ".join(f"{who} {n}" for who, n in told_.hits.items()))
    if told_.repairs:
        parts.insert(0 if told_.repaired_first else len(parts), ", ".join(told_.repairs))
    for words, lost in told_.lost.items():
        regs = sorted(set(lost))
        names = f"register {regs[0]}" if len(regs) == 1 else (
            f"registers {regs[0]}-{regs[-1]}" if regs == list(range(regs[0], regs[-1] + 1))
            else "registers " + ", ".join(map(str, regs)))
        parts.append(f"{names} {words}")
    parts += told_.locks
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


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
                label: Callable[[str], str] = str, filled: str = "") -> list[str]:
    """Two to five lines about robot ``name``'s turn ``turn``: what moved it and what it did, what hit it, what its
    ghost hit, who
    played for it (``filled``: "the autopilot played for you: you sent no program"), where it stands now with its
    lives, its flags and the next one. Empty when the robot was not in the turn."""
    after = next((r for r in result.robots if r.name == name), None)
    before = next((r for r in (result.frames[0] if result.frames else []) if r.name == name), None)
    if after is None:
        return []
    if after.out_of_game and (before is None or before.out_of_game):
        return [_now(after)]  # out before the turn: one line
    told_ = _tell(name, result, board, label)
    items = list(told_.items)
    if told_.moves:
        items.insert(0, _moves(told_.moves))
    if not told_.moves and before is not None:
        if before.pos is None:
            if not items:
                items.append("stayed off the board")
        elif before.pos == after.pos and not items:
            items.insert(0, f"stayed at {square_name(before.pos)}")
        elif after.pos is not None and not items:
            items.append(f"moved from {square_name(before.pos)} to {square_name(after.pos)}")
    if before is not None and before.pos is not None and before.powered_down:
        items.insert(0, "powered down")
    first = f"{label(name)}, turn {turn}: " + "; ".join(items) + "." if items else f"{label(name)}, turn {turn}."
    lines = [first]
    health = _health(told_)
    if health:
        lines.append(health)
    for words, hits in told_.dealt.items():  # "Your ghost at r6c7 hit Twonky for 1 and destroyed it."
        done = [f"{who} for {n}" + (" and destroyed it" if (words, who) in told_.finished else "")
                for who, n in hits.items()]
        lines.append(f"{words[0].upper()}{words[1:]} hit " + ", ".join(done) + ".")
    if filled:
        lines.append(filled[0].upper() + filled[1:] + ("" if filled.endswith(".") else "."))
    now = _now(after)
    flags = _flags(board, after)
    lines.append(f"{now} {flags}" if flags and not after.out_of_game else now)
    return lines


def stories(board: Board, result: TurnResult, turn: int, label: Callable[[str], str] = str,
            filled: Mapping[str, str] | None = None) -> dict[str, list[str]]:
    """:func:`robot_story` of every robot of the turn, by name; ``filled``: robot -> who played its program."""
    return {r.name: robot_story(board, result, r.name, turn, label, (filled or {}).get(r.name, ""))
            for r in result.robots}
