"""From stored mail to orders and answers: the second step of the intake (``referee process``).

Mails are taken from the store (:func:`referee.store.mail.claim_incoming`), one transaction each:
what a mail leads to (orders, standing orders, its outcome, the answers in the outbox) is committed
together or not at all. A mail whose processing fails is recorded ``error`` with the reason and can
be processed again after a fix (``referee mail reprocess``): the raw mail is never lost.

For one mail (:func:`process_mail`):

1. **Robots and lists are never answered**: loops, bounces, list mail and auto-replies
   (:func:`referee.orders.loop_reason`) and mail from the referee's own address end ``ignored``. A bounce
   of the referee's own mail marks that mail failed and tells the GM (:mod:`.bounces`);
   poison (:mod:`.unreadable`) and mail with no readable sender and text end ``unreadable``; an
   answer of ours pasted back is read only above its marker (:mod:`.loops`). The sender is read by
   :mod:`.senders` (the address in angle brackets).
2. **GM commands**: a ``BEGIN GM`` block from a GM address goes to the registered GM handler
   (:func:`register_gm_handler`, or the ``gm_handler`` argument) inside the mail's transaction, so
   the commands, their answer and the outcome are committed together (a crash: none of them, and
   the mail is processed again); with none, it is ``rejected`` ("GM commands are not available")
   and the GM is told. From anyone else it is ``ignored``.
3. **Whose robot**: the BEGIN line (game and robot); else a reply-address token
   (:mod:`referee.intake.tokens`); else the turn mail or answer it replies to (In-Reply-To /
   References); else a game code in the subject with the sender's robot in it; else the sender's
   only robot in a running game.
4. **Who may send**: the player's address of record *and* the player's key (on the BEGIN line, or
   the token). A key holder writing from another address is obeyed and only the address of record
   is answered (no prose of the mail quoted). A mail from the address of record without the key
   whose envelope sender is of another domain is a forgery: refused, and she is told in a few words.
   A known player without the key gets the errors (no orders are taken), and
   so does a player writing about someone else's robot (without that robot's cards or key). Mail from
   anyone else is ``ignored``: unknown senders are never answered.
5. **Orders**: read with the robot's hand, locked registers and options from the open turn. Orders
   for another turn (BEGIN line, token, or the turn mail replied to) are stale, orders that came
   after the deadline are late; either way nothing is taken. A good program goes in with
   :func:`referee.games.submit_program` (the last one counts; a power down and a re-entry
   facing ride on it), standing orders are merged into the player's, and the answer echoes what is
   now on file with the time left. A mail with any error changes nothing and is answered with every
   error and a template to correct. HELP, STATUS and CARDS are answered in the same mail.
6. Answers are limited (:mod:`.limits`): any kind to ``answers_per_hour`` per address and sender,
   errors to ``error_replies_per_hour`` (forgeries counted apart), with one notice to the player and
   the GM when they stop; accepted and stale-orders answers to the player's own mail always go. The
   same orders again within minutes are taken and answered once (:mod:`.loops`).
"""

from __future__ import annotations

import logging
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..config import Settings
from ..deadlines import when_text
from ..engine import Card, Robot
from ..games import game_view, recompile_hand, set_standing_orders, submit_program
from ..keys import same_key
from ..orders import (
    MailText,
    OrderContext,
    OrderError,
    OrderResult,
    StandingOrders,
    extract,
    help_text,
    loop_reason,
    read_mail,
    read_orders,
    render_cards,
    render_echo,
    render_rejection,
    render_unreadable,
    vocabulary_of,
)
from ..orders import options as option_orders
from ..orders.extract import BlockHeader, Extracted
from ..orders.language import DIRECTION_NAMES
from ..orders.replies import format_time_left
from ..store.db import Store
from ..store.errors import NotFound, ProgramError, StoreError
from ..store.mail import claim_incoming, enqueue_mail, set_outcome
from ..store.models import Game, IncomingMail, OutgoingMail, Player, Turn
from ..store.queries import active_orders, get_game, get_player, open_turn, owes_program
from ..store.records import cards_of, hand_of, locked_of, robots_of
from ..store.types import utcnow
from ..store.within import StoreWithin
from . import answers, forgery, limits, loops, previews
from .bounces import handle_bounce
from .faults import fault_point
from .senders import sender_address
from .strangers import stranger
from .tokens import read_token, reply_address
from .unreadable import why_unreadable

if TYPE_CHECKING:
    from ..render.mail import Picture

log = logging.getLogger("referee.intake")

#: outgoing mail kinds that carry a player's cards for ``turn_number + 1`` (the turn report) ...
_NEXT_TURN_KINDS = {"turn_report"}
#: ... and those about ``turn_number`` itself (the start mail, our answers)
_SAME_TURN_KINDS = {"turn_start", "reminder", "announcement", answers.KIND_ECHO, answers.KIND_REJECTION,
                    answers.KIND_ANSWER, answers.KIND_COPY}
_GM_BLOCK = re.compile(r"^[ \t]*BEGIN[ \t]+GM\b", re.IGNORECASE | re.MULTILINE)
_SUBJECT_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,31}")
NO_GM = "GM commands are not available"


def safe(text: str) -> str:
    """Text from a mail made fit for any database column: no NULs (PostgreSQL refuses them), valid UTF-8."""
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")


# -- GM commands ------------------------------------------------------------------------------------------
@dataclass
class GmMail:
    """What a GM command handler is given. It runs inside the mail's transaction: ``store``'s
    transactions are savepoints of it (:class:`~referee.store.within.StoreWithin`), committed with
    the mail's outcome and answer, or not at all."""

    store: Store | StoreWithin
    settings: Settings
    #: the stored mail's id
    mail_id: int
    mail: MailText
    sender: str
    now: datetime


@dataclass
class GmOutcome:
    #: ``accepted``, ``rejected`` or ``ignored``: recorded as the mail's outcome
    outcome: str
    reason: str | None = None
    #: text mailed back to the sender (None: nothing)
    reply: str | None = None


GmHandler = Callable[[GmMail], GmOutcome]
_gm_handler: GmHandler | None = None


def register_gm_handler(handler: GmHandler | None) -> GmHandler | None:
    """Make ``handler`` obey GM command blocks from now on (None: none). Returns the one it replaces."""
    global _gm_handler
    previous, _gm_handler = _gm_handler, handler
    return previous


def referee_gm_handler(request: GmMail) -> GmOutcome:
    """The handler of :mod:`referee.gm` (which checks the GM's address and key itself)."""
    from ..gm import handle_gm_text

    answer = handle_gm_text(request.store, request.settings, request.mail.body, sender=request.sender,
                            now=request.now)
    return GmOutcome("accepted" if answer.accepted else "rejected", answer.reason or None, answer.reply)


# -- the pass over stored mail --------------------------------------------------------------------------
@dataclass
class ProcessReport:
    outcomes: dict[str, int] = field(default_factory=dict)
    #: store ids, in the order processed
    ids: list[int] = field(default_factory=list)

    @property
    def processed(self) -> int:
        return len(self.ids)

    def summary(self) -> str:
        counts = ", ".join(f"{n} {k}" for k, n in sorted(self.outcomes.items())) or "nothing to do"
        return f"{self.processed} mails processed: {counts}"


def process_pending(store: Store, settings: Settings, *, limit: int | None = None, now: datetime | None = None,
                    gm_handler: GmHandler | None = None) -> ProcessReport:
    """Process waiting (``new``) mails, oldest first, each in its own transaction, until none is left
    (or ``limit`` were done). Safe to run in several processes at once.

    GM command blocks go to ``gm_handler`` (default: the one registered with :func:`register_gm_handler`,
    if any) in their mail's transaction: carried out and answered once, whenever a crash comes."""
    handler = gm_handler or _gm_handler
    report = ProcessReport()
    while limit is None or report.processed < limit:
        request: GmMail | None = None
        with store.write() as s:
            claimed = claim_incoming(s, limit=1)
            if not claimed:
                break
            incoming = claimed[0]
            mail_id = incoming.id
            try:
                with s.begin_nested():
                    outcome, request = _process(s, settings, incoming, now=now, gm_handler=handler, store=store)
                    if request is not None and handler is not None:
                        outcome = _run_gm(s, settings, handler, request)
            except Exception as exc:  # a bug or a surprise: recorded, and the mail can be processed again
                log.exception("mail %s could not be processed", mail_id)
                incoming = s.get(IncomingMail, mail_id, populate_existing=True)  # type: ignore[assignment]
                set_outcome(s, incoming, "error", safe(f"{type(exc).__name__}: {exc}")[:2000], now=now)
                outcome = "error"
        report.ids.append(mail_id)
        report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
    return report


def _run_gm(s: Session, settings: Settings, handler: GmHandler, request: GmMail) -> str:
    """Run the GM handler in the mail's transaction ``s`` and record what came of it with its answer.
    A handler that raises rolls back whatever it did (the caller records the mail ``error``)."""
    result = handler(replace(request, store=StoreWithin(request.store, s)))
    fault_point("gm-carried-out")
    incoming = s.get(IncomingMail, request.mail_id)
    assert incoming is not None
    job = _Job(s, settings, incoming, request.mail, request.now)
    if result.reply:   # the answer to a GM block with the right key always goes, as accepted orders do
        job.send(answers.KIND_GM, request.sender, f"Your GM commands: {result.outcome}", result.reply,
                 exempt=result.outcome == "accepted")
    return job.finish(result.outcome, result.reason)


# -- one mail -------------------------------------------------------------------------------------------
@dataclass
class _Who:
    """Whose robot a mail is about, and how that was found."""

    player: Player | None = None
    game: Game | None = None
    #: ``begin``, ``token``, ``thread``, ``subject``, ``sender``
    via: str = ""
    #: the turn the token or the mail replied to was about
    turn: int | None = None
    #: a valid reply-address token for this player rode on the mail
    token: bool = False
    #: why no robot could be named (for the answer to a known sender)
    problem: str | None = None


@dataclass
class _Job:
    s: Session
    settings: Settings
    incoming: IncomingMail
    mail: MailText
    now: datetime

    def finish(self, outcome: str, reason: str | None, *, game: Game | None = None, player: Player | None = None,
               turn: int | None = None) -> str:
        set_outcome(self.s, self.incoming, outcome, safe(reason)[:2000] if reason else None, game=game,
                    player=player, turn_number=turn, now=self.now)
        return outcome

    def ignore(self, reason: str) -> str:
        return self.finish("ignored", reason)

    def send(self, kind: str, to: str, subject: str, body: str, *, game: Game | None = None,
             player: Player | None = None, turn: Turn | None = None, exempt: bool = False,
             pictures: Sequence[Picture] = ()) -> bool:
        """Queue an answer, within the answer limits (:mod:`.limits`; ``exempt``: an accepted or stale
        orders answer to the player's own keyed mail; ``pictures`` go with it). Returns whether it was queued."""
        if not limits.may_answer(self.s, self.settings, to, self.mail.sender, self.now, exempt=exempt):
            log.info("answer limit: no %s answer to %s for mail %s", kind, to, self.incoming.id)
            return False
        reply = reply_address(self.settings, game, player, turn.number if turn else None) \
            if game is not None and player is not None else None
        try:
            msg = answers.answer_mail(self.settings, self.incoming, self.mail, kind=kind, to=to, subject=subject,
                                      body=body, now=self.now, game=game, reply_to=reply,
                                      pictures=pictures)
        except (ValueError, TypeError, IndexError) as exc:  # an address no answer can be written to
            log.warning("no answer to %r for mail %s: %s", to, self.incoming.id, exc)
            return False
        enqueue_mail(self.s, msg, kind=kind, recipients=[to], sender=self.settings.referee_address, game=game,
                     player=player, turn_number=turn.number if turn else None, in_reply_to=self.incoming,
                     now=self.now)
        return True

    def may_answer_error(self, sender: str, *, game: Game | None = None, forged: bool = False) -> bool:
        """Whether an error answer may go to ``sender`` (``error_replies_per_hour``; forgeries counted
        apart). The first one held back in an hour is replaced by a notice to the sender and the GM."""
        if limits.may_answer_error(self.s, self.settings, sender, self.now, forged=forged):
            return True
        if limits.first_held_back(self.s, sender, self.now):
            what = "mails in your name that look forged" if forged else "mails with errors"
            self.send(answers.KIND_REJECTION, sender, answers.subject_for(game, None, None, "answers paused"),
                      f"You have had {self.settings.error_replies_per_hour} answers about {what} this hour.\n"
                      "Further ones this hour are not answered (your accepted orders always are).\n", exempt=True)
            gm = (game.gm_address if game is not None else None) or self.settings.gm_address
            if gm:
                self.send(answers.KIND_GM, gm, f"Answers paused for {safe(sender)[:200]}",
                          f"{safe(sender)[:200]} has had {self.settings.error_replies_per_hour} answers about {what}"
                          " this hour;\nfurther ones this hour are not answered (see: referee mail list).\n",
                          exempt=True)
        return False


def process_mail(s: Session, settings: Settings, incoming: IncomingMail, *, now: datetime | None = None) -> str:
    """Decide what ``incoming`` is, act on it and record its outcome (see the module docstring), in the
    caller's write transaction. Returns the outcome. GM command blocks are only recorded here (as
    rejected: no handler); :func:`process_pending` hands them to the GM handler."""
    return _process(s, settings, incoming, now=now, gm_handler=None, store=None)[0]


def _process(s: Session, settings: Settings, incoming: IncomingMail, *, now: datetime | None,
             gm_handler: GmHandler | None, store: Store | None) -> tuple[str, GmMail | None]:
    poison = why_unreadable(incoming.raw)
    mail = MailText(rejected=poison) if poison else read_mail(incoming.raw, max_bytes=settings.max_mail_bytes)
    job = _Job(s, settings, incoming, mail, now or utcnow())
    if mail.sender is None and mail.rejected:   # no parser could read it: kept raw, never answered
        return job.finish("unreadable", mail.rejected), None
    bounced = handle_bounce(s, settings, incoming.raw, job.now)  # a report on our own mail: the GM is told
    if bounced:
        return job.ignore(bounced), None
    why = loop_reason(mail, settings.referee_address)
    if why:
        return job.ignore(why), None
    sender = (mail.sender or "").strip().lower()
    if "@" not in sender or not sender.isprintable() or sender != safe(sender):
        return job.ignore("no usable sender address" + (f" ({safe(sender)[:80]!r})" if sender else "")), None
    if _is_referee(sender, settings):
        return job.ignore("sent from the referee's own address"), None
    if loops.our_own(s, mail.message_id):
        return job.ignore("a mail of the referee came back (its own Message-ID)"), None
    if mail.body and (above := loops.before_marker(mail.body)) is not None:   # an answer of ours came back
        _, said = read_orders(above)
        if not (said.program_given or said.commands or not said.standing.is_empty()):
            return job.ignore("an answer of the referee came back (its marker line), with nothing of the "
                              "sender's own above it"), None
        mail.body = above
    if mail.body and _GM_BLOCK.search(mail.body):
        return _gm(job, sender, gm_handler, store)
    found = extract(mail.body) if mail.body else Extracted()
    who = identify(s, settings, mail, found.header, sender)
    quoted = _quoted_form(s, settings, mail, found, sender)
    if quoted is not None:
        found, who = quoted
    if who.player is None:
        if not _known(s, settings, sender):
            return stranger(job, sender, who.problem), None
        return _unidentified(job, sender, who), None
    return _player_mail(job, sender, who, found.header, quoted_form=found.from_quote), None


def _quoted_form(s: Session, settings: Settings, mail: MailText, found: Extracted,
                 sender: str) -> tuple[Extracted, _Who] | None:
    """The order form the player filled in within the quoted turn mail (extract's rule 6), with whose it
    is, when the mail has no orders of its own and came to the player's reply address or the quoted
    BEGIN line carries the player's key; else None (the quote is not read)."""
    if found.header is not None or not found.quoted_block or not mail.body:
        return None
    _, own = read_orders("\n".join(line for _, line in found.lines))
    if own.program_given or not own.standing.is_empty():
        return None
    form = extract(mail.body, quoted_form=True)
    if not form.from_quote or form.header is None:
        return None
    who = identify(s, settings, mail, form.header, sender)
    if who.player is None:
        return None
    key_ok = form.header.key is not None and same_key(form.header.key, who.player.secret, ignore_case=True)
    return (form, who) if who.token or key_ok else None


def _is_referee(sender: str, settings: Settings) -> bool:
    local, _, domain = settings.referee_address.lower().rpartition("@")
    box, _, dom = sender.lower().rpartition("@")
    return box.partition("+")[0] == local and dom == domain


def _players_of(s: Session, address: str) -> list[Player]:
    return list(s.scalars(select(Player).where(Player.email == address.lower()).order_by(Player.id)))


def _gm_addresses(s: Session, settings: Settings) -> set[str]:
    found = {a.lower() for a in s.scalars(select(Game.gm_address).where(Game.gm_address.is_not(None))) if a}
    return found | ({sender_address(settings.gm_address) or settings.gm_address.lower()} if settings.gm_address
                    else set())


def _known(s: Session, settings: Settings, sender: str) -> bool:
    return bool(_players_of(s, sender)) or sender in _gm_addresses(s, settings)


def _find_game(s: Session, code: str) -> Game | None:
    try:
        return get_game(s, code)
    except NotFound:
        return None


def identify(s: Session, settings: Settings, mail: MailText, header: BlockHeader | None, sender: str) -> _Who:
    """Whose robot ``mail`` (from ``sender``) is about (see the module docstring, step 3)."""
    token = read_token(s, settings, mail.recipients, mail.subject)
    if header is not None and header.game is not None:
        game = _find_game(s, safe(header.game))
        if game is None:
            return _Who(problem=f"the BEGIN line names game {header.game}, and there is no such game")
        try:
            player = get_player(s, game, safe(header.robot or ""))
        except NotFound:
            return _Who(game=game, problem=f"the BEGIN line names robot {header.robot}, "
                                           f"and game {game.code} has no such robot")
        return _Who(player, game, "begin", token=token is not None and token.player.id == player.id)
    if token is not None:
        return _Who(token.player, token.player.game, "token", token.turn, token=True)
    thread = _thread(s, mail)
    if thread is not None:
        return thread
    words = {w.upper() for w in _SUBJECT_WORD.findall(mail.subject)[:60]}
    if words:
        in_subject = [p for p in _players_of(s, sender) if p.game.code.upper() in words]
        if len(in_subject) == 1:
            return _Who(in_subject[0], in_subject[0].game, "subject")
    playing = [p for p in _players_of(s, sender) if p.game.status in ("running", "paused") and p.status == "active"]
    if len(playing) == 1:
        return _Who(playing[0], playing[0].game, "sender")
    if len(playing) > 1:
        games = ", ".join(f"{p.robot} in {p.game.code}" for p in playing)
        return _Who(problem=f"you play {games}, and this mail does not say which game it is about")
    return _Who(problem="you have no robot in a running game")


def _thread(s: Session, mail: MailText) -> _Who | None:
    """The player and turn of the turn mail or answer this mail replies to."""
    ids = [i for i in ([mail.in_reply_to] if mail.in_reply_to else []) + list(reversed(mail.references))
           if i and len(i) <= 998 and i == safe(i)][:20]
    if not ids:
        return None
    rows = {m.message_id: m for m in s.scalars(select(OutgoingMail).where(OutgoingMail.message_id.in_(ids),
                                                                         OutgoingMail.player_id.is_not(None)))}
    for message_id in ids:
        row = rows.get(message_id)
        if row is None or row.player_id is None:
            continue
        player = s.get(Player, row.player_id)
        if player is None:
            continue
        turn = row.turn_number
        if turn is not None and row.kind in _NEXT_TURN_KINDS:
            turn += 1
        elif row.kind not in _SAME_TURN_KINDS:
            turn = None
        return _Who(player, player.game, "thread", turn)
    return None


# -- GM mail -------------------------------------------------------------------------------------------------
def _gm(job: _Job, sender: str, handler: GmHandler | None, store: Store | None) -> tuple[str, GmMail | None]:
    if sender not in _gm_addresses(job.s, job.settings):
        return job.ignore(f"a GM command block from {sender}, who is not a game master"), None
    if handler is None or store is None:
        job.send(answers.KIND_GM, sender, "Your GM commands: not available",
                 f"{NO_GM} in this installation of the referee: nothing in your mail was done.\n"
                 "Use the referee command line on the server meanwhile (referee gm --help).\n")
        return job.finish("rejected", NO_GM), None
    outcome = job.finish("accepted", "GM commands handed to the GM handler")
    return outcome, GmMail(store, job.settings, job.incoming.id, job.mail, sender, job.now)


# -- a known sender whose robot cannot be named ------------------------------------------------------------
def _unidentified(job: _Job, sender: str, who: _Who) -> str:
    reason = who.problem or "no robot could be named"
    if not job.may_answer_error(sender):
        return job.finish("rejected", f"{reason} (not answered: too many error answers to {sender} this hour)")
    lines = [*textwrap.wrap(f"Your mail could not be used: {reason}.", 78), ""]
    robots = [p for p in _players_of(job.s, sender) if p.game.status in ("running", "paused", "forming")]
    if robots:
        lines.append("Your robots:")
        lines += [f"  {p.robot} in game {p.game.code} ({p.game.status})" for p in robots]
        lines.append("")
    lines += ["Reply to the turn mail of the game you mean, or put your orders between the BEGIN and END",
              "lines the turn mail shows:", "", "  BEGIN <game> <robot> turn <n> key <your key>", "  ...", "  END", ""]
    _, result = read_orders(job.mail.body) if job.mail.body else (None, OrderResult())
    if "help" in result.commands:
        lines += ["", help_text()]
    job.send(answers.KIND_REJECTION, sender, answers.subject_for(who.game, None, None, "not understood"),
             "\n".join(lines))
    return job.finish("rejected", reason, game=who.game)


# -- a player's mail ------------------------------------------------------------------------------------------
def _player_mail(job: _Job, sender: str, who: _Who, header: BlockHeader | None, *, quoted_form: bool = False) -> str:
    s, mail = job.s, job.mail
    player, game = who.player, who.game
    assert player is not None and game is not None
    from_record = sender == player.email
    key_given = header.key if header is not None else None
    key_ok = same_key(key_given, player.secret, ignore_case=True)
    has_key = key_ok or (who.token and key_given is None)
    if key_given is not None and not key_ok:
        forgery.wrong_key(job, sender, player, game)
    envelope = limits.looks_forged(sender, mail.loop_headers.get("return-path", ())) if from_record else None
    if envelope is not None and not has_key:
        return forgery.refuse(job, sender, envelope, player, game)
    if not from_record and not has_key:
        if not _known(s, job.settings, sender):
            return job.ignore(f"from {sender}, not the address of {player.robot} in {game.code}, without its key")
        return _not_yours(job, sender, player, game)

    turn = open_turn(s, game)
    robots = robots_of(turn) if turn is not None else []
    robot = next((r for r in robots if r.name == player.robot), None)
    ctx = _context(turn, player, robot)
    if mail.rejected:
        return _answer_unreadable(job, sender, player, game, turn)
    found, result = read_orders(mail.body, ctx, game=game.code, robot=player.robot,
                                turn=turn.number if turn else None, key=player.secret, quoted_form=quoted_form)
    has_orders = result.program_given or not result.standing.is_empty() or bool(result.option_orders)
    problems: list[OrderError] = []
    if has_orders:
        problems = _order_problems(job, who, header, has_key, game, player, turn, robot)
    if problems:
        result.errors = problems + result.errors
        result.registers = None
    if result.ok and has_orders and turn is not None and robot is not None:
        last = loops.last_taken(s, player.id, job.now)
        before = _filed(job, game, player, turn, ctx) if last else None
        try:
            with s.begin_nested():
                _apply(job, sender, game, player, turn, robot, result, found)
                if result.recompile:
                    ctx = _context(turn, player, robot)   # the second hand
                after = _filed(job, game, player, turn, ctx)
                if last == after == before:
                    raise _Repeat   # the same orders again, changing nothing: rolled back
            loops.remember(s, player.id, after, job.now, job.incoming)
        except _Repeat:
            return job.finish("ignored", f"the same orders as the last ones taken for {player.robot} (within "
                              f"{loops.REPEAT_WINDOW.seconds // 60} minutes): taken and answered once",
                              game=game, player=player, turn=turn.number)
        except ProgramError as exc:
            result.errors = [OrderError(None, "", p) for p in exc.problems]
            result.registers = None
    return _answer(job, sender, from_record, player, game, turn, robots, ctx, result, found, has_orders, has_key)


class _Repeat(Exception):
    """Orders that repeat the last ones taken (see :mod:`.loops`)."""


def _filed(job: _Job, game: Game, player: Player, turn: Turn, ctx: OrderContext) -> str:
    """A digest of what is on file for the robot, as its echo would show it."""
    program, standing = _on_file(job.s, turn, player)
    return loops.digest(render_echo(game=game.code, robot=player.robot, turn=turn.number, registers=program,
                                    locked=ctx.locked, standing=standing, hand=ctx.hand, options=ctx.options,
                                    turn_options=_options_on_file(job.s, turn, player)))


def _context(turn: Turn | None, player: Player, robot: Robot | None) -> OrderContext:
    """The robot's hand as mailed, its locked registers and its options, from the open turn."""
    if turn is None:
        return OrderContext()
    hand = hand_of(turn, player.robot)
    locked = locked_of(turn, player.robot)
    return OrderContext(hand=hand, locked=locked, options=list(robot.options) if robot else [])


def _order_problems(job: _Job, who: _Who, header: BlockHeader | None, has_key: bool, game: Game, player: Player,
                    turn: Turn | None, robot: Robot | None) -> list[OrderError]:
    """Why orders in this mail cannot be taken, whatever they say (key, turn, deadline, game state)."""
    out: list[OrderError] = []

    def add(message: str) -> None:
        out.append(OrderError(None, "", message))

    key_wrong = header is not None and header.key is not None and not has_key
    if not has_key and not key_wrong:  # a wrong key is reported by the BEGIN line check
        add("this mail carries no key, so its orders were not taken: reply to your turn mail, or put your orders "
            "in the BEGIN ... END block below (its BEGIN line holds your key)")
    if game.status not in ("running", "paused") or turn is None:
        add(f"game {game.code} is {game.status}: no orders are taken")
        return out
    if player.status != "active":
        add(f"{player.robot} is {'out of the game' if player.status == 'out' else 'ejected'}: no orders are taken")
    elif robot is None:
        add(f"{player.robot} is not in turn {turn.number}")
    if (header is None or header.turn is None) and who.turn is not None and who.turn != turn.number:
        add(f"this mail answers the mail for turn {who.turn}, but turn {turn.number} is being played "
            "(stale orders are not used): reply to the newest turn mail")
    received = min(job.incoming.received_at or job.now, job.now)
    if game.status == "running" and turn.deadline is not None and received > turn.deadline:
        add(f"these orders came at {received:%Y-%m-%d %H:%M} UTC, after the deadline of turn {turn.number} "
            f"({turn.deadline:%Y-%m-%d %H:%M} UTC)")
    return out


def _apply(job: _Job, sender: str, game: Game, player: Player, turn: Turn, robot: Robot, result: OrderResult,
           found: Extracted) -> None:
    """Take the orders of a valid mail: the program (with power down and re-entry facing) and the standing
    orders. Raises :class:`ProgramError` (nothing taken) when the store refuses them."""
    s = job.s
    standing = result.standing
    if result.recompile:
        try:
            recompile_hand(s, game, player.robot, actor=f"mail:{sender}", now=job.now)
        except StoreError as exc:
            raise ProgramError(f"RECOMPILE: {exc}") from None
    cards: list[Card | str | None] = [r.card for r in result.registers] if result.registers else []
    facing = DIRECTION_NAMES[standing.reenter_facing] if standing.reenter_facing is not None else None
    stored = player.standing_orders or {}
    kept_facing = stored.get("reenter_facing")
    previous = active_orders(s, turn).get(player.id)
    on_file = previous is not None and bool(previous.program)
    owes = owes_program(turn, robot)
    # this turn's option orders: a mail with a program brings its own; one without adds to those on file
    said = {k: v for k, v in result.option_orders.items() if k != option_orders.RECOMPILE}
    if said and not (cards or on_file or not owes):
        first = sorted(said)[0]
        raise ProgramError(f"{option_orders.CARD_OF.get(first, first)} orders go with a program: no program of "
                           f"yours is on file for turn {turn.number} yet, so send your five registers with them")
    if not cards and previous is not None:
        said = option_orders.merge((previous.extra or {}).get("turn_options") or {}, said)
    if cards or standing.power_down is not None or (facing is not None and (on_file or not owes)) or said:
        if not cards and owes and not on_file:
            what = "REBOOT" if standing.power_down else "NO REBOOT" if standing.power_down is False else "REENTER"
            raise ProgramError(f"{what} goes with a program: no program of yours is on file for turn {turn.number} "
                               "yet, so send your five registers with it")
        if facing is None and isinstance(kept_facing, int) and 0 <= kept_facing <= 3 and previous is None:
            facing = DIRECTION_NAMES[kept_facing]
        text = "\n".join(line for _, line in found.lines)[:20000]
        extra = {**standing.to_dict(), **({"turn_options": said} if said else {})}
        try:
            submit_program(s, game, player.robot, cards, turn_number=turn.number, source="mail",
                           power_down=standing.power_down, reentry_facing=facing,
                           extra=extra or None, text=text, incoming_mail_id=job.incoming.id,
                           actor=f"mail:{sender}", now=job.now)
        except ProgramError:
            raise
        except StoreError as exc:
            raise ProgramError(str(exc)) from None
    persistent = {k: v for k, v in standing.to_dict().items() if k != "power_down"}
    if standing.options:   # option cards' standing orders change one card at a time
        persistent["options"] = option_orders.merge(stored.get("options") or {}, standing.options)
    if persistent:
        set_standing_orders(s, game, player.robot, persistent)


# -- answers ------------------------------------------------------------------------------------------------
def _time_left(turn: Turn | None, game: Game, now: datetime) -> str | None:
    if turn is None or turn.deadline is None or game.status not in ("running", "paused"):
        return None  # a finished game has no time left to tell of
    if game.status == "paused":
        return "the game is paused (the deadline moves on by the pause)"
    left = format_time_left(turn.deadline, now)
    return left if turn.deadline <= now else f"{left}, until {when_text(turn.deadline)}"


def _on_file(s: Session, turn: Turn | None, player: Player) -> tuple[list[Card] | None, StandingOrders]:
    """The program on file (None: none yet) and the standing orders in force, as the echo shows them."""
    standing = StandingOrders.from_dict(player.standing_orders)
    if turn is None:
        return None, standing
    order = active_orders(s, turn).get(player.id)
    if order is None:
        return None, standing
    standing.power_down = order.power_down
    if order.reentry_facing:
        standing.reenter_facing = DIRECTION_NAMES.index(order.reentry_facing)
    program = cards_of(order.program) if order.program else []
    return ([c for c in program if c is not None] if program and None not in program else None), standing


def _options_on_file(s: Session, turn: Turn | None, player: Player) -> dict[str, object]:
    """This turn's option orders on file for the player's robot (RECOMPILE once its second hand is dealt)."""
    if turn is None:
        return {}
    order = active_orders(s, turn).get(player.id)
    said = dict((order.extra or {}).get("turn_options") or {}) if order is not None else {}
    if player.robot in (turn.first_hands or {}):
        said[option_orders.RECOMPILE] = True
    return said


def _command_answers(job: _Job, commands: list[str], game: Game, player: Player, turn: Turn | None,
                     robots: list[Robot], ctx: OrderContext, vocabulary: str,
                     pictures: list[Picture] | None = None) -> list[str]:
    """The answers to the mail's commands, in order; pictures that go with them (PREVIEW's path) are added
    to ``pictures``."""
    parts: list[str] = []
    for command in commands:
        if command == "help":
            parts.append(help_text())
        elif command == "status":
            view = game_view(job.s, game)
            by_robot = {p["robot"]: p["orders"] for p in view["players"]}
            orders = {p.id: by_robot.get(p.robot, "") for p in game.players}
            parts.append(answers.status_text(game, player, turn, robots, orders=orders, now=job.now))
        elif command == "cards":
            if turn is None:
                parts.append(f"Game {game.code} has no open turn, so you hold no cards.\n")
            else:
                parts.append(render_cards(game=game.code, robot=player.robot, turn=turn.number, hand=ctx.hand,
                                          locked=ctx.locked, vocabulary=vocabulary))
        elif command == "preview":
            text, picture = previews.preview_answer(job.s, game, player, turn, _on_file(job.s, turn, player)[0],
                                                    vocabulary)
            parts.append(text)
            if picture is not None and pictures is not None:
                pictures.append(picture)
        elif command == "hint":
            parts.append(previews.hint_text(job.s, game, player, turn, list(ctx.hand), dict(ctx.locked), vocabulary))
    return parts


def _join(*parts: str) -> str:
    rule = "\n" + "-" * 60 + "\n\n"
    return rule.join(p.rstrip("\n") + "\n" for p in parts if p)


def _answer(job: _Job, sender: str, from_record: bool, player: Player, game: Game, turn: Turn | None,
            robots: list[Robot], ctx: OrderContext, result: OrderResult, found: Extracted, has_orders: bool,
            has_key: bool) -> str:
    mail = job.mail
    vocabulary = vocabulary_of(mail.body)
    number = turn.number if turn else None
    time_left = _time_left(turn, game, job.now)
    # a sender not on file gets nothing (the address of record gets the answer), and no prose of theirs is quoted
    notes = found.notes + mail.notes if from_record else []
    if result.ok and not has_orders and not limits.has_room(job.s, job.settings, sender if from_record
                                                            else player.email, sender, job.now):
        # a HELP or STATUS over the limit: not even written
        return job.finish("accepted", f"answered nothing (answer limit for {sender} this hour)", game=game,
                          player=player, turn=number)
    pictures: list[Picture] = []
    commands = _command_answers(job, result.commands, game, player, turn, robots, ctx, vocabulary, pictures)
    if not result.ok:
        reason = "; ".join(str(e) for e in result.errors[:3])
        stale = from_record and has_key and any("stale" in str(e) for e in result.errors)   # never held back
        if not stale and not job.may_answer_error(sender if from_record else player.email, game=game):
            return job.finish("rejected", f"{reason} (not answered: too many error answers to {sender} this hour)",
                              game=game, player=player, turn=number)
        if from_record:
            body = _join(render_rejection(result.errors, game=game.code, robot=player.robot, turn=number,
                                          context=ctx, draft=result.draft, standing=result.standing,
                                          key=player.secret, vocabulary=vocabulary, time_left=time_left,
                                          notes=notes, quoted_block=found.quoted_block and not found.from_quote),
                     *commands)
        else:
            body = (f"Nothing in it was taken ({len(result.errors)} error(s)). If it was your mail, send it again\n"
                    f"from your address of record, {player.email}.\n")
        _deliver(job, answers.KIND_REJECTION, sender, from_record, player, game, turn,
                 answers.subject_for(game, player, turn, "orders not accepted"), body, "refused", exempt=stale,
                 pictures=pictures if from_record else ())
        return job.finish("rejected", reason, game=game, player=player, turn=number)
    if has_orders:
        program, standing = _on_file(job.s, turn, player)
        echo = render_echo(game=game.code, robot=player.robot, turn=number, registers=program, locked=ctx.locked,
                           standing=standing, hand=ctx.hand, options=ctx.options, key=player.secret,
                           vocabulary=vocabulary, time_left=time_left,
                           ignored=result.ignored if from_record else (), notes=notes,
                           turn_options=_options_on_file(job.s, turn, player))
        kind, subject, reason = answers.KIND_ECHO, "orders accepted", "orders taken"
        body = _join(echo, *commands)
        if result.recompile:
            kind, subject, reason = answers.KIND_ECHO, "your second hand (Recompile)", "recompiled: second hand dealt"
            body = _join(_recompiled_text(game, player, turn, ctx), echo, *commands)
    else:
        kind, subject, reason = answers.KIND_ANSWER, f"{', '.join(c.upper() for c in result.commands)}", \
            f"answered {', '.join(c.upper() for c in result.commands)}"
        body = _join(*commands)
    _deliver(job, kind, sender, from_record, player, game, turn, answers.subject_for(game, player, turn, subject),
             body, "accepted", exempt=has_orders and from_record, pictures=pictures)
    return job.finish("accepted", reason, game=game, player=player, turn=number)


def _recompiled_text(game: Game, player: Player, turn: Turn | None, ctx: OrderContext) -> str:
    """The head of the answer to RECOMPILE: the second hand, and what it means for the turn."""
    lines = [f"RECOMPILE: {player.robot} has been dealt a second hand for turn {turn.number if turn else '?'} of "
             f"{game.code}.", "The first hand is gone, and any program you sent for it with it: send your program",
             "for the hand below. The deadline does not move. Recompiling costs 1 damage, taken",
             "when the turn is resolved.", "",
             f"Your hand ({len(ctx.hand)} cards, numbered as you may name them):"]
    lines += [f"  {i:2d}  {card}" for i, card in enumerate(ctx.hand, start=1)]
    lines += [f"  register {reg} is fused with {card}" for reg, card in sorted(ctx.locked.items())]
    return "\n".join(lines) + "\n"


def _deliver(job: _Job, kind: str, sender: str, from_record: bool, player: Player, game: Game, turn: Turn | None,
             subject: str, body: str, verdict: str, *, exempt: bool = False,
             pictures: Sequence[Picture] = ()) -> None:
    """The answer goes to the robot's address of record only: to the sender when that is the address;
    else (a key or reply token used from elsewhere) to the address of record, saying so."""
    if from_record:
        job.send(kind, sender, subject, body, game=game, player=player, turn=turn, exempt=exempt, pictures=pictures)
        return
    note = (f"A mail from {sender} carrying your key was {verdict} for {player.robot} in {game.code}.\n"
            "The answer goes to your address of record only. If that mail was not yours, tell the\n"
            "game master: your key can be changed.\n\n")
    job.send(answers.KIND_COPY, player.email, f"Copy: {subject}", note + body, game=game, player=player,
             turn=turn, exempt=exempt, pictures=pictures)


def _answer_unreadable(job: _Job, sender: str, player: Player, game: Game, turn: Turn | None) -> str:
    reason = job.mail.rejected or "the mail could not be read"
    number = turn.number if turn else None
    if not job.may_answer_error(sender):
        return job.finish("rejected", f"{reason} (not answered: too many error answers to {sender} this hour)",
                          game=game, player=player, turn=number)
    _deliver(job, answers.KIND_REJECTION, sender, sender == player.email, player, game, turn,
             answers.subject_for(game, player, turn, "mail not readable"), render_unreadable(reason), "refused")
    return job.finish("rejected", reason, game=game, player=player, turn=number)


def _not_yours(job: _Job, sender: str, player: Player, game: Game) -> str:
    """A known sender (a player, the GM) writing about a robot that is not theirs, without its key."""
    reason = f"{sender} is not the player of {player.robot} in {game.code} and gave no valid key for it"
    if not job.may_answer_error(sender):
        return job.finish("rejected", f"{reason} (not answered: too many error answers to {sender} this hour)",
                          game=game)
    body = (f"Your mail is about {player.robot} in game {game.code}, which is not your robot (or the key on\n"
            "its BEGIN line is not that robot's). Nothing in it was taken.\n\n"
            "Check the BEGIN line: it must name your own robot and carry your key, as your turn mail shows.\n")
    job.send(answers.KIND_REJECTION, sender, answers.subject_for(game, None, None, "not your robot"), body,
             game=game)
    return job.finish("rejected", reason, game=game)
