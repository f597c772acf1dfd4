"""Taking a player's orders (steps 4 and 5 of :mod:`referee.intake.process`): who may send, whether
orders can be taken now (key, turn, deadline, game state), and putting them on file through the store,
by the order language's rules (:mod:`referee.orders.rules`). The answer is :mod:`.replying`'s."""

from __future__ import annotations

from ..engine import Robot
from ..games import open_turn, recompile_hand, robots_of, set_standing_orders, submit_program
from ..keys import same_key
from ..messages import players as words
from ..orders import OrderContext, OrderError, OrderResult, read_orders, render_echo
from ..orders.extract import BlockHeader, Extracted
from ..orders.reply_model import Replied
from ..orders.rules import OrderRuleError, filing
from ..store.errors import ProgramError, StoreError
from ..store.models import Game, Player, Turn
from . import forgery, loops, replying
from .job import Job
from .on_file import context, filed_state, on_file, options_on_file
from .routing import Who, known


class _Repeat(Exception):
    """Orders that repeat the last ones taken (see :mod:`.loops`)."""


def player_mail(job: Job, sender: str, who: Who, header: BlockHeader | None, *, quoted_form: bool = False,
                replied: Replied | None = None) -> str:
    """A mail about a known player's robot: check who may send, take its orders, answer it."""
    s, mail = job.s, job.mail
    player, game = who.player, who.game
    assert player is not None and game is not None
    from_record = sender == player.email
    key_given = header.key if header is not None else None
    key_ok = same_key(key_given, player.secret, ignore_case=True)
    has_key = key_ok or (who.token and key_given is None)
    if key_given is not None and not key_ok:
        forgery.wrong_key(job, sender, player, game)
    envelope = forgery.forged_by(job.settings, mail, sender) if from_record else None
    if envelope is not None and not has_key:
        return forgery.refuse(job, sender, envelope, player, game)
    if not from_record and not has_key:
        if not known(s, job.settings, sender):
            return job.ignore(f"from {sender}, not the address of {player.robot} in {game.code}, without its key")
        return replying.not_yours(job, sender, player, game)

    job.genuine = from_record and envelope is None
    turn = open_turn(s, game)
    robots = robots_of(turn) if turn is not None else []
    robot = next((r for r in robots if r.name == player.robot), None)
    ctx = context(turn, player, robot)
    if mail.rejected:
        return replying.unreadable(job, sender, player, game, turn)
    found, result = read_orders(mail.body, ctx, game=game.code, robot=player.robot,
                                turn=turn.number if turn else None, key=player.secret, quoted_form=quoted_form,
                                replied=replied)
    has_orders = result.program_given or not result.standing.is_empty() or bool(result.option_orders)
    problems: list[OrderError] = []
    if has_orders:
        problems = order_problems(job, who, header, has_key, game, player, turn, robot)
    if problems:
        result.errors = problems + result.errors
        result.registers = None
    if result.ok and has_orders and turn is not None and robot is not None:
        last = loops.last_taken(s, player.id, job.now)
        before = _filed(job, game, player, turn, ctx) if last else None
        try:
            with s.begin_nested():
                apply(job, sender, game, player, turn, robot, result, found)
                if result.recompile:
                    ctx = context(turn, player, robot)   # the second hand
                after = _filed(job, game, player, turn, ctx)
                if last == after == before:
                    raise _Repeat   # the same orders again, changing nothing: rolled back
            loops.remember(s, player.id, after, job.now, job.incoming)
        except _Repeat:
            return replying.repeated(job, sender, from_record, player, game, turn, robots, ctx, result)
        except ProgramError as exc:
            result.errors = [OrderError(None, "", p) for p in exc.problems]
            result.registers = None
    return replying.answer(job, sender, from_record, player, game, turn, robots, ctx, result, found, has_orders,
                           has_key)


def _filed(job: Job, game: Game, player: Player, turn: Turn, ctx: OrderContext) -> str:
    """A digest of what is on file for the robot, as its echo would show it."""
    program, standing = on_file(job.s, turn, player)
    return loops.digest(render_echo(game=game.code, robot=player.robot, turn=turn.number, registers=program,
                                    locked=ctx.locked, standing=standing, hand=ctx.hand, options=ctx.options,
                                    turn_options=options_on_file(job.s, turn, player)))


def order_problems(job: Job, who: Who, header: BlockHeader | None, has_key: bool, game: Game, player: Player,
                   turn: Turn | None, robot: Robot | None) -> list[OrderError]:
    """Why orders in this mail cannot be taken, whatever they say (key, turn, deadline, game state)."""
    out: list[OrderError] = []

    def add(message: str) -> None:
        out.append(OrderError(None, "", message))

    key_wrong = header is not None and header.key is not None and not has_key
    if not has_key and not key_wrong:  # a wrong key is reported by the BEGIN line check
        add(words.NO_KEY)
    if game.status not in ("running", "paused") or turn is None:
        add(words.game_closed(game.code, game.status))
        return out
    if player.status != "active":
        add(words.robot_gone(player.robot, player.status))
    elif robot is None:
        add(words.not_in_turn(player.robot, turn.number))
    if (header is None or header.turn is None) and who.turn is not None and who.turn != turn.number:
        add(words.stale_reply(who.turn, turn.number))
    received = min(job.incoming.received_at or job.now, job.now)
    if game.status == "running" and turn.deadline is not None and received > turn.deadline:
        add(words.late(received, turn.number, turn.deadline))
    return out


def apply(job: Job, sender: str, game: Game, player: Player, turn: Turn, robot: Robot, result: OrderResult,
          found: Extracted) -> None:
    """Take the orders of a valid mail: the program (with power down and re-entry facing) and the standing
    orders, as :func:`referee.orders.rules.filing` says. Raises :class:`ProgramError` (nothing taken)
    when those rules or the store refuse them."""
    s = job.s
    if result.recompile:
        try:
            recompile_hand(s, game, player.robot, actor=f"mail:{sender}", now=job.now)
        except StoreError as exc:
            raise ProgramError(f"RECOMPILE: {exc}") from None
    try:
        plan = filing(result, filed_state(s, turn, player, robot))
    except OrderRuleError as exc:
        raise ProgramError(str(exc)) from None
    if plan.submit:
        text = "\n".join(line for _, line in found.lines)[:20000]
        try:
            submit_program(s, game, player.robot, plan.cards, turn_number=turn.number, source="mail",
                           power_down=plan.power_down, reentry_facing=plan.facing,
                           extra=plan.extra, text=text, incoming_mail_id=job.incoming.id,
                           actor=f"mail:{sender}", now=job.now)
        except ProgramError:
            raise
        except StoreError as exc:
            raise ProgramError(str(exc)) from None
    if plan.standing:
        set_standing_orders(s, game, player.robot, plan.standing)
