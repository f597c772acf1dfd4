"""The last mail of a game: to every player and the GM, the winner, the final standings (place, flags,
lives, HP), a few statistics and the archive link. Queued once per game (its Message-ID is derived from
the game and the recipient), in the caller's transaction, after the last turn's results.
"""

from __future__ import annotations

from datetime import datetime
from html import escape

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..archive.links import game_url
from ..common.config import Settings
from ..common.deadlines import when_text
from ..messages.community import how_to_stop
from ..render import build_message, message_id
from ..store.community import observers, unsubscribe_headers
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player, Turn
from ..store.outbox import enqueue_mail
from .headers import Sender, gm_address, mail_headers
from .standings import Summary, summarize
from .stored import course_board
from .templating import render

#: ``OutgoingMail.kind`` of the game-over mails
KIND_FINAL = "game_over"


def game_summary(s: Session, game: Game) -> Summary:
    turns = list(s.scalars(select(Turn).where(Turn.game_id == game.id).order_by(Turn.number)))
    return summarize(game, turns, course_board(game).flag_count)


def enqueue_final_mails(s: Session, settings: Settings, game: Game, *, now: datetime,
                        held: bool = False) -> list[OutgoingMail]:
    """Queue the game-over mail to every player who played (not the ejected), the GM and the observers (with
    how to stop, as in their results mails); nothing when the
    game is not finished or the mails are queued already. ``held``: the players' mails wait for the GM
    to publish the last turn (as its results do)."""
    if game.status != "finished":
        return []
    sender = Sender.from_settings(settings)
    summary = game_summary(s, game)
    labels = {p.robot: p.name or p.robot for p in game.players}
    context = {"summary": summary, "archive_url": game_url(settings, game.code),
               "finished": when_text(game.finished_at or now), "started":
               when_text(game.started_at) if game.started_at else None,
               "winner": summary.winner, "winner_player": labels.get(summary.winner or "")}
    title = f"{game.code}: game over" + (f", {summary.winner} wins" if summary.winner else "")
    out = []
    recipients: list[tuple[str, Player | None]] = [(p.email, p) for p in game.players if p.status != "ejected"]
    gm = gm_address(settings, game)
    if gm and gm not in [r for r, _ in recipients]:
        recipients.append((gm, None))
    # once per game and address: the id the outbox keeps is the wire id (not the one built here), and a last turn
    # corrected, or the game ended by the GM after its last turn's mails, must not send it again
    sent = s.scalars(select(OutgoingMail.recipients).where(OutgoingMail.game_id == game.id,
                                                           OutgoingMail.kind == KIND_FINAL))
    already = {str(address).lower() for addresses in sent for address in (addresses or [])}
    watchers = {w.address: w for w in observers(s, game) if w.address not in {r for r, _ in recipients}}
    recipients += [(address, None) for address in watchers]   # observers get the last mail too (issue 41)
    for address, player in recipients:
        if address.lower() in already:
            continue
        msg_id = message_id(game.code, summary.turns, address, sender.domain, "game-over")
        you = player.robot if player is not None else None
        text, html = render("final.txt", **context, you=you), render("final.html", **context, you=you)
        headers = mail_headers(settings, game, now)
        watcher = watchers.get(address)
        if watcher is not None:   # how to stop, in the text and in the headers, as in every observer mail
            stop = how_to_stop(game.code)
            text, html = f"{text.rstrip()}\n\n{stop}\n", html.replace("</body>", f"<p>{escape(stop)}</p></body>")
            headers = {**headers, **unsubscribe_headers(settings, game.code, watcher.token)}
        msg = build_message(sender=sender.header, recipient=address,
                            subject=title if player or watcher else f"[GM] {title}",
                            msg_id=msg_id, text=text, html=html, headers=headers)
        out.append(enqueue_mail(s, msg, kind=KIND_FINAL, recipients=[address], sender=settings.referee_address,
                                game=game, player=player, turn_number=summary.turns, now=now,
                                held=held and (player is not None or watcher is not None)))
    return out
