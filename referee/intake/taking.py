"""A mail about a known player's robot (steps 4 to 6 of :mod:`referee.intake.process`), one way: the mail was
read once (:class:`referee.orders.MailRead`); here the intake decides who may send it (address of record,
key, forgeries), hands it to the one use case, :func:`referee.games.take_orders` (which reads the orders
with the robot's hand, files them and answers the requests), and turns what came of it into the answer
(:mod:`.replying`)."""

from __future__ import annotations

from ..common.keys import same_key
from ..games import OrdersMail, take_orders
from ..orders import MailRead
from ..orders.extract import BlockHeader
from . import forgery, limits, loops, replying
from .former import answer_former
from .job import Job
from .routing import Who, known


def player_mail(job: Job, sender: str, who: Who, header: BlockHeader | None, read: MailRead, *,
                quoted_form: bool = False) -> str:
    """A mail about a known player's robot: check who may send, take its orders, answer it."""
    s, mail = job.s, job.mail
    player, game = who.player, who.game
    assert player is not None and game is not None
    if (gone := answer_former(job, sender, who, header.key if header else None)) is not None:
        return gone   # she resigned, was replaced or ejected: words of their own, nothing taken
    from_record = sender == player.email
    key_given = header.key if header is not None else None
    key_ok = same_key(key_given, player.secret, ignore_case=True)
    has_key = bool(key_ok or (who.token and key_given is None))
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
    to = sender if from_record else player.email
    taken = take_orders(s, OrdersMail(
        game, player, read, quoted_form, header, has_key, who.turn, mail.rejected,
        received=min(job.incoming.received_at or job.now, job.now), now=job.now, incoming_id=job.incoming.id,
        actor=f"mail:{sender}", last_taken=loops.last_taken(s, player.id, job.now),
        answer_requests=job.genuine or limits.has_room(s, job.settings, to, sender, job.now)))
    if taken.filed is not None:
        loops.remember(s, player.id, taken.filed, job.now, job.incoming)
    return replying.answer(job, sender, from_record, player, game, taken, has_key)
