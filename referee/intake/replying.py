"""The answers to a player's mail (step 6 of :mod:`referee.intake.process`), made from what the use case
gave back (:class:`referee.games.taking.Taken`): the echo of what is on file, the errors with a template
to correct, the answers to HELP, STATUS, CARDS, PREVIEW and HINT; and the short answers to a known sender
whose mail names no robot of theirs. The words are in
:mod:`referee.messages.players` and :mod:`referee.orders.replies`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ..common.deadlines import when_text
from ..games import Taken
from ..messages import players as words
from ..orders import MailRead, replies
from ..store.models import Game, Player, Turn
from . import answers, lookups
from .job import Job
from .routing import Who

if TYPE_CHECKING:
    from ..render.mail import Picture


def time_left(turn: Turn | None, game: Game, now: datetime, *, later: bool = False) -> str | None:
    """The time left to send orders, as the answers tell it (None: a finished game has none). ``later``: for an
    answer read later (the hour's digest), the deadline as a time only, never a count of minutes gone stale."""
    if turn is None or turn.deadline is None or game.status not in ("running", "paused"):
        return None
    if game.status == "paused":
        return words.PAUSED
    if later:
        return f"until {when_text(turn.deadline)}" + (" (passed already)" if turn.deadline <= now else "")
    left = replies.format_time_left(turn.deadline, now)
    return left if turn.deadline <= now else f"{left}, until {when_text(turn.deadline)}"


def answer(job: Job, sender: str, from_record: bool, player: Player, game: Game, taken: Taken, has_key: bool) -> str:
    """The answer step: turn what came of a player's mail (:func:`referee.games.take_orders`) into its one
    answer (or none, within the answer limits) and record the mail's outcome."""
    if taken.unreadable:
        return unreadable(job, sender, player, game, taken.turn)
    if taken.repeated:
        return repeated(job, sender, from_record, player, game, taken)
    mail, turn, ctx, result, found = job.mail, taken.turn, taken.ctx, taken.result, taken.found
    key = player.secret if taken.key_shown else None   # never the key of a seat its sender no longer holds
    vocabulary = taken.vocabulary
    number = turn.number if turn else None
    left = time_left(turn, game, job.now)
    # a sender not on file gets nothing (the address of record gets the answer), and no prose of theirs is quoted
    notes = found.notes + mail.notes if from_record else []
    if taken.silent:
        # a HELP or STATUS over the limit, not from the player's own address: not even written
        return job.finish("accepted", f"answered nothing (answer limit for {sender} this hour)", game=game,
                          player=player, turn=number)
    commands, pictures = taken.requests, taken.pictures
    if not result.ok:
        reason = "; ".join(str(e) for e in result.errors[:3])
        stale = from_record and has_key and any("stale" in str(e) for e in result.errors)   # never held back
        if not stale and not job.may_answer_error(sender if from_record else player.email, game=game):
            return job.held_back(reason, sender, game=game, player=player, turn=number)
        if job.to_digest:   # it goes in the hour's digest, read an hour later: the deadline as a time
            left = time_left(turn, game, job.now, later=True)
        if from_record:
            rejection = replies.render_rejection(
                result.errors, game=game.code, robot=player.robot, turn=number, context=ctx, draft=result.draft,
                standing=result.standing, key=key, vocabulary=vocabulary, time_left=left, notes=notes,
                quoted_block=found.quoted_block and not found.from_quote,
                closed=game.status == "finished")
            body = words.joined(rejection, *commands)
        else:
            body = words.refused_from_elsewhere(len(result.errors), player.email)
        deliver(job, answers.KIND_REJECTION, sender, from_record, player, game, turn,
                words.subject_for(game, player, turn, words.ORDERS_REFUSED), body, "refused", exempt=stale,
                pictures=pictures if from_record else ())
        return job.finish("rejected", reason, game=game, player=player, turn=number)
    if taken.has_orders:
        echo = replies.render_echo(
            game=game.code, robot=player.robot, turn=number, registers=taken.program, locked=ctx.locked,
            standing=taken.standing, hand=ctx.hand, options=ctx.options, key=key, vocabulary=vocabulary,
            time_left=left, ignored=result.ignored if from_record else (), notes=notes,
            turn_options=taken.turn_options)
        kind, subject, reason = answers.KIND_ECHO, words.ORDERS_ACCEPTED, "orders taken"
        body = words.joined(echo, *commands)
        if result.recompile:
            kind, subject, reason = answers.KIND_ECHO, words.SECOND_HAND, "recompiled: second hand dealt"
            head = words.recompiled(game.code, player.robot, number, ctx.hand, dict(ctx.locked))
            body = words.joined(head, echo, *commands)
    else:
        kind, subject = answers.KIND_ANSWER, words.commands_subject(result.commands)
        reason = f"answered {subject}"
        body = words.joined(*commands)
    deliver(job, kind, sender, from_record, player, game, turn, words.subject_for(game, player, turn, subject),
            body, "accepted", exempt=taken.has_orders and from_record, pictures=pictures)
    return job.finish("accepted", reason, game=game, player=player, turn=number)


def repeated(job: Job, sender: str, from_record: bool, player: Player, game: Game, taken: Taken) -> str:
    """Orders that repeat the last ones taken and change nothing: a short answer saying so (no echo again),
    with the answers to the mail's requests (HELP, STATUS, PREVIEW, HINT)."""
    turn = taken.turn
    assert turn is not None
    head = words.already_on_file(player.robot, game.code, turn.number, time_left(turn, game, job.now))
    deliver(job, answers.KIND_ECHO, sender, from_record, player, game, turn,
            words.subject_for(game, player, turn, words.ALREADY_ON_FILE), words.joined(head, *taken.requests),
            "accepted", pictures=taken.pictures)
    return job.finish("accepted", f"the same orders as on file for {player.robot}: nothing changed, answered so",
                      game=game, player=player, turn=turn.number)


def deliver(job: Job, kind: str, sender: str, from_record: bool, player: Player, game: Game, turn: Turn | None,
            subject: str, body: str, verdict: str, *, exempt: bool = False,
            pictures: Sequence[Picture] = ()) -> None:
    """The answer goes to the robot's address of record only: to the sender when that is the address;
    else (a key or reply token used from elsewhere) to the address of record, saying so."""
    if from_record:
        job.send(kind, sender, subject, body, game=game, player=player, turn=turn, exempt=exempt, pictures=pictures)
        return
    note = words.copy_note(sender, verdict, player.robot, game.code)
    job.send(answers.KIND_COPY, player.email, words.copy_subject(subject), note + body, game=game, player=player,
             turn=turn, exempt=exempt, pictures=pictures)


def unreadable(job: Job, sender: str, player: Player, game: Game, turn: Turn | None) -> str:
    """A player's mail that could not be read (too big, no text)."""
    reason = job.mail.rejected or "the mail could not be read"
    number = turn.number if turn else None
    if not job.may_answer_error(sender):
        return job.held_back(reason, sender, game=game, player=player, turn=number)
    deliver(job, answers.KIND_REJECTION, sender, sender == player.email, player, game, turn,
            words.subject_for(game, player, turn, words.NOT_READABLE), replies.render_unreadable(reason), "refused")
    return job.finish("rejected", reason, game=game, player=player, turn=number)


def not_yours(job: Job, sender: str, player: Player, game: Game) -> str:
    """A known sender (a player, the GM) writing about a robot that is not theirs, without its key."""
    reason = f"{sender} is not the player of {player.robot} in {game.code} and gave no valid key for it"
    if not job.may_answer_error(sender):
        return job.held_back(reason, sender, game=game)
    job.send(answers.KIND_REJECTION, sender, words.subject_for(game, None, None, words.NOT_YOUR_ROBOT),
             words.not_your_robot(player.robot, game.code), game=game)
    return job.finish("rejected", reason, game=game)


def unidentified(job: Job, sender: str, who: Who, read: MailRead) -> str:
    """A known sender whose mail names no robot of theirs: why, their robots, and how to say which."""
    reason = who.problem or "no robot could be named"
    if not job.may_answer_error(sender):
        return job.held_back(reason, sender)
    robots = [(p.robot, p.game.code, p.game.status) for p in lookups.players_at(job.s, sender)
              if p.game.status in ("running", "paused", "forming")]
    _, result = read.orders(None)   # the mail as read once (only whether it asks for HELP)
    body = words.not_understood(reason, robots, replies.help_text() if "help" in result.commands else None)
    job.send(answers.KIND_REJECTION, sender, words.subject_for(who.game, None, None, words.NOT_UNDERSTOOD), body)
    return job.finish("rejected", reason, game=who.game)
