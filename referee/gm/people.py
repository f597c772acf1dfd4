"""Many game masters on one installation, on the GM's side (issue 31): whose key a GM mail carries, which
games its commands may touch, and the commands about GMs themselves (``SET SECRET``, ``COMASTER``).

A mail's commands run as the GM who sent it (:attr:`GmContext.master`); a command on a game that GM
neither masters nor co-masters is refused with the very words a game that does not exist gets
(:func:`guard`), before anything is read or changed. The command line (``referee gm``) is the operator's
and may act on any game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..common.keys import same_key
from ..games import masters
from ..games.common import normalize_email
from ..mailer.notices import notice
from ..mailparse.senders import same_address
from ..store.errors import NotFound
from ..store.queries import get_game
from .context import CommandFailed, GmContext, game_code, notice_key
from .language import Command
from .people_words import HELP

log = logging.getLogger("referee.gm")

#: commands that act on no existing game: everything else is refused on a game the sender does not run
GAMELESS = frozenset({"newgame", "help", "set_secret"})

__all__ = ["GAMELESS", "HANDLERS", "HELP", "Check", "check", "guard"]


# -- whose mail -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """What a GM block's sender and key come to."""

    #: why it is refused (None: it is the GM's)
    refused: str | None
    #: the GM: whose commands they are, whose wrong keys are counted (None: the configured GM's counter)
    gm: str | None = None
    #: the refusal is answered (the sender is a GM of the installation)
    answer: bool = False
    wrong_key: bool = False


def check(s: Session, settings: Settings, sender: str, key: str | None) -> Check:
    """Whether a GM block from ``sender`` carrying ``key`` is a GM's, and whose. A sender who is an added GM
    must carry their own key; any other sender is judged against the configured GM as always."""
    added = masters.added_gm(s, sender)
    if added is not None and not same_address(sender, settings.gm_address):
        if masters.key_fits(s, settings, added.address, key):
            return Check(None, added.address)
        return Check("the GM key on the BEGIN GM line is missing or wrong", added.address, answer=True,
                     wrong_key=True)
    is_gm = bool(settings.gm_address) and same_address(sender, settings.gm_address)
    if not settings.gm_secret:
        return Check("no GM secret is configured (gm_secret): GM commands by mail are off", answer=is_gm)
    if not same_key(key, settings.gm_secret):
        return Check("the GM key on the BEGIN GM line is missing or wrong", answer=is_gm, wrong_key=True)
    if not is_gm:
        return Check(f"{sender} is not the game master's address")
    return Check(None, masters.configured_gm(settings))


# -- which games --------------------------------------------------------------------------------------
def guard(ctx: GmContext, command: Command) -> None:
    """Refuse ``command`` when it acts on a game the mail's GM does not run, in the words of a game that does
    not exist (nothing about the game is told). The game is the one the command names in its arguments
    (``code`` or ``game``: ``GAME RR-8``, ``OPEN RR-8 ...``), else the one the mail acts on. The operator's
    commands (no ``master``) are never refused."""
    if ctx.master is None or command.name in GAMELESS:
        return
    named = command.args.get("code") or command.args.get("game")
    code = named if isinstance(named, str) else ctx.game
    if not code:
        return
    with ctx.store.read() as s:
        game = get_game(s, code)   # a game that does not exist: NotFound, in its own words
        if not masters.may_master(s, ctx.settings, ctx.master, game):
            log.warning("GM %s tried %s on %s, which they do not run: refused", ctx.master, command.name, game.code)
            raise NotFound(f"no game {code!r} here (check its code)")   # get_game's words for no such game


# -- the commands ---------------------------------------------------------------------------------------
def do_set_secret(ctx: GmContext, command: Command) -> str:
    """A new key for the GM who mails it: the answer carries it; the old one stops working at once."""
    if ctx.master is None:
        raise CommandFailed("SET SECRET changes the key of the GM who mails it; at the shell: "
                            "referee gm-admin new-key ADDRESS")
    if ctx.master == masters.configured_gm(ctx.settings):
        raise CommandFailed("your key is gm_secret in the settings file: the operator changes it there")
    with ctx.store.write() as s:
        key = masters.new_gm_key(s, ctx.settings, ctx.master, actor=ctx.actor, now=ctx.now)
    return (f"your new GM key is {key}\n    The old one no longer works. Keep this mail safe, and begin your "
            f"GM mails with: BEGIN GM <game> key {key}")


def do_comaster(ctx: GmContext, command: Command) -> str:
    """Who runs the game; a co-master added or removed by the game's master (a co-master may leave)."""
    action, address = command.args["action"], command.args["address"]
    with ctx.store.write() as s:
        game = get_game(s, game_code(ctx))
        master = masters.master_of(s, ctx.settings, game)
        if action == "list":
            others = masters.comasters(s, game)
            return f"{game.code}: master {master or '(none)'}; co-masters: {', '.join(others) or 'none'}"
        leaving = action == "remove" and ctx.master is not None and same_address(address, ctx.master)
        if ctx.master is not None and ctx.master != master and not leaving:
            raise CommandFailed(f"only the master of {game.code} ({master}) adds or removes its co-masters")
        if action == "add":
            who = masters.add_comaster(s, ctx.settings, game, address, actor=ctx.actor, now=ctx.now)
            notice(s, ctx.settings, to=who, subject=f"{game.code}: you may run it too",
                   body=f"{master} has made you a co-master of {game.code}: your GM commands may act on it now "
                        f"(BEGIN GM {game.code} key <your key>).\n",
                   key=notice_key(ctx, command, "comaster"), kind="gm", game=game, now=ctx.now)
            return f"{who} may run {game.code} beside you; they are told"
        who = masters.remove_comaster(s, game, normalize_email(address), actor=ctx.actor, now=ctx.now)
        if not leaving:
            notice(s, ctx.settings, to=who, subject=f"{game.code}: you no longer run it",
                   body=f"{master} has removed you as a co-master of {game.code}.\n",
                   key=notice_key(ctx, command, "comaster"), kind="gm", game=game, now=ctx.now)
        return f"{who} no longer runs {game.code}"


HANDLERS: dict[str, Callable[[GmContext, Command], str]] = {"set_secret": do_set_secret, "comaster": do_comaster}
