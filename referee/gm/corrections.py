"""The GM's corrections of a turn: a program entered for a player (``ORDERS``), a robot set right in the
open turn (``SET <robot> ...``), a turn reopened (``ROLLBACK``) or resolved again with corrected programs
(``RERUN``). Each is one transaction; the players are told what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from .. import games as g
from ..engine import Card
from ..engine.geometry import dir_name, square_name
from ..games.tokens import reply_to
from ..messages import bulletin as words
from ..orders import OrderContext, parse_orders
from ..reports.mails import enqueue_turn_mails, hand_of, locked_of
from ..store.models import Game
from . import dealt, robot_set
from .context import CommandFailed, GmContext, game_code, health, tell_players
from .language import Command


def program_of(s: Session, game: Game, robot: str, text: str, turn_number: int | None = None) -> list[Card]:
    """A program written as a player would, read against the robot's hand in that turn."""
    turn = g.get_turn(s, game, turn_number) if turn_number else g.open_turn(s, game)
    if turn is None:
        raise CommandFailed(f"{game.code} has no open turn")
    player = g.get_player(s, game, robot)
    context = OrderContext(hand=hand_of(turn, player.robot), locked=locked_of(turn, player.robot))
    result = parse_orders(text, context)
    if result.errors:
        raise CommandFailed("; ".join(str(e) for e in result.errors))
    if not result.program_given or result.registers is None:
        raise CommandFailed("no program in that line")
    return [r.card for r in result.registers]


def do_orders(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx))
        cards = program_of(s, game, command.args["robot"], command.args["program"])
        order = g.submit_program(s, game, command.args["robot"], cards, source="gm", actor=ctx.actor,
                                 text=command.text, now=ctx.now)
        player = order.player
        program = ", ".join(str(c) for c in cards)
        tell_players(ctx, s, game, command, "the game master entered your program",
                     words.program_entered(game.turn_number, program), words.STILL_OPEN,
                     about=f"program:{player.robot}", only=player.id)
        return f"{player.robot}: {program}"


def do_set_robot(ctx: GmContext, command: Command) -> str:
    changes = command.args["changes"]
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx))
        turn = g.open_turn(s, game)
        if turn is None:
            raise CommandFailed(f"{game.code} has no open turn")
        robots = g.robots_of(turn)
        target = g.get_player(s, game, command.args["robot"]).robot
        _check_squares(game, changes)
        fixed = []
        said = ""
        for r in robots:
            if r.name == target:
                ctx.news.origin.setdefault((game.code, target), r)
                r = _apply(r, changes)
                said = _describe(r)
            fixed.append(r)
        if "options" in changes and turn.option_deck is not None:   # one copy of each card: the deck follows
            try:
                turn.option_deck = robot_set.deck_after(list(turn.option_deck), robots, fixed)
            except robot_set.SetError as exc:
                raise CommandFailed(str(exc)) from None
        hands, sent = dict(turn.hands), {o.player.robot for o in g.active_orders(s, turn).values()}
        g.replace_open_state(s, game, fixed, actor=ctx.actor, reason=command.text, now=ctx.now)
        after = next(r for r in fixed if r.name == target)
        dealt.tell_correction(ctx, s, game, command, turn, ctx.news.origin[(game.code, target)], after)
        dealt.tell_hands(ctx, s, game, command, turn, hands, sent)
        before = next(r for r in robots if r.name == target)
        return f"{target}: {said}" + dealt.cards_given(before, after)


def _check_squares(game: Game, changes: dict[str, Any]) -> None:
    """``AT`` and ``ARCHIVE`` name squares of the game's course (or OFF), as a player's orders must."""
    board = g.load_course(game.course)
    if changes.get("flags", 0) > board.flag_count:
        raise CommandFailed(f"FLAGS is 0 to {board.flag_count}: {game.course} has {board.flag_count} flags")
    for field_name in ("at", "archive"):
        square = changes.get(field_name)
        if square is not None and not board.on_board(square):
            raise CommandFailed(f"{field_name.upper()} {square_name(square)} is off the board: {game.course} has "
                                f"rows 1-{board.height} and columns 1-{board.width}"
                                + (" (and holes where no board lies)" if board.void else "")
                                + (", so write e.g. r1c1 or OFF" if field_name == "at" else ""))


def _apply(robot: Any, changes: dict[str, Any]) -> Any:
    carried: dict[str, Any] = {k: changes[k] for k in ("options", "statuses", "option_data") if k in changes}
    if carried:
        try:
            robot = robot_set.apply(robot, carried)
        except robot_set.SetError as exc:
            raise CommandFailed(str(exc)) from None
        changes = {k: v for k, v in changes.items() if k not in carried}
    values = {"pos" if k == "at" else k: v for k, v in changes.items()}
    if "damage" in values:
        # fused registers follow the new damage; their cards are dealt again from the turn's seed
        values["locked"] = {}
    return replace(robot, **values)


def _describe(robot: Any) -> str:
    where = square_name(robot.pos) if robot.pos else "off the board"
    return (f"at {where} facing {dir_name(robot.facing)}, {health(robot.damage, robot.lives, robot.flags)}, "
            f"archive {square_name(robot.archive) if robot.archive else '-'}, {robot_set.describe(robot)}")


def _rerun_programs(s: Session, game: Game, number: int) -> dict[str, list[str]]:
    """The programs turn ``number`` was last resolved with where they differ from the orders on file: the
    corrections of a ``RERUN`` (empty if the turn is not resolved or was never re-run)."""
    turn = g.get_turn(s, game, number)
    if turn.status != "resolved" or not turn.programs:
        return {}
    on_file = {o.player.robot: list(o.program or []) for o in g.active_orders(s, turn).values()}
    return {robot: list(cards) for robot, cards in turn.programs.items()
            if cards and robot in on_file and list(cards) != on_file[robot]}


def do_rollback(ctx: GmContext, command: Command) -> str:
    number = command.args["turn"]
    with ctx.store.write() as s:
        kept = _rerun_programs(s, g.get_game(s, game_code(ctx)), number)
        turn = g.rollback_to(s, game_code(ctx), number, actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, game_code(ctx))
        for robot, cards in kept.items():  # a RERUN's corrections are the GM's orders for the reopened turn
            g.submit_program(s, game, robot, cards, turn_number=turn.number, source="gm", actor=ctx.actor,
                             text=f"kept from RERUN {number}: {', '.join(cards)}", now=ctx.now)
        tell_players(ctx, s, game, command, f"turn {turn.number} reopened",
                     f"turn {turn.number} was reopened by the game master; what came after it is withdrawn",
                     f"Orders you sent for turn {turn.number} still stand (and programs the game master corrected "
                     "stay corrected); you may send new ones.", about="turn")
        tail = (f"; the re-run's corrected programs are kept as orders for {', '.join(sorted(kept))}"
                if kept else "")
        return f"turn {turn.number} is open again{tail}"


def do_rerun(ctx: GmContext, command: Command) -> str:
    number = command.args["turn"]
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx))
        programs: dict[str, Sequence[Card | str | None]] = {
            robot: program_of(s, game, robot, text, number) for robot, text in command.args["programs"].items()}
        rerun = g.rerun_turn(s, game, number, programs=programs or None, actor=ctx.actor, now=ctx.now)
        if not rerun.changed:
            return f"turn {number} re-run: nothing changed"
        enqueue_turn_mails(s, ctx.settings, game, rerun.turn, now=ctx.now, correction=True,
                           reply_to=reply_to(ctx.settings, number + 1))
        redealt = " The next turn was dealt again: send your orders again." if rerun.redealt else ""
        tell_players(ctx, s, game, command, f"turn {number} corrected",
                     f"turn {number} was re-run by the game master; the corrected report follows", redealt.strip()
                     or None, about="turn")
        return f"turn {number} re-run; corrected results queued" + (" (next turn dealt again)" if rerun.redealt
                                                                     else "")
