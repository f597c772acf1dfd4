"""PREVIEW and HINT, use cases of a player's mail (:mod:`.requests`): what the autopilot's engine run
says of a player's own program or hand.

PREVIEW (in an orders mail, or alone) answers with where the program on file takes the player's
robot, register by register and at the end of the turn, with a text picture of the path, and a PNG of
the board with the robot's path drawn as the turn pictures draw it (:func:`preview_picture`). HINT
answers with the three best programs of the hand (one per opening card type) and where each ends,
where the game allows it (``Game.hints``, the GM's ``HINTS ON``; off by default).

Both run the turn as the engine will, with one difference: every other robot stands still (nobody's
orders are looked at, so nothing about them can leak) and the turn is run with a seed derived from the
turn's seed (``preview:<seed>``), so random board elements may fall otherwise than in the real turn
and an answer never tells how the real turn's draws will fall (docs/rulings.md, issue 17).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from ..autopilot.course import FAR
from ..autopilot.preview import best_programs, path_picture, trace_program
from ..boards.coursemaps import cached_course_map
from ..engine import Card, Robot, resolve_turn
from ..engine.geometry import DIR_NAMES, square_name
from ..orders.replies import card_text
from ..store.models import Game, Player, Turn
from .engine_io import TurnStart, turn_start

if TYPE_CHECKING:
    from ..render.mail import Picture

HINTS = 3


def preview_seed(turn: Turn) -> str:
    return f"preview:{turn.seed}"


def _where(robot: Robot) -> str:
    if robot.pos is None:
        return "destroyed (off the board)"
    return f"{square_name(robot.pos)} facing {DIR_NAMES[robot.facing]}"


def _outcome(before: Robot, after: Robot, distance: int) -> str:
    bits = [_where(after)]
    if after.destroyed or after.lives < before.lives:
        bits.append("a life lost")
    if after.damage != before.damage:
        bits.append(f"damage {before.damage} -> {after.damage}")
    if after.flags != before.flags:
        bits.append(f"flags {before.flags} -> {after.flags}")
    if 0 < distance < FAR:
        bits.append(f"{distance} register(s) from flag {after.flags + 1} along the course")
    return ", ".join(bits)


def _setting(game: Game, turn: Turn) -> TurnStart:
    """The turn's starting state as the real turn takes it, board state included."""
    return turn_start(turn, game.course)


def preview_picture(game: Game, player: Player, turn: Turn, program: list[Card]) -> Picture:
    """The PREVIEW's picture: the board after the preview's run (the same run as the text's: the program
    alone, the preview's seed), the robot's path over the whole turn drawn as the turn pictures draw it.
    The renderer (Pillow) is imported here, not with the module: mail that asks for no preview never loads it."""
    from ..render import Picture, make_players, png_bytes
    from ..render.path import path_image, path_marks
    from ..render.turn import file_stem

    start = _setting(game, turn)
    board, robots = start.board, start.robots
    result = resolve_turn(board, robots, {player.robot: list(program)}, rules=start.rules, seed=preview_seed(turn),
                          undealt=start.undealt, board_state=start.board_state)
    colours = {p.robot: p.colour for p in game.players if p.colour}
    players = make_players([r.name for r in robots], colours=colours)
    marks = path_marks(robots, result.events, player.robot)
    image = path_image(board, result.robots, players, marks,
                       f"{game.code} turn {turn.number}: preview of {player.robot}")
    return Picture("preview", f"{file_stem(game.code, turn.number)}-preview-{player.robot}.png".replace(" ", "-"),
                   png_bytes(image))


def preview_answer(s: Session, game: Game, player: Player, turn: Turn | None, program: list[Card] | None,
                   vocabulary: str) -> tuple[str, Picture | None]:
    """The answer to PREVIEW: the program on file run with every other robot standing still, in words and
    (when there is a path to show) as a picture."""
    if turn is None:
        return f"PREVIEW: game {game.code} has no open turn, so there is nothing to preview.\n", None
    if program is None:
        return ("PREVIEW: there is no whole program on file for you yet. Send your five cards with the\n"
                "word PREVIEW on a line of its own, and the answer shows where they take your robot.\n"), None
    start = _setting(game, turn)
    board, robots = start.board, start.robots
    me = next((r for r in robots if r.name == player.robot), None)
    if me is None or me.pos is None:
        return f"PREVIEW: {player.robot} is not on the board this turn; there is no path to show.\n", None
    picture = preview_picture(game, player, turn, program)
    course = cached_course_map(board, rules=start.rules)
    trace = trace_program(board, robots, player.robot, program, seed=preview_seed(turn),
                          rules=start.rules, undealt=start.undealt, course=course, board_state=start.board_state)
    lines = [*textwrap.wrap(f"PREVIEW of {player.robot}'s program for turn {turn.number} of {game.code}: the "
                            "other robots stand still (their orders are not looked at) and random elements may "
                            "fall otherwise, so the real turn can differ.", 78),
             "", f"  start: {_where(trace.start)}"]
    for reg, (card, robot) in enumerate(zip(program, trace.registers, strict=False), start=1):
        lines.append(f"  {reg}: {card_text(card, vocabulary):<12} -> {_where(robot)}")
    lines.append(f"  end of turn: {_outcome(trace.start, trace.end, trace.score.distance)}")
    lines += ["", "Where the robot stands after each register (@: where it starts):", "",
              path_picture(board, trace, robots), "",
              *textwrap.wrap(f"The attached picture {picture.filename} draws the path: solid where the "
                             "robot's own cards move it, dashed where something else does, a ring where it "
                             "sets off.", 78), ""]
    return "\n".join(lines), picture


def hint_text(s: Session, game: Game, player: Player, turn: Turn | None, hand: list[Card],
              locked: dict[int, Card], vocabulary: str) -> str:
    """The answer to HINT: the autopilot's best programs for the hand (if the game allows hints)."""
    if not game.hints:
        return (f"HINT: game {game.code} does not give hints (its game master can allow them with\n"
                "HINTS ON). PREVIEW still shows where your own program takes your robot.\n")
    if turn is None:
        return f"HINT: game {game.code} has no open turn, so there is no hand to advise on.\n"
    start = _setting(game, turn)
    board, robots = start.board, start.robots
    me = next((r for r in robots if r.name == player.robot), None)
    if me is None or me.pos is None or me.powered_down or not hand:
        return f"HINT: {player.robot} plays no cards this turn; there is nothing to advise.\n"
    course = cached_course_map(board, rules=start.rules)
    plans = best_programs(board, robots, player.robot, hand, locked=locked, seed=preview_seed(turn),
                          rules=start.rules, undealt=start.undealt, count=HINTS, course=course,
                          board_state=start.board_state)
    lines = [*textwrap.wrap(f"HINT for {player.robot}, turn {turn.number} of {game.code}: the autopilot's best "
                            "programs of your hand, one per first card, the other robots standing still. Nothing "
                            "is entered for you: send the program you choose as usual.", 78), ""]
    for i, plan in enumerate(plans, start=1):
        cards = ", ".join(card_text(c, vocabulary) if c is not None else "-" for c in plan.program)
        lines.append(f"  {i}. {cards}")
        lines.append(f"     ends {_outcome(me, plan.predicted, plan.score.distance)}")
    return "\n".join(lines) + "\n"

