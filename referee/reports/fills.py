"""Programs the referee filled in for players who sent none: marked in the tables, told in the results mail.

A filled program is an active order of the turn with source ``auto``; the game's missing-orders
policy says how it was made. The stage tables mark the card ("FWD2 670 (autopilot)"), and the
results mail says who was late and what was played for them (no separate "late players" mail).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..render.tables import TurnReport
from ..store.models import Game, Player, Turn
from ..store.queries import active_orders

#: policy -> the mark on a filled card
MARKS = {"autopilot": "autopilot", "random": "random", "power_down": "powered down", "repeat_locked": "repeated"}

#: policy -> what the late players' robots played
PLAYED = {"random": "they played a program drawn at random from their hand",
          "power_down": "they played only their fused registers, and a power down next turn",
          "repeat_locked": "they played last turn's cards where possible, the rest at random",
          "autopilot": "their robots were played by the autopilot (the best program of their hand by its search)"}

#: policy -> what the story of a late player's robot says (the top of their own mail)
TOLD = {"autopilot": "the autopilot played for you: you sent no program",
        "random": "a program drawn at random from your hand was played for you: you sent none",
        "power_down": "you sent no program: your robot played only its fused registers, and powers down next turn",
        "repeat_locked": "you sent no program: last turn's cards were played where possible, the rest at random"}


def filled_robots(s: Session, game: Game, turn: Turn) -> dict[str, str]:
    """robot -> the mark of its filled program, for every program of ``turn`` the referee filled in."""
    by_id: dict[int, Player] = {p.id: p for p in game.players}
    mark = MARKS.get(game.missing_orders, game.missing_orders)
    return {by_id[o.player_id].robot: mark for o in active_orders(s, turn).values()
            if o.source == "auto" and o.player_id in by_id}


def late_text(game: Game, turn: Turn, robots: list[str]) -> str | None:
    """The results mail's line about late players, or None when nobody was late."""
    if not robots:
        return None
    text = (f"Late players: no orders came from {', '.join(robots)} for turn {turn.number}; "
            f"{PLAYED.get(game.missing_orders, 'the referee filled in their programs')}.")
    down = [r for r in robots if r in (turn.power_down or [])]
    if down and game.missing_orders == "autopilot":  # the autopilot's own choice: a badly damaged robot
        text += f" The autopilot powers {', '.join(down)} down next turn, to repair."
    return text


def mark_fills(report: TurnReport, fills: dict[str, str]) -> None:
    """Mark each filled card in the stage tables' card row (a fused card keeps its own mark), and say so in the
    robot's line of the programs block."""
    if not fills:
        return
    for line in report.programs:
        if line.robot in fills:
            line.orders.insert(0, f"program filled in by the referee ({fills[line.robot]})")
    cols = [c.robot for c in report.columns]
    for table in report.tables:
        if not table.key.startswith("stage"):
            continue
        for row in table.rows:
            if row.key != "card":
                continue
            for robot, mark in fills.items():
                if robot not in cols:
                    continue
                cell = row.cells[cols.index(robot)]
                if cell and cell[0] != "-" and not cell[0].endswith("(fused)"):
                    cell[0] = f"{cell[0]} ({mark})"
