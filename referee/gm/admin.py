"""``referee gm-admin ...``: the operator's game masters (issue 31), through :mod:`referee.games.masters`.

The configured ``gm_address`` (with ``gm_secret``) is always a GM; ``add`` makes another one and prints
their key once (only a digest is kept). Errors are one line on standard error and exit status 1.
"""

from __future__ import annotations

import hashlib

import click

from ..common.clock import now as clock_now
from ..console.support import cli_actor, cli_settings, echo_json, store_session
from ..games import masters
from ..mailer.notices import notice


@click.group("gm-admin")
def gm_admin_group() -> None:
    """Game masters of this installation: add, list, remove; move a game to another GM."""


@gm_admin_group.command("add")
@click.argument("address")
def gm_add(address: str) -> None:
    """Add ADDRESS as a game master and print their key, once (it is not kept: only a digest is)."""
    settings = cli_settings()
    with store_session(write=True) as s:
        handed = masters.named_games(s, settings, address)
        row, key = masters.add_gm(s, settings, address, actor=cli_actor(), now=clock_now())
        addr = row.address
    click.echo(f"{addr} is a game master. Their key (shown this once; give it to them privately):\n\n  {key}\n\n"
               f"They begin their GM mails with: BEGIN GM <game> key {key}\n"
               "and may change it by mail with SET SECRET.")
    if handed:
        click.echo(f"note: {', '.join(handed)} named {addr} as GM when made and were run by the configured GM "
                   f"until now: {addr} masters {'it' if len(handed) == 1 else 'them'} from now on "
                   "(referee gm-admin transfer GAME ADDRESS moves a game back)")


@gm_admin_group.command("new-key")
@click.argument("address")
def gm_new_key(address: str) -> None:
    """Give the game master at ADDRESS a new key (the old one stops working) and print it, once."""
    settings = cli_settings()
    with store_session(write=True) as s:
        key = masters.new_gm_key(s, settings, address, actor=cli_actor(), now=clock_now())
    click.echo(f"the new key of {address.strip().lower()} (shown this once):\n\n  {key}\n")


@gm_admin_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.option("--all", "show_all", is_flag=True, help="Also the removed game masters.")
def gm_list(as_json: bool, show_all: bool) -> None:
    """List the game masters and the games each masters and co-masters."""
    settings = cli_settings()
    with store_session(write=False) as s:
        rows = [r for r in masters.list_gms(s, settings) if r.active or show_all]
    if as_json:
        echo_json([{"address": r.address, "source": r.source, "active": r.active, "masters": r.masters,
                    "comasters": r.comasters} for r in rows])
        return
    if not rows:
        click.echo("no game masters (set gm_address and gm_secret, or: referee gm-admin add ADDRESS)")
    for r in rows:
        what = "configured (gm_address)" if r.source == "configured" else ("added" if r.active else "removed")
        games = f"masters {', '.join(r.masters) or 'no game'}"
        helps = f"; co-masters {', '.join(r.comasters)}" if r.comasters else ""
        click.echo(f"{r.address:<32} {what:<24} {games}{helps}")


@gm_admin_group.command("remove")
@click.argument("address")
def gm_remove(address: str) -> None:
    """Remove the game master at ADDRESS: their key stops working (their games must be transferred first)."""
    settings = cli_settings()
    now = clock_now()
    with store_session(write=True) as s:
        helped = masters.remove_gm(s, settings, address, actor=cli_actor(), now=now)
        addr = address.strip().lower()
        also = f" You no longer co-master {', '.join(helped)}." if helped else ""
        notice(s, settings, to=addr, subject="You are no longer a game master here",
               body=f"The operator of this referee ({settings.referee_address}) has removed you as a game master: "
                    f"your GM key no longer works, and GM mails from you are not obeyed.{also}\n"
                    "If this is a mistake, write to the operator.\n",
               key=f"gm-removed|{addr}|{now.isoformat()}", kind="gm", now=now)
    tail = f"; no longer co-masters {', '.join(helped)}" if helped else ""
    click.echo(f"{addr} is no longer a game master{tail}; they are told by mail")


@gm_admin_group.command("transfer")
@click.argument("game")
@click.argument("address")
def gm_transfer(game: str, address: str) -> None:
    """Make the game master at ADDRESS the master of GAME; both are told by mail."""
    settings = cli_settings()
    now = clock_now()
    with store_session(write=True) as s:
        moved, old = masters.transfer(s, settings, game, address, actor=cli_actor(), now=now)
        new = moved.gm_address or ""
        key = hashlib.sha256(f"transfer|{moved.code}|{old}|{new}|{now.isoformat()}".encode()).hexdigest()[:20]
        notice(s, settings, to=new, subject=f"{moved.code}: you are its game master now",
               body=f"The operator has made you the game master of {moved.code}"
                    f"{f' (until now {old})' if old else ''}.\nYour GM commands act on it: "
                    f"BEGIN GM {moved.code} key <your key>. Send STATUS for where it stands.\n",
               key=key, kind="gm", game=moved, now=now)
        if old and old != new:
            notice(s, settings, to=old, subject=f"{moved.code}: now run by another game master",
                   body=f"The operator has made {new} the game master of {moved.code}; your GM commands no "
                        "longer act on it.\n", key=key, kind="gm", game=moved, now=now)
        code = moved.code
    click.echo(f"{code}: master {new}" + (f" (was {old}); both are told" if old else "; they are told"))
