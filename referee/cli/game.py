"""``referee game ...``: games from the shell, through the use cases of :mod:`referee.games`.

Errors are one line on standard error and exit status 1. ``referee game resolve`` exits 3 when it
did nothing because the turn had been resolved already (by another process) or the game was busy.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..common.values import setting
from ..console.support import (
    EXIT_NOTHING_DONE,
    cli_actor,
    cli_settings,
    echo_json,
    open_store,
    parse_duration,
    store_session,
)
from ..games import fills
from ..store.records import hand_of, locked_of


def _parse_rule(text: str) -> tuple[str, Any]:
    found = setting(text)
    if found is None:
        raise click.BadParameter(f"{text!r}: write a house rule as NAME=VALUE, e.g. edge=fence")
    return found


# ---------------------------------------------------------------------------------------------------
@click.group("game")
def game_group() -> None:
    """Games: create, seat players, start, play turn by turn, inspect."""


@game_group.command("new")
@click.argument("code", required=False)
@click.option("--course", help="Board or course to play on (referee board list); default: [default] course.")
@click.option("--title", default="", help="A name for the game.")
@click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
              help="A house rule (edge=fence, lives=2, start=numbered...); repeatable.")
@click.option("--seed", help="The game's seed (default: random). Every turn's seed derives from it.")
@click.option("--deadline", help="Time players have per turn (5d, 36h...); default: [default] deadline.")
@click.option("--reminder", help="Remind missing players this long before; default: [default] reminder.")
@click.option("--settle", help="Wait this long after the last program (0: at once); default: [default] settle.")
@click.option("--missing-orders", type=click.Choice(fills.names(game_policy=True)),
              help="Policy for missing programs (see 'referee game resolve --help'); default: [default] "
                   "missing_orders.")
@click.option("--hold-for-review", is_flag=True, help="Turn results go to the GM before the players.")
@click.option("--gm", "gm_address", help="The game master's address.")
def game_new(code: str | None, course: str | None, title: str, rules: tuple[str, ...], seed: str | None,
             deadline: str | None, reminder: str | None, settle: str | None, missing_orders: str | None,
             hold_for_review: bool, gm_address: str | None) -> None:
    """Create a game (CODE, e.g. RR-7; default the next free RR-<n>).

    What is not given comes from the [default] settings of referee.toml, as for NEWGAME by mail.
    """
    from .. import games

    d = cli_settings()
    house = dict(_parse_rule(r) for r in rules)

    def seconds(given: str | None, setting: str, name: str) -> int:
        if given is not None:
            return parse_duration(given)
        try:
            return parse_duration(setting)
        except click.BadParameter as exc:
            raise click.ClickException(f"the setting [default] {name}: {exc.message}") from None

    with store_session(write=True) as s:
        if gm_address is not None:
            from ..games.masters import is_gm

            if not is_gm(s, d, gm_address):
                raise click.BadParameter(f"{gm_address.strip()} is not a game master of this installation "
                                         "(referee gm-admin list; add one with: referee gm-admin add ADDRESS)",
                                         param_hint="--gm")
        game = games.create_game(s, course=course or d.default_course, code=code, title=title, rules=house,
                                 seed=seed, deadline_seconds=seconds(deadline, d.default_deadline, "deadline"),
                                 reminder_seconds=seconds(reminder, d.default_reminder, "reminder"),
                                 settle_seconds=seconds(settle, d.default_settle, "settle"),
                                 missing_orders=missing_orders or d.default_missing_orders,
                                 hold_for_review=hold_for_review, gm_address=gm_address, actor=cli_actor())
    click.echo(f"{game.code}: new game on {game.course} (house rules: {_rules_text(game.rules)})")


@game_group.command("add-player")
@click.argument("code")
@click.argument("email")
@click.argument("robot")
@click.option("--colour", "--color", "colour", help="Robot colour (default: the next free one).")
@click.option("--name", default="", help="The player's name.")
def game_add_player(code: str, email: str, robot: str, colour: str | None, name: str) -> None:
    """Seat the player at EMAIL with robot ROBOT in game CODE (while it is forming)."""
    from .. import games

    with store_session(write=True) as s:
        p = games.add_player(s, code, email=email, robot=robot, colour=colour, name=name, actor=cli_actor())
        game_code = p.game.code
    click.echo(f"{game_code}: seat {p.seat} {p.robot} ({p.colour}) played by {p.email}, secret {p.secret}")


@game_group.command("start")
@click.argument("code")
def game_start(code: str) -> None:
    """Place the robots and deal the first hands; the players' first mails are queued in the outbox."""
    from .. import games

    settings = cli_settings()
    with store_session(write=True) as s:
        turn, mails = games.start_and_announce(s, settings, code, actor=cli_actor())
        game = turn.game
    click.echo(f"{game.code}: started with {len(turn.state_before)} robots; turn 1 dealt"
               + (f", deadline {turn.deadline:%Y-%m-%d %H:%M} UTC" if turn.deadline else "")
               + f"; {len(mails)} mails queued")


@game_group.command("list")
@click.option("--status", type=click.Choice(["forming", "running", "paused", "finished"]))
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
def game_list(status: str | None, as_json: bool) -> None:
    """List the games."""
    from .. import games

    with store_session(write=False) as s:
        rows = [{"code": g.code, "title": g.title, "course": g.course, "status": g.status, "turn": g.turn_number,
                 "players": len(g.players), "winner": g.winner} for g in games.list_games(s, status)]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no games")
    for r in rows:
        extra = f"  winner {r['winner']}" if r["winner"] else ""
        click.echo(f"{r['code']:<10} {r['status']:<9} turn {r['turn']:<4} {r['players']} players  "
                   f"{r['course']}{'  ' + r['title'] if r['title'] else ''}{extra}")


@game_group.command("status")
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="As JSON (hands included).")
@click.option("--secrets", is_flag=True, help="Show the players' secrets.")
def game_status(code: str, as_json: bool, secrets: bool) -> None:
    """The game, its open turn, and every player's robot and orders."""
    from .. import games

    with store_session(write=False) as s:
        view = games.game_view(s, games.get_game(s, code), secrets_too=secrets)
    if as_json:
        echo_json(view)
        return
    click.echo(f"{view['code']}{' ' + repr(view['title']) if view['title'] else ''}: {view['status']}, "
               f"course {view['course']}, turn {view['turn']}"
               + (f", deadline {_when(view['deadline'])}" if view["deadline"] else "")
               + (f", winner {view['winner']}" if view["winner"] else ""))
    click.echo(f"house rules: {_rules_text(view['rules'])}")
    for p in view["players"]:
        st = p["state"] or {}
        where = st.get("at") or "off the board"
        mode = "virtual" if st.get("virtual") else "powered down" if st.get("powered_down") else "real"
        line = (f"  {p['seat']}. {p['robot']:<10} {p['colour']:<7} {p['email']:<28} {p['status']:<7} "
                f"orders {p['orders']:<11}")
        if st:
            line += (f" {where:<7} {st.get('facing')}  HP {10 - st.get('damage', 0):<2} lives {st.get('lives')} "
                     f"flags {st.get('flags')} {mode}")
        if secrets:
            line += f"  secret {p['secret']}"
        click.echo(line.rstrip())


@game_group.command("hand")
@click.argument("code")
@click.argument("robot")
def game_hand(code: str, robot: str) -> None:
    """ROBOT's hand for the open turn, numbered, and its fused registers."""
    from .. import games

    with store_session(write=False) as s:
        game = games.get_game(s, code)
        player = games.get_player(s, game, robot)
        turn = games.open_turn(s, game)
        if turn is None:
            raise click.ClickException(f"{game.code} has no open turn")
        hand = hand_of(turn, player.robot)
        locked = locked_of(turn, player.robot)
    click.echo(f"{game.code} turn {turn.number}, {player.robot}: "
               + (", ".join(f"{i}={c}" for i, c in enumerate(hand, start=1)) or "no cards"))
    for reg, card in sorted(locked.items()):
        click.echo(f"  register {reg} fused: {card}")


@game_group.command("program")
@click.argument("code")
@click.argument("robot", required=False)
@click.argument("cards", required=False)
@click.option("--file", "file", type=click.File("r"),
              help="Programs, one per line: 'ROBOT: card, card, ...' ('-' for standard input).")
@click.option("--turn", "turn_number", type=int, help="The turn meant (refused if another turn is open).")
@click.option("--power-down/--no-power-down", default=None, help="Announce (or cancel) a power down next turn.")
@click.option("--reentry", help="Facing (N/E/S/W) if the robot re-enters after being destroyed.")
def game_program(code: str, robot: str | None, cards: str | None, file: Any, turn_number: int | None,
                 power_down: bool | None, reentry: str | None) -> None:
    """Enter ROBOT's program: CARDS comma-separated ("FWD2 670, RT90 80, ..." or "Move-2 P670, ...";
    1-9 = that card of the hand; '-' = a fused register), or several from --file."""
    from .. import games
    from ..store.errors import ProgramError, StoreError
    from ..store.programs import parse_cards_text

    entries: list[tuple[str, str, str]] = []
    if file is not None:
        if robot or cards:
            raise click.UsageError("give ROBOT and CARDS, or --file, not both")
        for n, line in enumerate(file, start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            name, sep, rest = text.partition(":")
            if not sep:
                raise click.ClickException(f"{file.name} line {n}: expected 'ROBOT: card, card, ...'")
            entries.append((f"{file.name} line {n}", name.strip(), rest))
    elif robot is not None and cards is not None:
        entries.append(("", robot, cards))
    elif robot is not None and (power_down is not None or reentry):
        entries.append(("", robot, ""))
    else:
        raise click.UsageError("give ROBOT and CARDS, or --file FILE")
    problems: list[str] = []
    accepted: list[str] = []
    with store_session(write=True) as s:
        game = games.get_game(s, code)
        for where, name, text in entries:
            prefix = f"{where}: " if where else ""
            try:
                player = games.get_player(s, game, name)
                turn = games.open_turn(s, game)
                hand = hand_of(turn, player.robot) if turn else []
                order = games.submit_program(s, game, player.robot, parse_cards_text(text, hand),
                                             turn_number=turn_number, source="cli", power_down=power_down,
                                             reentry_facing=reentry, text=text.strip(), actor=cli_actor())
                accepted.append(f"{game.code} turn {order.turn.number}, {player.robot}: "
                                + (", ".join(c or "-" for c in order.program) or "no program")
                                + (" (power down next turn)" if order.power_down else ""))
            except ProgramError as exc:
                problems.extend(f"{prefix}{p}" for p in (exc.problems if len(exc.problems) > 1 else [str(exc)]))
            except StoreError as exc:
                problems.append(f"{prefix}{exc}")
        if problems:  # all or nothing: the transaction is rolled back
            raise click.ClickException("; ".join(problems) + ("" if len(entries) == 1 else " (nothing entered)"))
    for line in accepted:
        click.echo(line)


@game_group.command("resolve")
@click.argument("codes", nargs=-1)
@click.option("--turn", "turn_number", type=int, help="Resolve only if this turn is still the open one.")
@click.option("--fill", type=click.Choice(fills.names()),
              help="Program for robots whose players sent none (default: refuse to resolve): "
                   + "; ".join(f"{s.name}: {s.summary}" for s in fills.STRATEGIES.values()) + ".")
@click.option("--all", "all_ready", is_flag=True,
              help="Every running game (those still waiting for programs are skipped, unless --fill).")
@click.option("--no-wait", is_flag=True, help="Skip a game another process is changing (PostgreSQL).")
def game_resolve(codes: tuple[str, ...], turn_number: int | None, fill: str | None, all_ready: bool,
                 no_wait: bool) -> None:
    """Resolve the open turn of the games CODES (or of every running game: --all), deal the next."""
    from .. import games
    from ..store.errors import AlreadyResolved, Busy, GameStateError, MissingOrders, StoreError

    if not codes and not all_ready:
        raise click.UsageError("name a game, or use --all")
    settings = cli_settings()
    store = open_store()
    targets: list[tuple[int | str, int | None]] = [(code, turn_number) for code in codes]
    if all_ready:
        # each game's open turn as listed now: if another process resolves it meanwhile, it is not done twice
        with store.read() as s:
            targets.extend((g.id, g.turn_number) for g in games.list_games(s, "running"))
    resolved = skipped = 0
    try:
        for target, expect in targets:
            try:
                with store.write() as s:
                    fill_fn = fills.filling(fill, games.get_game(s, target)) if fill else None
                    # the report goes in the same transaction as the turn: both are kept, or neither
                    turn, mails = games.resolve_with_mails(s, settings, target, expect_turn=expect, fill_missing=False,
                                                           fill=fill_fn, wait=not no_wait, actor=cli_actor())
                    game = turn.game
            except (AlreadyResolved, Busy) as exc:
                click.echo(f"{exc} (nothing done)")
                skipped += 1
                continue
            except (MissingOrders, GameStateError) as exc:
                if all_ready:
                    continue
                raise click.ClickException(str(exc)) from None
            except StoreError as exc:
                raise click.ClickException(str(exc)) from None
            after = (f"won by {turn.winner}" if turn.winner else
                     "game over" if game.status == "finished" else f"turn {game.turn_number} dealt")
            click.echo(f"{game.code}: turn {turn.number} resolved, {after}; {len(mails)} mails queued"
                       + (" (held for review)" if any(m.status == "held" for m in mails) else ""))
            resolved += 1
    finally:
        store.close()
    if not resolved and skipped:
        sys.exit(EXIT_NOTHING_DONE)


@game_group.command("show-turn")
@click.argument("code")
@click.argument("number", type=int, required=False)
@click.option("--json", "as_json", is_flag=True, help="Everything stored for the turn, as JSON.")
@click.option("--no-hands", is_flag=True, help="Leave out the hands dealt.")
def game_show_turn(code: str, number: int | None, as_json: bool, no_hands: bool) -> None:
    """Turn NUMBER (default: the current one): seed, hands, programs, events, robots before and after."""
    from .. import games

    with store_session(write=False) as s:
        game = games.get_game(s, code)
        view = games.turn_view(s, game, number if number is not None else game.turn_number, hands=not no_hands)
    if as_json:
        echo_json(view)
        return
    click.echo(f"{view['game']} turn {view['turn']}: {view['status']}, seed {view['seed']}"
               + (f", resolved {_when(view['resolved_at'])} by {view['resolved_by']}" if view["resolved_at"] else "")
               + (f", deadline {_when(view['deadline'])}" if view["status"] == "open" and view["deadline"] else ""))
    click.echo("robots at the start:")
    for r in view["state_before"]:
        click.echo("  " + _robot_text(r))
    if "hands" in view:
        for name, hand in view["hands"].items():
            fused = view["locked"].get(name, {})
            click.echo(f"  {name} hand: {', '.join(hand) or '-'}"
                       + (f"; fused {', '.join(f'{k}={v}' for k, v in sorted(fused.items()))}" if fused else ""))
    if view["programs"] is not None:
        click.echo("programs:")
        for name, prog in view["programs"].items():
            click.echo(f"  {name}: {', '.join(c or '-' for c in prog)}")
        phase = None
        for ev in view["events"] or []:
            if ev["phase"] != phase:
                phase = ev["phase"]
                click.echo(f"-- register phase {phase} --" if isinstance(phase, int) else f"-- {phase} of turn --")
            click.echo(f"  {ev['step']:<12} {ev['robot'] or '':<10} {ev['text']}")
        click.echo("robots at the end:")
        for r in view["state_after"] or []:
            click.echo("  " + _robot_text(r))
        if view["winner"]:
            click.echo(f"winner: {view['winner']}")
    else:
        in_ = [o["robot"] for o in view["orders"] if o["active"]]
        click.echo(f"orders in from: {', '.join(in_) or 'nobody yet'}")


@game_group.command("replay")
@click.argument("code")
@click.argument("number", type=int)
def game_replay(code: str, number: int) -> None:
    """Re-run stored turn NUMBER from its snapshot; exit 1 if the result differs from the stored one."""
    from .. import games

    with store_session(write=False) as s:
        game = games.get_game(s, code)
        result, same = games.replay_turn(s, game, number)
        note = games.rules_version_note(games.get_turn(s, game, number))
    if note:
        click.echo(f"{game.code} {note}")
    if not same:
        raise click.ClickException(f"{game.code} turn {number}: the re-run differs from the stored result")
    click.echo(f"{game.code} turn {number}: re-run from the snapshot gives the stored result "
               f"({len(result.events)} events, winner {result.winner or 'none'})")


def _when(iso: str) -> str:
    """``2026-03-01T12:00:05.123+00:00`` -> ``2026-03-01 12:00 UTC``."""
    return iso[:16].replace("T", " ") + " UTC"


def _rules_text(rules: dict[str, Any]) -> str:
    return " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items())


def _robot_text(r: dict[str, Any]) -> str:
    where = r.get("at") or "off the board"
    bits = [f"{r['name']:<10} {where:<8} {r.get('facing')}", f"HP {10 - r.get('damage', 0)}",
            f"lives {r.get('lives')}", f"flags {r.get('flags')}"]
    if r.get("virtual"):
        bits.append("virtual")
    if r.get("powered_down"):
        bits.append("powered down")
    if r.get("locked"):
        bits.append("fused " + ", ".join(f"{k}={v}" for k, v in r["locked"].items()))
    if r.get("archive"):
        bits.append(f"archive {r['archive']}")
    return "  ".join(bits)
