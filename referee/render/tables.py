"""The turn report, built from a resolved turn: pictures and tables in reading order, and a player's own
section (status, next hand, fused registers, order template).

A stage table has the eight lines of the turn report: players and colours, mode, card, outcome of the
card, board elements, robot lasers, HP, checkpoints (the last only when someone touched one), position.
The end of turn table has mode, archive, flags, options (when anyone has one), HP and robots left,
reboots, fused registers (when anyone has one) and position. The parts live by meaning:
:mod:`.report_types` (what a report is made of), :mod:`.stage_tables` (filling the tables from events),
:mod:`.textgrid` (fixed-width text) and :mod:`.templates` (the jinja2 templates that arrange the sections
and say the words around them); their public names are importable from here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..engine import Board, Card, Robot, TurnResult, shown
from ..engine.geometry import square_name
from .board_image import frame_keys
from .players import Player
from .programs import program_lines
from .report_types import Block, Column, PrivateSection, Row, Table, TurnReport
from .stage_tables import END_ROWS, STAGE_ROWS, describe, end_table, events_by_robot, stage_table
from .templates import (
    environment,
    private_html,
    private_text,
    render_template,
    report_html,
    report_text,
    template_dirs,
)
from .textgrid import WIDTH, text_table

__all__ = [
    "END_ROWS", "STAGE_ROWS", "WIDTH", "Block", "Column", "PrivateSection", "Row", "Table", "TurnReport",
    "build_private", "build_report", "columns_for", "describe", "end_table", "environment", "private_html",
    "private_text", "render_template", "report_html", "report_text", "stage_table", "template_dirs", "text_table",
]


def columns_for(players: Sequence[Player], robots: Sequence[Robot]) -> list[Column]:
    """A column per player in seat order, then any robot the players did not name."""
    cols = [Column(p.robot, p.label, p.colour, p.hex) for p in players]
    named = {p.robot for p in players}
    cols += [Column(r.name, r.name, "grey", "#7f7f7f") for r in robots if r.name not in named]
    return cols


def build_report(board: Board, result: TurnResult, players: Sequence[Player], game: str, turn: int) -> TurnReport:
    """The whole turn report: pictures and tables in reading order (each table under the board it starts from)."""
    columns = columns_for(players, result.frames[0] if result.frames else result.robots)
    keys = dict(frame_keys(result.phases_run, result.end_of_turn))
    frames = result.frames
    start_events, start_notes = events_by_robot(result.events, "start")
    fused_at_start = {r.name: dict(r.locked) for r in frames[0]}
    blocks: list[Block] = []
    for phase in range(1, result.phases_run + 1):
        key = "start" if phase == 1 else f"stage{phase - 1}"
        blocks.append(Block(image=key, caption=keys[key]))
        table = stage_table(phase, columns, frames[phase - 1], frames[phase], result.events, result.played,
                            fused_at_start, start_events if phase == 1 else None, board)
        if phase == 1:
            table.notes[:0] = start_notes
        blocks.append(Block(table=table))
    last = f"stage{result.phases_run}"
    if result.phases_run:
        blocks.append(Block(image=last, caption=keys[last]))
    if result.end_of_turn:
        blocks.append(Block(table=end_table(columns, frames[-2], frames[-1], result.events, board.flag_count,
                                          board)))
        blocks.append(Block(image="end", caption=keys["end"]))
    winner = None
    if result.winner:
        winner = next((c.label for c in columns if c.robot == result.winner), result.winner)
    return TurnReport(game=game, turn=turn, course=board.name, columns=columns, blocks=blocks, winner=winner,
                      programs=program_lines(columns, result))


def build_private(player: Player, turn: int, hand: Sequence[Card], locked: Mapping[int, Card], order_template: str,
                  robot: Robot | None = None, flag_total: int = 0, deadline: str | None = None) -> PrivateSection:
    """A player's own section: status, next hand (numbered as mailed), fused registers, and the order template."""
    status: list[str] = []
    if robot is not None:
        if robot.pos is None:
            status.append("out of the game" if robot.lives <= 0 else "destroyed")
        else:
            where = square_name(robot.pos)
            mode = shown.mode_words(robot.statuses, "virtual" if robot.virtual else "real")   # declared statuses
            status.append(f"{robot.hp} HP at {where} facing {'NESW'[robot.facing]}, {mode}")
        status.append(f"{max(0, robot.lives)} robot{'s' if robot.lives != 1 else ''} left")
        if flag_total:
            status.append(f"flags touched: {robot.flags} of {flag_total}")
        if robot.archive is not None:
            status.append(f"archive: {square_name(robot.archive)}")
        if robot.powered_down:
            status.append("powered down this turn: no program needed")
        if robot.options:
            status.append("options: " + ", ".join(robot.options))
    return PrivateSection(
        robot=player.robot, label=player.label, turn=turn, hand=[str(c) for c in hand],
        locked=[(reg, str(card)) for reg, card in sorted(locked.items())],
        free=[reg for reg in range(1, 6) if reg not in locked], status=status,
        order_template=order_template, deadline=deadline)
