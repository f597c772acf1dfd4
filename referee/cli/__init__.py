"""The ``referee`` command line."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from .. import __version__
from ..console.help import SectionedGroup, apply_summaries, config_option

#: commands loaded only when used (``referee --version`` and ``--help`` import none of them)
LAZY = {
    "board": "referee.cli.board:board_group",
    "db": "referee.console.db:db_group",
    "game": "referee.cli.game:game_group",
    "gm-admin": "referee.gm.admin:gm_admin_group",
    "outbox": "referee.mailer.cli:outbox_group",
    "archive": "referee.archive.cli:archive_group",
    "poll": "referee.intake.cli:poll_command",
    "ingest": "referee.intake.cli:ingest_command",
    "process": "referee.intake.cli:process_command",
    "mail": "referee.intake.cli:mail_group",
    "resolve-due": "referee.cron.workers:resolve_due_command",
    "compile-engine": "referee.compiled_engine.cli:compile_engine_command",
}


@click.group(cls=SectionedGroup, lazy=LAZY, context_settings={"help_option_names": ["-h", "--help"]})
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
    import json

    from ..boards.scenario import ScenarioError, parse_json, parse_scenario
    from ..boards.scenario import simulate as run

    try:
        data = parse_json(scenario.read())
        parse_scenario(data)   # every fault of the input, before the engine runs
    except ScenarioError as exc:
        fail(f"referee simulate: {exc}")
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
        fail(f"referee simulate: a value of the scenario has the wrong type or size ({type(exc).__name__}: "
             f"{str(exc)[:120]})")
    click.echo(json.dumps(run(data), indent=indent or None))


def fail(line: str) -> NoReturn:
    """Exit status 2 with one line on standard error (the scenario contract)."""
    click.echo(" ".join(line.split()), err=True)
    sys.exit(2)



@main.command()
@click.option("--dir", "workdir", default="referee-demo", show_default=True, type=click.Path(file_okay=False),
              help="Working directory (made afresh each run).")
@click.option("--course", default="sprint", show_default=True, help="Course to play on.")
@click.option("--turns", default=8, show_default=True, help="Turns to play at most.")
@click.option("--seed", default="demo", show_default=True, help="Seed of the game (same seed, same game).")
def demo(workdir: str, course: str, turns: int, seed: str) -> None:
    """Play a whole game by mail on embedded defaults (SQLite, Maildirs): no mail server needed."""
    from pathlib import Path

    from .demo import DemoError, run_demo

    try:
        run_demo(Path(workdir), turns=turns, course=course, seed=seed, echo=click.echo)
    except (FileExistsError, DemoError) as exc:
        raise click.ClickException(str(exc)) from None


main.params.append(config_option())

@main.command("gm")
@click.argument("game")
@click.argument("commands", nargs=-1)
@click.option("--file", "file", type=click.File("r"), help="Read the command lines from a file (- for stdin).")
@click.option("--json", "as_json", is_flag=True, help="The answer as JSON: each line done or not, and why.")
def gm_command(game: str, commands: tuple[str, ...], file: click.utils.LazyFile | None, as_json: bool) -> None:
    """Run game master commands on GAME (use - for none, e.g. before NEWGAME), one per argument.

    \b
    Example: referee gm RR-7 "SET DEADLINE +2d" "HOLD FOR REVIEW ON"
    The same commands work by mail between BEGIN GM RR-7 key <secret> and END (see HELP).
    """
    from ..common.clock import now
    from ..console.support import cli_actor as _actor
    from ..console.support import cli_settings as _settings
    from ..console.support import open_store as _open_store
    from ..gm import answer_text, run_block
    from ..gm.language import GmBlock, parse_lines, unread_commands

    lines = list(enumerate(list(commands) + (file.read().splitlines() if file is not None else []), start=1))
    parsed, errors = parse_lines(lines)
    block = GmBlock(game=None if game == "-" else game.upper(), commands=parsed, errors=errors, found=True,
                    unread=unread_commands(lines, errors))
    settings = _settings()
    store = _open_store()
    ctx = run_block(store, settings, block, actor=_actor(), now=now(), reply_to=settings.gm_address or None)
    if as_json:
        from ..console.support import echo_json

        echo_json({"game": ctx.game, "not_read": block.errors, "failed": ctx.failures, "not_run": ctx.skipped,
                   "commands": ctx.results})
    else:
        click.echo(answer_text(block, ctx), nl=False)
    if ctx.failures or ctx.skipped or errors:
        sys.exit(1)


@main.command("tick")
@click.option("--verbose", "-v", is_flag=True, help="Log every step to standard error.")
@click.option("--json", "as_json", is_flag=True, help="The summary and the health figures as JSON.")
@click.option("--quiet", "-q", is_flag=True,
              help="Print only a line when a fault starts and one when it ends (for cron's MAILTO).")
@click.option("--log-file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Append the log and the summary line to FILE instead of printing them.")
def tick_command(verbose: bool, as_json: bool, quiet: bool, log_file: str | None) -> None:
    """One pass of the service, for cron: mail in, orders, due turns, reminders, mail out.

    \b
    Prints a one-line summary, and a line when a fault starts or ends (mail not going
    out for an hour, no mail fetched for an hour, a turn that cannot be resolved, a
    failing step); with --quiet only those lines. Exit status:
      0  all went well (or another tick was running)
      1  a step failed in this tick (the summary says which; the next tick tries again)
      2  the settings cannot be used (one line says which and why)
      4  the tick ran, but a fault lasts (referee status shows it)
    """
    from ..console.support import cli_settings as _settings
    from ..console.support import json_errors

    with json_errors(as_json):
        settings = _settings()
    import time

    from ..common import logs
    from ..common.clock import now
    from ..cron.tick import tick

    try:
        logs.setup(settings.log_level, verbose, file=log_file)
    except OSError as exc:
        raise click.ClickException(f"cannot write the log file {log_file}: {exc.strerror}") from None
    if quiet and not log_file:
        logs.setup("critical")   # the faults' lines say what needs a look, once each
    summary = tick(settings, now=now())
    if log_file:   # the summary line too, whatever the log level
        with open(log_file, "a") as fh:
            fh.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime())}Z {summary.line()}\n")
    if as_json:
        from ..console.support import echo_json

        echo_json(summary.as_dict())
    else:
        for change in summary.changes:
            click.echo(change)
        if not quiet and not log_file:
            click.echo(summary.line())
    sys.exit(summary.exit_code)


@main.command("status")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
def status_command(as_json: bool) -> None:
    """The service's health as the last tick left it: the last tick, the last fetch that worked, the mails
    waiting (and the age of the oldest), those that failed for good, and every fault that lasts.

    Exit status 0 when healthy, 4 while a fault lasts (as referee tick), 1 when the store cannot be read.
    """
    from ..console.support import json_errors, store_session

    with json_errors(as_json):
        from ..common.clock import now
        from ..cron.health import EXIT_DEGRADED, measure

        with store_session(write=False) as s:
            found = measure(s, now())
    if as_json:
        from ..console.support import echo_json

        echo_json(found.as_dict())
    else:
        click.echo("\n".join(found.lines()))
    sys.exit(EXIT_DEGRADED if found.degraded else 0)


# the settings: referee config check (alias referee doctor), config init, config show
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
    from ..console.support import CONFIG_META
    from ..doctor import main as check

    sys.exit(check(click.get_current_context().meta.get(CONFIG_META), as_json=as_json, timeout=timeout, send=send))


from .config import config_init, config_show  # noqa: E402

config_group.add_command(config_init)
config_group.add_command(config_show)

main.add_command(click.Command("doctor", callback=config_check.callback, params=config_check.params,
                               help="The same as 'referee config check'."))

apply_summaries(main)

