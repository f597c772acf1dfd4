"""Every robot's program of the turn in one block, as judges publish all orders after a turn: a line per
robot with its five cards and their priorities (fused registers marked), then the power-down and option
orders that were used."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..engine import Card, Event, Robot, TurnResult
from ..engine.decisions import DECISION
from ..orders.choice_words import choice_items
from .report_types import Column, ProgramLine

#: a register that played no card (powered down, destroyed before it, out of the game)
NO_CARD = "-"
#: the mark of a fused register's card
FUSED = "*"
#: events that say a robot's own option card was used this turn (not what others' options did to it)
_OPTION_KINDS = frozenset({"option used", "steady", "absorbed", "card kept", "option used up", "sacrificed"})


def _cards(cards: Sequence[Card | None], fused: Mapping[int, Card]) -> list[str]:
    out = []
    for reg in range(1, 6):
        card = cards[reg - 1] if len(cards) >= reg else None
        out.append(NO_CARD if card is None else f"{card}{FUSED if reg in fused else ''}")
    return out


def _orders(robot: Robot | None, events: Sequence[Event]) -> list[str]:
    items: list[str] = []
    if robot is not None and robot.pos is not None and robot.powered_down:
        items.append("powered down this turn")
    for ev in events:
        if ev.kind == DECISION:
            items.extend(choice_items(ev))
        elif ev.kind == "powers down":
            items.append("powers down next turn")
        elif ev.kind in _OPTION_KINDS:
            items.append(ev.text)
    return list(dict.fromkeys(items))


def program_lines(columns: Sequence[Column], result: TurnResult) -> list[ProgramLine]:
    """A line per robot of the turn, in the report's column order."""
    start = {r.name: r for r in (result.frames[0] if result.frames else result.robots)}
    by_robot: dict[str, list[Event]] = {}
    for ev in result.events:
        if ev.robot is not None:
            by_robot.setdefault(ev.robot, []).append(ev)
    lines = []
    for col in columns:
        robot = start.get(col.robot)
        fused = dict(robot.locked) if robot is not None else {}
        cards = _cards(result.played.get(col.robot) or [], fused)
        lines.append(ProgramLine(col.robot, col.label, col.hex, cards, _orders(robot, by_robot.get(col.robot, []))))
    return lines


#: the width of a register's column in the text block (``FWD1 510*`` and a space)
_CELL = 10
_NAME = 12


def programs_text(lines: Sequence[ProgramLine], width: int = 78) -> str:
    """The block as fixed-width text: a line per robot (a long name on a line of its own), its orders under it."""
    out = [" " * _NAME + "".join(f"{f'reg {n}':<{_CELL}}" for n in range(1, 6)).rstrip()]
    for line in lines:
        cards = "".join(f"{c:<{_CELL}}" for c in line.cards).rstrip()
        if len(line.label) < _NAME:
            out.append(f"{line.label:<{_NAME}}{cards}")
        else:
            out += [line.label, " " * _NAME + cards]
        for order in line.orders:
            words = f"{' ' * _NAME}{order}"
            out.append(words if len(words) <= width else words[:width - 3] + "...")
    return "\n".join(out)
