"""The ``referee`` command line."""

from __future__ import annotations

import json
import sys

import click

from . import __version__
from .cli_help import SectionedGroup, apply_summaries


@click.group(cls=SectionedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """A play-by-email referee for RoboRally.

    Players and the game master use it by mail; the operator runs 'referee tick' from cron and checks
    the settings with 'referee config check'. Every command has its own --help.
    """


@main.command()
@click.argument("scenario", type=click.File("rb"))
@click.option("--indent", type=int, default=2, show_default=True, help="JSON indent (0 for one line).")
def simulate(scenario: click.utils.LazyFile, indent: int) -> None:
    """Resolve one SCENARIO (a JSON file, or - for standard input) and print the result as JSON.

    Exit status 2 with a one-line reason on standard error for a scenario that cannot be accepted.
    """
    from .scenario import ScenarioError, parse_json
    from .scenario import simulate as run

    try:
        result = run(parse_json(scenario.read()))
    except ScenarioError as exc:
        click.echo(f"referee simulate: {exc}", err=True)
        sys.exit(2)
    click.echo(json.dumps(result, indent=indent or None))


@main.group()
def board() -> None:
    """Boards and courses."""


@board.command("list")
def board_list() -> None:
    """List the boards and courses that can be named."""
    from .boards import list_boards

    for name, kind, path in list_boards():
        click.echo(f"{name:<24} {kind:<7} {path}")


@board.command("show")
@click.argument("name")
@click.option("--no-legend", is_flag=True, help="Only the picture.")
def board_show(name: str, no_legend: bool) -> None:
    """Print an ASCII picture of board or course NAME."""
    from .boards import BoardNotFound, load_board
    from .engine import BoardError
    from .engine.ascii import render

    try:
        b = load_board(name)
    except (BoardNotFound, BoardError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{b.name}: {b.width} x {b.height}, flags {b.flag_count}, starts {len(b.starts)}")
    click.echo(render(b, legend=not no_legend))


@board.command("kinds")
@click.option("--markdown", is_flag=True, help="the element table of docs/boards.md")
def board_kinds(markdown: bool) -> None:
    """List the element kinds, their fields and what they do."""
    from .engine import KINDS
    from .engine.kinds import kinds_table

    if markdown:
        click.echo(kinds_table())
        return
    for kind in KINDS.values():
        fields = ", ".join(f.name + ("" if f.required else f" (default {f.default})") for f in kind.fields)
        click.echo(f"{kind.name:<11} {fields or '-':<34} {kind.summary}")


@board.command("check")
@click.argument("names", nargs=-1)
def board_check(names: tuple[str, ...]) -> None:
    """Validate board and course files (all of them by default)."""
    from .boards import BoardNotFound, list_boards, load_board
    from .engine import BoardError

    targets = list(names) or [n for n, _, _ in list_boards()]
    bad = 0
    for name in targets:
        try:
            b = load_board(name)
            click.echo(f"ok     {name} ({b.width}x{b.height})")
        except (BoardNotFound, BoardError) as exc:
            bad += 1
            click.echo(f"error  {exc}")
    if bad:
        sys.exit(1)


@main.command()
@click.option("--dir", "workdir", default="referee-demo", show_default=True, type=click.Path(file_okay=False),
              help="Working directory (made afresh each run).")
@click.option("--course", default="sprint", show_default=True, help="Course to play on.")
@click.option("--turns", default=8, show_default=True, help="Turns to play at most.")
@click.option("--seed", default="demo", show_default=True, help="Seed of the game (same seed, same game).")
def demo(workdir: str, course: str, turns: int, seed: str) -> None:
    """Play a whole game by mail on embedded defaults (SQLite, Maildirs): no mail server needed."""
    from pathlib import Path

    from .demo import run_demo

    try:
        run_demo(Path(workdir), turns=turns, course=course, seed=seed, echo=click.echo)
    except FileExistsError as exc:
        raise click.ClickException(str(exc)) from None


# the game store (issue 3): referee --config FILE, referee db ..., referee game ...
from .cli_db import db_group  # noqa: E402
from .cli_support import make_config_option  # noqa: E402
from .games.cli import game_group  # noqa: E402

main.params.append(make_config_option())
main.add_command(db_group)
main.add_command(game_group)

# the outbox and the public archive (issue 5): referee outbox ..., referee archive ...
from .archive.cli import archive_group  # noqa: E402
from .mailer.cli import outbox_group  # noqa: E402

main.add_command(outbox_group)
main.add_command(archive_group)

@main.command("gm")
@click.argument("game")
@click.argument("commands", nargs=-1)
@click.option("--file", "file", type=click.File("r"), help="Read the command lines from a file (- for stdin).")
def gm_command(game: str, commands: tuple[str, ...], file: click.utils.LazyFile | None) -> None:
    """Run game master commands on GAME (use - for none, e.g. before NEWGAME), one per argument.

    \b
    Example: referee gm RR-7 "SET DEADLINE +2d" "HOLD FOR REVIEW ON"
    The same commands work by mail between BEGIN GM RR-7 key <secret> and END (see HELP).
    """
    from .cli_support import cli_actor as _actor
    from .cli_support import cli_settings as _settings
    from .cli_support import open_store as _open_store
    from .clock import now
    from .gm import answer_text, run_block
    from .gm.language import GmBlock, parse_lines

    lines = list(commands) + (file.read().splitlines() if file is not None else [])
    parsed, errors = parse_lines(list(enumerate(lines, start=1)))
    block = GmBlock(game=None if game == "-" else game.upper(), commands=parsed, errors=errors, found=True)
    settings = _settings()
    store = _open_store()
    ctx = run_block(store, settings, block, actor=_actor(), now=now(), reply_to=settings.gm_address or None)
    click.echo(answer_text(block, ctx), nl=False)
    if ctx.failures or ctx.skipped or errors:
        sys.exit(1)


@main.command("tick")
@click.option("--verbose", "-v", is_flag=True, help="Log every step to standard error.")
def tick_command(verbose: bool) -> None:
    """One pass of the service, for cron: mail in, orders, due turns, reminders, mail out.

    Prints a one-line summary. Exit status 0 when all went well (or another tick was running),
    1 when a step failed (the summary says which; the next tick tries again).
    """
    from . import logs
    from .cli_support import cli_settings as _settings
    from .clock import now
    from .tick import tick

    settings = _settings()
    logs.setup(settings.log_level, verbose)
    summary = tick(settings, now=now())
    click.echo(summary.line())
    if not summary.ok:
        sys.exit(1)


# reading mail (issue 4): referee poll, referee ingest, referee process, referee mail ...
from .intake.cli import ingest_command, mail_group, poll_command, process_command  # noqa: E402

main.add_command(poll_command)
main.add_command(ingest_command)
main.add_command(process_command)
main.add_command(mail_group)

# configuration check (issue 7): referee config check, alias referee doctor
@main.group("config")
def config_group() -> None:
    """The settings: one TOML file (--config or $REFEREE_CONFIG) and REFEREE_<NAME> variables."""


@config_group.command("check")
@click.option("--json", "as_json", is_flag=True, help="The verdicts as JSON.")
@click.option("--timeout", type=float, metavar="SECONDS",
              help="Time allowed to each mail server (default: the mail_timeout setting).")
@click.option("--send-test", "send", is_flag=True,
              help="Also mail the referee's own reply address and wait for it to arrive: in the IMAP "
                   "mailbox, or (transport smtp without an IMAP account) in the store, by referee ingest.")
def config_check(as_json: bool, timeout: float | None, send: bool) -> None:
    """Check the settings and try every part: the database, the boards, the Maildirs or the IMAP and
    SMTP servers (logging in, sending nothing), the lock file, the fonts.

    One line per item: ok, warning, FAILED (with the fix) or skipped. Secrets are never shown.
    Exit status 0 when nothing FAILED, 1 otherwise. Also: referee doctor.
    """
    from .cli_support import CONFIG_META
    from .doctor import main as check

    sys.exit(check(click.get_current_context().meta.get(CONFIG_META), as_json=as_json, timeout=timeout, send=send))


main.add_command(click.Command("doctor", callback=config_check.callback, params=config_check.params,
                               help="The same as 'referee config check'."))

# sharing due turns between workers (issue 19): referee resolve-due
from .workers import resolve_due_command  # noqa: E402

main.add_command(resolve_due_command)
apply_summaries(main)


if __name__ == "__main__":
    main()
