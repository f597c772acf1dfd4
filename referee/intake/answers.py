"""The mails the referee answers a player's (or the GM's) mail with, and the text of STATUS.

Every answer is a plain-text mail from the referee, threaded under the mail it answers
(In-Reply-To, References), with the loop-protection headers of an automatic reply and, when it is
about a player's robot, a Reply-To that carries the player's key (:mod:`referee.intake.tokens`), so
that answering the answer just works. Its Message-ID is derived from the stored mail and the attempt,
so an answer is queued once per processing of a mail. Its first line is a marker
(:mod:`referee.intake.loops`) by which the answer is known when an autoresponder pastes it back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from typing import TYPE_CHECKING

from ..config import Settings
from ..deadlines import deadline_text
from ..engine import Robot, square_name
from ..orders import MailText, outgoing_headers
from ..orders.language import facing_name
from ..orders.replies import card_text
from ..store.models import Game, IncomingMail, Player, Turn
from ..textsafe import strip_bidi
from .loops import marker_line

if TYPE_CHECKING:
    from ..render.mail import Picture

#: ``OutgoingMail.kind`` of the answers
KIND_ECHO, KIND_REJECTION, KIND_ANSWER, KIND_COPY, KIND_GM = "echo", "rejection", "answer", "echo_copy", "gm_answer"


def answer_id(settings: Settings, incoming: IncomingMail, kind: str, recipient: str) -> str:
    digest = hashlib.sha256(f"{incoming.id}\0{incoming.attempts}\0{kind}\0{recipient.lower()}".encode()).hexdigest()
    return f"<answer.{incoming.id}.{incoming.attempts}.{kind}.{digest[:12]}@{settings.domain}>"


def answer_mail(settings: Settings, incoming: IncomingMail, mail: MailText, *, kind: str, to: str, subject: str,
                body: str, now: datetime, game: Game | None = None, reply_to: str | None = None,
                pictures: Sequence[Picture] = ()) -> EmailMessage:
    """An answer to ``mail`` (stored as ``incoming``), ready for :func:`referee.store.mail.enqueue_mail`.
    The answer is plain text; ``pictures`` (a PREVIEW's path) follow it as inline image attachments."""
    msg = EmailMessage()
    msg["From"] = formataddr((settings.referee_name, settings.referee_address)) if settings.referee_name \
        else settings.referee_address
    msg["To"] = to
    msg["Subject"] = strip_bidi(subject)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = answer_id(settings, incoming, kind, to)
    if mail.message_id and _fit(mail.message_id, 900):
        msg["In-Reply-To"] = mail.message_id
        refs = [*[r for r in mail.references if _fit(r, 300)][-10:], mail.message_id]
        msg["References"] = " ".join(refs)
    for name, value in outgoing_headers(settings.referee_address, game=game.code if game else None).items():
        msg[name] = value
    if reply_to:
        msg["Reply-To"] = reply_to
    msg.set_content(f"{marker_line(msg['Message-ID'])}\n\n{strip_bidi(body)}")
    for pic in pictures:
        msg.add_attachment(pic.data, "image", pic.subtype, filename=pic.filename, disposition="inline")
    return msg


def _fit(value: str, limit: int) -> bool:
    """Whether a Message-ID from a mail can be repeated in a header of ours."""
    return len(value) < limit and value.isascii() and value.isprintable() and " " not in value


def subject_for(game: Game | None, player: Player | None, turn: Turn | None, what: str) -> str:
    parts = [p for p in (game.code if game else None, player.robot if player else None,
                         f"turn {turn.number}" if turn is not None else None) if p]
    return f"{' '.join(parts)}: {what}" if parts else f"Your mail to the referee: {what}"


def status_text(game: Game, player: Player, turn: Turn | None, robots: Sequence[Robot], *,
                orders: dict[int, str], now: datetime) -> str:
    """The answer to STATUS: the game, the turn, who has sent orders, and the player's own robot."""
    lines = [f"Game {game.code}" + (f" ({game.title})" if game.title else "") + f" on {game.course}: {game.status}."]
    if turn is not None:
        lines.append(f"Turn {turn.number} is open.")
        if turn.deadline is not None:
            lines.append(f"Deadline: {deadline_text(turn.deadline, now, player.timezone)}.")
        else:
            lines.append("This turn has no deadline: it is resolved when every program is in.")
    elif game.status == "finished":
        lines.append(f"The game is over{f': {game.winner} won' if game.winner else ''}.")
    lines += ["", "Robots:"]
    by_name = {r.name: r for r in robots}
    for p in game.players:
        robot = by_name.get(p.robot)
        where = _where(robot)
        state = {"owed": "orders owed", "in": "orders in", "none needed": "no orders needed"}.get(
            orders.get(p.id, ""), "")
        mark = "  <- you" if p.id == player.id else ""
        lines.append(f"  {p.robot:<20} {p.status:<8} {where:<22} {state}{mark}".rstrip())
    robot = by_name.get(player.robot)
    if robot is not None:
        lines += ["", f"Your robot {player.robot}:", f"  {_where(robot)}",
                  f"  damage {robot.damage} (HP {robot.hp}), lives {robot.lives}, flags touched {robot.flags}"]
        if robot.archive is not None:
            lines.append(f"  archive marker on {square_name(robot.archive)}")
        if robot.powered_down:
            lines.append("  powered down this turn")
        for reg, card in sorted(robot.locked.items()):
            lines.append(f"  register {reg} is locked with {card_text(card)}")
        if robot.options:
            lines.append(f"  options: {', '.join(robot.options)}")
    return "\n".join(lines) + "\n"


def _where(robot: Robot | None) -> str:
    if robot is None:
        return "not in this turn"
    if robot.pos is None:
        return "out of the game" if robot.out_of_game else "destroyed, waiting to re-enter"
    return f"on {square_name(robot.pos)} facing {facing_name(robot.facing)}" + (" (virtual)" if robot.virtual else "")
