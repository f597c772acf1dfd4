"""Taking a player's orders by mail: the use case the intake calls once per mail about a robot, after it
has read the mail (:func:`referee.orders.read_reply`) and decided who may send it.

:func:`take_orders` reads the orders with the robot's hand, locked registers and options from the open
turn, checks whether orders can be taken now (key, turn, deadline, game state), files them by the order
language's rules (:func:`referee.orders.rules.filing`: the program with power down and re-entry facing,
the option orders, the standing orders; RECOMPILE first), tells orders that repeat the last ones taken
and change nothing (rolled back), and answers the mail's requests (:mod:`.requests`). What it gives back
(:class:`Taken`) is all the intake's answer step needs to write the answer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from ..engine import Card, Robot
from ..messages import players as words
from ..orders import MailRead, OrderContext, OrderError, OrderResult, StandingOrders, render_echo
from ..orders.extract import BlockHeader, Extracted
from ..orders.rules import OrderRuleError, filing
from ..store.errors import ProgramError, StoreError
from ..store.models import Game, Player, Turn
from ..store.queries import open_turn
from ..store.records import robots_of
from .on_file import context, filed_state, on_file, options_on_file
from .players import set_standing_orders
from .requests import answer_requests
from .states import GAME, SEAT, may, seat_state
from .submitting import recompile_hand, submit_program

if TYPE_CHECKING:
    from ..render.mail import Picture


@dataclass
class OrdersMail:
    """A mail about a player's robot, as the intake hands it over: read, and its sender checked."""

    game: Game
    player: Player
    #: the mail's text, read once
    read: MailRead
    #: the orders are read from the order form filled in within the quoted turn mail
    quoted: bool
    #: the BEGIN line that named the robot, if any
    header: BlockHeader | None
    #: the player's key was given (on the BEGIN line, or a reply-address token)
    has_key: bool
    #: the turn the token or the mail replied to was about (None: not known)
    thread_turn: int | None
    #: why the mail could not be read (too big, no text); None: it was read
    rejected: str | None
    received: datetime
    now: datetime
    incoming_id: int
    actor: str
    #: the digest of the last orders taken for the robot within the repeat window (:func:`filed_digest`)
    last_taken: str | None = None
    #: False: a mail of requests alone over the answer limit is not answered, so its requests are not worked out
    answer_requests: bool = True


@dataclass
class Taken:
    """What came of a mail's orders and requests."""

    turn: Turn | None
    robots: list[Robot]
    #: the hand, locked registers and options the orders were read with (the second hand after RECOMPILE)
    ctx: OrderContext
    #: the mail could not be read: nothing else was done
    unreadable: bool = False
    found: Extracted = field(default_factory=Extracted)
    result: OrderResult = field(default_factory=OrderResult)
    #: the mail gives orders (a program, standing orders, option orders), taken or not
    has_orders: bool = False
    #: the orders repeat the last ones taken and change nothing: not taken again
    repeated: bool = False
    #: the digest of what is on file after orders were taken (None: none were)
    filed: str | None = None
    #: not answered (requests alone, over the answer limit): the requests were not worked out
    silent: bool = False
    #: what is on file for the robot now: its program (None: no whole one), standing orders, option orders
    program: list[Card] | None = None
    standing: StandingOrders = field(default_factory=StandingOrders)
    turn_options: dict[str, object] = field(default_factory=dict)
    #: the card spelling the mail used, to answer in kind
    vocabulary: str = ""
    #: the answers to the mail's requests (HELP, STATUS, CARDS, PREVIEW, HINT), in order, and their pictures
    requests: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    #: the seat's state (:data:`referee.games.states.SEAT`); its key is written into an answer only when it allows
    seat: str = "playing"

    @property
    def key_shown(self) -> bool:
        return may(SEAT, self.seat, "key")


class _Repeat(Exception):
    """Orders that repeat the last ones taken."""


def take_orders(s: Session, mail: OrdersMail) -> Taken:
    """Read a mail's orders for the player's robot, take them if they can be, answer its requests."""
    game, player = mail.game, mail.player
    turn = open_turn(s, game)
    robots = robots_of(turn) if turn is not None else []
    robot = next((r for r in robots if r.name == player.robot), None)
    ctx = context(turn, player, robot)
    seat = seat_state(s, player, now=mail.now)
    if mail.rejected:
        return Taken(turn, robots, ctx, unreadable=True, seat=seat)
    found, result = mail.read.orders(ctx, quoted=mail.quoted, game=game.code, robot=player.robot,
                                     turn=turn.number if turn else None, key=player.secret)
    has_orders = result.program_given or not result.standing.is_empty() or bool(result.option_orders)
    problems = order_problems(mail, turn, robot, seat) if has_orders else []
    if problems:
        result.errors = problems + result.errors
        result.registers = None
    taken = Taken(turn, robots, ctx, found=found, result=result, has_orders=has_orders,
                  vocabulary=mail.read.vocabulary, seat=seat)
    if result.ok and has_orders and turn is not None and robot is not None:
        last = mail.last_taken
        before = filed_digest(s, game, player, turn, ctx) if last else None
        try:
            with s.begin_nested():
                _file(s, mail, turn, robot, result, found)
                if result.recompile:
                    taken.ctx = ctx = context(turn, player, robot)   # the second hand
                after = filed_digest(s, game, player, turn, ctx)
                if last == after == before:
                    raise _Repeat   # the same orders again, changing nothing: rolled back
            taken.filed = after
        except _Repeat:
            taken.repeated = True
        except ProgramError as exc:
            result.errors = [OrderError(None, "", p) for p in exc.problems]
            result.registers = None
    if result.ok and not has_orders and not mail.answer_requests:
        taken.silent = True
        return taken
    answers = answer_requests(s, result.commands, game, player, turn, robots, ctx, taken.vocabulary, mail.now)
    taken.requests, taken.pictures = answers.texts, answers.pictures
    if has_orders and result.ok and not taken.repeated:
        taken.program, taken.standing = on_file(s, turn, player)
        taken.turn_options = options_on_file(s, turn, player)
    return taken


def filed_digest(s: Session, game: Game, player: Player, turn: Turn, ctx: OrderContext) -> str:
    """A digest of what is on file for the robot, as its echo would show it (orders repeated are told by it)."""
    program, standing = on_file(s, turn, player)
    text = render_echo(game=game.code, robot=player.robot, turn=turn.number, registers=program, locked=ctx.locked,
                       standing=standing, hand=ctx.hand, options=ctx.options,
                       turn_options=options_on_file(s, turn, player))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def order_problems(mail: OrdersMail, turn: Turn | None, robot: Robot | None, seat: str = "playing"
                   ) -> list[OrderError]:
    """Why orders in this mail cannot be taken, whatever they say (key, turn, deadline, the game's and the
    seat's state: :mod:`.states`)."""
    game, player, header = mail.game, mail.player, mail.header
    out: list[OrderError] = []

    def add(message: str) -> None:
        out.append(OrderError(None, "", message))

    key_wrong = header is not None and header.key is not None and not mail.has_key
    if not mail.has_key and not key_wrong:  # a wrong key is reported by the BEGIN line check
        add(words.NO_KEY)
    if not may(GAME, game.status, "orders") or turn is None:
        add(words.game_closed(game.code, game.status))
        return out
    if not may(SEAT, seat, "orders"):
        add(words.robot_gone(player.robot, player.status) if seat in ("ejected", "eliminated")
            else f"{player.robot} is {seat}: no orders are taken")
    elif robot is None:
        add(words.not_in_turn(player.robot, turn.number))
    if (header is None or header.turn is None) and mail.thread_turn is not None and mail.thread_turn != turn.number:
        add(words.stale_reply(mail.thread_turn, turn.number))
    if game.status == "running" and turn.deadline is not None and mail.received > turn.deadline:
        add(words.late(mail.received, turn.number, turn.deadline))
    return out


def _file(s: Session, mail: OrdersMail, turn: Turn, robot: Robot, result: OrderResult, found: Extracted) -> None:
    """Take the orders of a valid mail: the program (with power down and re-entry facing) and the standing
    orders, as :func:`referee.orders.rules.filing` says. Raises :class:`ProgramError` (nothing taken)
    when those rules or the store refuse them."""
    game, player = mail.game, mail.player
    if result.recompile:
        try:
            recompile_hand(s, game, player.robot, actor=mail.actor, now=mail.now)
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
                           extra=plan.extra, text=text, incoming_mail_id=mail.incoming_id,
                           actor=mail.actor, now=mail.now)
        except ProgramError:
            raise
        except StoreError as exc:
            raise ProgramError(str(exc)) from None
    if plan.standing:
        set_standing_orders(s, game, player.robot, plan.standing)
