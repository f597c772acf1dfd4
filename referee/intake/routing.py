"""Who a mail is from and whose robot it is about (step 3 of :mod:`referee.intake.process`).

In order: the BEGIN line (game and robot); else a reply-address token (:mod:`.tokens`); else the turn
mail or answer it replies to (In-Reply-To / References); else a game code in the subject with the
sender's robot in it; else the sender's only robot in a running game. A mail with no orders of its own
that filled in the quoted turn mail's order form is read from that form (:func:`quoted_form`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..common.keys import same_key
from ..games import get_game, get_player
from ..games.tokens import read_token
from ..mailparse.senders import sender_address
from ..orders import MailRead, MailText
from ..orders.extract import BlockHeader, Extracted
from ..orders.mailtext import read_mail
from ..orders.reply_model import Replied
from ..store.errors import NotFound
from ..store.models import Game, Player
from . import answers, lookups
from .job import safe

#: outgoing mail kinds that carry a player's cards for ``turn_number + 1`` (the turn report) ...
_NEXT_TURN_KINDS = {"turn_report"}
#: ... and those about ``turn_number`` itself (the start mail, our answers)
_SAME_TURN_KINDS = {"turn_start", "reminder", "announcement", answers.KIND_ECHO, answers.KIND_REJECTION,
                    answers.KIND_ANSWER, answers.KIND_COPY}
_SUBJECT_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,31}")


@dataclass
class Who:
    """Whose robot a mail is about, and how that was found."""

    player: Player | None = None
    game: Game | None = None
    #: the turn the token or the mail replied to was about
    turn: int | None = None
    #: a valid reply-address token for this player rode on the mail
    token: bool = False
    #: why no robot could be named (for the answer to a known sender)
    problem: str | None = None
    #: the address the mail of ours it replies to went to (``thread``): who it is from, whatever the sender
    thread_to: str | None = None


def is_referee(sender: str, settings: Settings) -> bool:
    """Whether ``sender`` is the referee's own address (or a ``+tag`` of it)."""
    local, _, domain = settings.referee_address.lower().rpartition("@")
    box, _, dom = sender.lower().rpartition("@")
    return box.partition("+")[0] == local and dom == domain


def gm_addresses(s: Session, settings: Settings) -> set[str]:
    """Every game master's address: the games' and the configured one."""
    configured = {sender_address(settings.gm_address) or settings.gm_address.lower()} if settings.gm_address \
        else set()
    return lookups.game_master_addresses(s) | configured


def known(s: Session, settings: Settings, sender: str) -> bool:
    """Whether ``sender`` plays a robot or is a game master."""
    return bool(lookups.players_at(s, sender)) or sender in gm_addresses(s, settings)


def _find_game(s: Session, code: str) -> Game | None:
    try:
        return get_game(s, code)
    except NotFound:
        return None


def identify(s: Session, settings: Settings, mail: MailText, header: BlockHeader | None, sender: str) -> Who:
    """Whose robot ``mail`` (from ``sender``) is about (see the module docstring)."""
    token = read_token(s, settings, mail.recipients, mail.subject)
    if header is not None and header.game is not None:
        game = _find_game(s, safe(header.game))
        if game is None:
            return Who(problem=f"the BEGIN line names game {header.game}, and there is no such game")
        try:
            player = get_player(s, game, safe(header.robot or ""))
        except NotFound:
            return Who(game=game, problem=f"the BEGIN line names robot {header.robot}, "
                                          f"and game {game.code} has no such robot")
        return Who(player, game, token=token is not None and token.player.id == player.id)
    if token is not None:
        return Who(token.player, token.player.game, token.turn, token=True)
    thread = _thread(s, mail)
    if thread is not None:
        return thread
    words = {w.upper() for w in _SUBJECT_WORD.findall(mail.subject)[:60]}
    if words:
        in_subject = [p for p in lookups.players_at(s, sender) if p.game.code.upper() in words]
        if len(in_subject) == 1:
            return Who(in_subject[0], in_subject[0].game)
    playing = [p for p in lookups.players_at(s, sender)
               if p.game.status in ("running", "paused") and p.status == "active"]
    if len(playing) == 1:
        return Who(playing[0], playing[0].game)
    if len(playing) > 1:
        games = ", ".join(f"{p.robot} in {p.game.code}" for p in playing)
        return Who(problem=f"you play {games}, and this mail does not say which game it is about")
    return Who(problem="you have no robot in a running game")


def _thread_ids(mail: MailText) -> list[str]:
    """The Message-IDs a mail replies to, nearest first (In-Reply-To, then References from the last)."""
    return [i for i in ([mail.in_reply_to] if mail.in_reply_to else []) + list(reversed(mail.references))
            if i and len(i) <= 998 and i == safe(i)][:20]


def replied_to(s: Session, mail: MailText) -> Replied | None:
    """The referee's mail to a player that ``mail`` answers (its kind and text, for the reply model), or None."""
    ids = _thread_ids(mail)
    if not ids:
        return None
    rows = lookups.sent_to_players(s, ids)
    row = next((rows[i] for i in ids if i in rows), None)
    if row is None:
        return None
    return Replied.of_kind(row.kind, read_mail(row.raw).body)


def _thread(s: Session, mail: MailText) -> Who | None:
    """The player and turn of the turn mail or answer this mail replies to."""
    ids = _thread_ids(mail)
    if not ids:
        return None
    rows = lookups.sent_to_players(s, ids)
    for message_id in ids:
        row = rows.get(message_id)
        if row is None or row.player_id is None:
            continue
        player = lookups.player_by_id(s, row.player_id)
        if player is None:
            continue
        turn = row.turn_number
        if turn is not None and row.kind in _NEXT_TURN_KINDS:
            turn += 1
        elif row.kind not in _SAME_TURN_KINDS:
            turn = None
        to = row.recipients[0] if row.recipients and isinstance(row.recipients[0], str) else None
        return Who(player, player.game, turn, thread_to=to)
    return None


def route(s: Session, settings: Settings, mail: MailText, read: MailRead, sender: str) -> tuple[Extracted, Who]:
    """Whose robot the mail is about, and the orders that count for it, decided in one place: the order form the
    player filled in within the quoted turn mail (extract's rule 6, found by the read of the mail:
    :attr:`MailRead.form`) when its BEGIN line names her robot and the mail came to her reply address or the
    line carries her key; else what the sender wrote herself (the quote is not read)."""
    form = read.form
    if form is not None and form.header is not None:
        who = identify(s, settings, mail, form.header, sender)
        if who.player is not None and (who.token or (form.header.key is not None and same_key(
                form.header.key, who.player.secret, ignore_case=True))):
            return form, who
    return read.own, identify(s, settings, mail, read.own.header, sender)
