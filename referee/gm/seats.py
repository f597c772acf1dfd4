"""The GM's commands about seats and the people in them: ``ADD PLAYER``, ``EJECT``, ``REPLACE``, ``TIMEZONE``
and ``STATUS`` (the game and who plays what)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .. import games as g
from ..mailer.notices import notice
from ..mailparse.senders import sender_address
from ..reports.mails import order_template
from ..store.models import Game
from .context import CommandFailed, GmContext, deadline_words, game_code, health, notice_key, tell_players
from .language import Command

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def not_the_referee(ctx: GmContext, address: str) -> None:
    """A player's address may not be the referee's own (nor a ``+tag`` of it): its mail would be answers
    of the referee mailed to itself."""
    mine = (sender_address(ctx.settings.referee_address) or "").lower()
    theirs = (sender_address(address) or address).lower()
    local, _, domain = mine.rpartition("@")
    box, _, dom = theirs.rpartition("@")
    delimiters = {"+", *(ctx.settings.address_delimiter or "")}
    for d in delimiters:
        box = box.partition(d)[0]
    if mine and dom == domain and box == local:
        raise CommandFailed(f"{address} is the referee's own address: a player needs an address of their own")


def do_add_player(ctx: GmContext, command: Command) -> str:
    a = command.args
    not_the_referee(ctx, a["email"])
    with ctx.store.write() as s:
        player = g.add_player(s, game_code(ctx), email=a["email"], robot=a["robot"], colour=a["colour"],
                              name=a["name"], actor=ctx.actor, now=ctx.now)
        return f"{player.robot} ({player.email}, {player.colour}) takes seat {player.seat}"


def tell_former(ctx: GmContext, s: Session, game: Game, command: Command, to: str, subject: str, body: str) -> None:
    """Tell a former player (ejected, or replaced) why the game's mail stops: once, to their own address."""
    notice(s, ctx.settings, to=to, subject=subject, body=body + "\nQuestions about it go to the game master.\n",
           key=notice_key(ctx, command, f"former:{to}"), kind="notice", game=game, now=ctx.now)


def do_eject(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        player = g.eject_player(s, game_code(ctx), command.args["robot"], actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, game_code(ctx))
        tell_players(ctx, s, game, command, f"{player.robot} leaves the game",
                     f"{player.robot} was taken out of the game by the game master", about=f"seat:{player.robot}")
        tell_former(ctx, s, game, command, player.email, f"{game.code}: you no longer play {player.robot}",
                    f"The game master of {game.code} has taken {player.robot} out of the game: your orders for "
                    "it are no longer read, and you get no more turn mails of this game.")
        return f"{player.robot} ejected"


def do_replace(ctx: GmContext, command: Command) -> str:
    not_the_referee(ctx, command.args["email"])
    with ctx.store.write() as s:
        before = g.get_player(s, g.get_game(s, game_code(ctx)), command.args["robot"]).email
        player = g.replace_player(s, game_code(ctx), command.args["robot"], command.args["email"], actor=ctx.actor,
                                  now=ctx.now)
        game = g.get_game(s, game_code(ctx))
        if before != player.email:
            tell_former(ctx, s, game, command, before, f"{game.code}: {player.robot} has a new player",
                        f"The game master of {game.code} has handed {player.robot} to another player: your key "
                        "for it no longer works, your orders for it are no longer read, and you get no more turn "
                        "mails of this game.")
        turn = g.open_turn(s, game)
        body = (f"You now play {player.robot} in {game.code} (RoboRally by mail).\n")
        if turn is not None and player.robot in turn.hands:
            robot = {r.name: r for r in g.robots_of(turn)}.get(player.robot)
            body += (f"\nYour cards for turn {turn.number}: {', '.join(turn.hands[player.robot])}\n"
                     f"Deadline: {deadline_words(turn.deadline, ctx.now, player.timezone)}\n\n"
                     "Reply with this block filled in:\n\n"
                     + order_template(game, player, turn, robot))
        notice(s, ctx.settings, to=player.email, subject=f"{game.code}: you take over {player.robot}", body=body,
               key=notice_key(ctx, command, "replace"), game=game, player=player, now=ctx.now)
        tell_players(ctx, s, game, command, f"{player.robot} has a new player",
                     f"{player.robot} is now played by someone new", about=f"seat:{player.robot}")
        return f"{player.robot} is now played by {player.email}"


def do_status(ctx: GmContext, command: Command) -> str:
    with ctx.store.read() as s:
        game = g.get_game(s, game_code(ctx))
        view = g.game_view(s, game)
    deadline = deadline_words(datetime.fromisoformat(view["deadline"]), ctx.now) if view["deadline"] else "-"
    lines = [f"{view['code']} on {view['course']}: {view['status']}, turn {view['turn']}, deadline "
             f"{deadline}, missing orders: {view['missing_orders']}"
             + (", held for review" if view["hold_for_review"] else "")]
    for p in view["players"]:
        st = p["state"] or {}
        lines.append(f"      {p['robot']:<10} {p['email']:<28} {p['status']:<7} orders: {p['orders']:<8} "
                     f"at {st.get('at') or '-'}, "
                     f"{health(st.get('damage', '-'), st.get('lives', '-'), st.get('flags', '-'))}")
    return "\n".join(lines)


def do_timezone(ctx: GmContext, command: Command) -> str:
    """A player's time zone: their mails show deadlines in it too."""
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx))
        player = g.get_player(s, game, command.args["robot"])
        player.timezone = command.args["zone"]
        g.audit(s, "player.timezone", actor=ctx.actor, game=game, now=ctx.now,
                details={"robot": player.robot, "zone": player.timezone})
        return f"{player.robot}'s deadlines are shown in {player.timezone or 'UTC only'}"


