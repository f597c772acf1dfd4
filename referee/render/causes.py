"""What a stage table says about causes: by what a robot was stopped, by whom and with which card it was
pushed, where each robot stands.

The event log says ``obstruction encountered`` and ``pushed to r4c5 (by Twonky at 670)``; the reader wants
"blocked by the wall on the E side of r4c6" and "pushed to r4c5 by Twonky (FWD2 670)". The words are made
here from the log, the board and the robots at the start of the phase, replaying the squares the events
name, so every stored turn gets them too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field

from ..engine import Board, Card, Event, Robot, parse_card, shown
from ..engine.geometry import DIR_NAMES, Square, opposite, parse_square, square_name, step
from ..engine.resolve import label as step_label

#: event args that name the square a robot is on afterwards
_TO_KEYS = ("to", "at")
#: event kinds whose ``to``/``at`` is not where the robot stands (an archive marker, a re-entry square
#: that only counts at the end of the turn)
_NOT_A_MOVE = frozenset({"archive"})


@dataclass(slots=True)
class Replay:
    """The robots' squares and facings as the events of one phase unfold."""

    pos: dict[str, Square | None] = field(default_factory=dict)
    facing: dict[str, int] = field(default_factory=dict)
    virtual: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def start(cls, robots: Sequence[Robot]) -> Replay:
        return cls({r.name: r.pos for r in robots}, {r.name: r.facing for r in robots},
                   {r.name: r.virtual for r in robots})

    def see(self, ev: Event) -> None:
        """Move the robot of ``ev`` as the event says (call after reading what it says). What a robot's ghost
        does (logged under the robot before rules version 5) does not move the robot."""
        if ev.robot is None or ev.kind in shown.ACTORS:
            return
        args = ev.args or {}
        if ev.kind == "destroyed":
            self.pos[ev.robot] = None
        elif ev.kind == "face" and isinstance(args.get("dir"), str) and args["dir"] in DIR_NAMES:
            self.facing[ev.robot] = DIR_NAMES.index(args["dir"])
        elif ev.kind == "real":
            self.virtual[ev.robot] = False
        elif ev.kind not in _NOT_A_MOVE:
            for key in _TO_KEYS:
                value = args.get(key)
                if isinstance(value, str):
                    with suppress(ValueError):
                        self.pos[ev.robot] = parse_square(value)
                    break

    def real_robot_at(self, sq: Square, exclude: str) -> str | None:
        for name, at in self.pos.items():
            if name != exclude and at == sq and not self.virtual.get(name, False):
                return name
        return None


def obstruction(board: Board | None, ev: Event, replay: Replay, label: Callable[[str], str]) -> str:
    """What stopped the robot of a ``blocked`` event: a wall side, the edge or fence, or a robot that could
    not be pushed; the log's own words when the card or the square is not known."""
    card_text = (ev.data or {}).get("card")
    name = ev.robot or ""
    pos = replay.pos.get(name)
    if board is None or not card_text or pos is None:
        return ev.text
    try:
        card: Card = parse_card(card_text)
    except ValueError:
        return ev.text
    if card.type.move == 0:
        return ev.text
    facing = replay.facing.get(name, 0)
    d = facing if card.type.move > 0 else opposite(facing)
    side = DIR_NAMES[d]
    if (pos[0], pos[1], d) in board.blocked:
        return f"blocked by the wall on the {side} side of {square_name(pos)}"
    target = step(pos, d)
    if not board.on_board(target):
        return f"blocked by the fence ({side} of {square_name(pos)})"
    other = replay.real_robot_at(target, exclude=name)
    if other is not None:
        return f"blocked by {label(other)} at {square_name(target)}, who could not be pushed"
    return f"obstruction {side} of {square_name(pos)}"


def _card_of(played: Mapping[str, Sequence[Card | None]], robot: str, phase: int) -> Card | None:
    cards = played.get(robot) or []
    return cards[phase - 1] if len(cards) >= phase else None


def pushed(ev: Event, phase: int, played: Mapping[str, Sequence[Card | None]], label: Callable[[str], str]) -> str:
    """A push, by whom and with which card (a robot), or by which element. In a chain (Zoom pushes Hammer
    into Twonky) the robot that touched it pushed, moved by the card of the robot that started it."""
    data = ev.data or {}
    by = str(data.get("by") or "")
    priority = data.get("priority")
    if not by:
        return ev.text
    if by not in played:
        return f"{ev.text} ({by})"
    card = _card_of(played, by, phase)
    if card is not None and (priority is None or card.priority == priority):
        return f"{ev.text} by {label(by)} ({card})"
    origin = next((name for name in played if (c := _card_of(played, name, phase)) is not None
                   and c.priority == priority), None)
    if origin is not None:
        return f"{ev.text} by {label(by)}, pushed by {label(origin)} ({_card_of(played, origin, phase)})"
    return f"{ev.text} by {label(by)}" + (f" at {priority}" if priority is not None else "")


def position(robot: Robot | None) -> str:
    """Where a robot stands and which way it faces: ``r4c5 facing E``; ``-`` off the board."""
    if robot is None or robot.pos is None:
        return "-"
    return f"{square_name(robot.pos)} facing {DIR_NAMES[robot.facing]}"


_AT_SQUARE = re.compile(r" (r\d+c\d+)$")


def hit_words(cause: str, by: str | None, robots: Collection[str], label: Callable[[str], str]) -> str:
    """What dealt a hit, as its cause's module declares it: a robot's (``Spin's laser``), an element's named by
    the hit (``board laser at r4c7``, ``turret at r6c6``, ``Zoom's ghost at r13c2``), else the cause's name."""
    declared = shown.CAUSES.get(cause)
    if by and by in robots:
        template = declared.hit if declared is not None and declared.hit else "{by}'s " + (
            declared.table if declared is not None else cause)
        return template.format(by=label(by))
    if by and by != cause:
        return _AT_SQUARE.sub(r" at \1", by)
    return declared.table if declared is not None else cause


def kinds_at(board: Board | None, sq: Square | None) -> frozenset[str]:
    """The element kinds on a square (what a robot standing there stood on)."""
    if board is None or sq is None:
        return frozenset()
    return frozenset(name for name, layer in board.layers.items() if sq in layer)


def told(ev: Event, board: Board | None, at: Square | None) -> shown.Told | None:
    """What did ``ev`` to its robot (what moved it, where a repair came from), as the modules declare it; ``at``:
    where the robot stood before it."""
    by = (ev.data or {}).get("by")
    return shown.told_by(ev.kind, ev.step, kinds_at(board, at), by if isinstance(by, str) else "", step_label)


_PLACEHOLDER = re.compile(r" ?\{[^}]*\}")


def site(done: shown.Told, board: Board | None, at: Square | None) -> str:
    """What did it, as a table names it: the declaration's ``what`` filled in with the square the robot stood on
    (``{at}``: ``repair site r4c4``) and the fields of the element it stood on there (``flag {number}``: ``flag
    2``); what cannot be filled in is left out (``repair site``)."""
    fields: dict[str, object] = {}
    if board is not None and at is not None and done.on and (element := board.one(done.on, at)) is not None:
        fields.update(element.fields)
    if at is not None:
        fields["at"] = square_name(at)
    try:
        return done.what.format(**fields)
    except (KeyError, IndexError, ValueError):
        return _PLACEHOLDER.sub("", done.what)


def actor_words(ev: Event, label: Callable[[str], str]) -> str | None:
    """A robot's thing that acted in ``ev`` (``Zoom's ghost``), as its module declares it; None: no such event."""
    found = shown.owner(ev.kind, ev.robot, ev.data)
    if found is None:
        return None
    owner, actor = found
    return actor.words.format(owner=label(owner))
