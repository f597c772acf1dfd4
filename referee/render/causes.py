"""What a stage table says about causes: by what a robot was stopped, by whom and with which card it was
pushed, where each robot stands.

The event log says ``obstruction encountered`` and ``pushed to r4c5 (by Twonky at 670)``; the reader wants
"blocked by the wall on the E side of r4c6" and "pushed to r4c5 by Twonky (FWD2 670)". The words are made
here from the log, the board and the robots at the start of the phase, replaying the squares the events
name, so every stored turn gets them too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field

from ..engine import Board, Card, Event, Robot, parse_card
from ..engine.geometry import DIR_NAMES, Square, opposite, parse_square, square_name, step

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
        """Move the robot of ``ev`` as the event says (call after reading what it says)."""
        if ev.robot is None:
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
