"""The ``referee`` command line."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from pathlib import Path

from .. import __version__
from ..console.help import SectionedGroup, apply_summaries, config_option

#: commands loaded only when used (``referee --version`` and ``--help`` import none of them)
LAZY = {
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


@main.group()
def board() -> None:
    """Boards and courses."""


@board.command("list")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.option("--markdown", is_flag=True, help="The table of docs/boards.md (size, players, what each is about).")
def board_list(as_json: bool, markdown: bool) -> None:
    """List the boards and courses that can be named."""
    import json

    from ..boards import list_boards

    rows = list_boards()
    if markdown:
        from ..boards import boards_table

        click.echo(boards_table(rows))
        return
    if as_json:
        click.echo(json.dumps([{"name": n, "kind": k, "path": str(p)} for n, k, p in rows], indent=2))
        return
    for name, kind, path in rows:
        click.echo(f"{name:<24} {kind:<7} {path}")


@board.command("show")
@click.argument("name")
@click.option("--no-legend", is_flag=True, help="Only the picture.")
@click.option("--png", "png", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also draw the board as the turn pictures do, with its key below, into FILE (PNG).")
def board_show(name: str, no_legend: bool, png: str | None) -> None:
    """Print an ASCII picture of board or course NAME (or a board FILE), with the key of the kinds on it.

    A file with errors is drawn all the same, without the elements that failed: its errors are listed, the
    squares they name are framed in red in the PNG, and the exit status is 1.
    """
    from ..boards import check_board
    from ..engine.ascii import render

    shown, b, problems = check_board(name)
    if b is None:
        raise click.ClickException("; ".join(problems[:3]) + (f" (and {len(problems) - 3} more)"
                                                               if len(problems) > 3 else ""))
    click.echo(f"{b.name if b.name != 'board' else shown}: {b.width} x {b.height}, flags {b.flag_count}, "
               f"starts {len(b.starts)}")
    click.echo(render(b, legend=False))
    if not no_legend:
        click.echo("\n".join(board_key(b)))
    for number, problem in enumerate(problems, start=1):
        click.echo(f"error {number}: {problem}")
    if png:
        from pathlib import Path

        from ..render.board_image import draw_floor
        from ..render.legend import legend_image

        floor = draw_floor(b)
        if problems:
            mark_errors(floor, b, problems)
        save_png(floor, legend_image(b), Path(png))
        click.echo(f"picture: {png}" + (f" (the squares of the {len(problems)} error(s) framed in red)"
                                        if problems else ""))
    if problems:
        sys.exit(1)


def mark_errors(floor: object, board: object, problems: list[str]) -> None:
    """Frame in red, on the picture ``floor`` of ``board``, every square the ``problems`` name (r3c5, or a run
    r1c1-r1c6: its ends), with the error's number beside it."""
    import re

    from PIL import Image, ImageDraw

    from ..render.layout import CELL, Layout

    assert isinstance(floor, Image.Image)
    lay = Layout(board.width, board.height, CELL)  # type: ignore[attr-defined]  (as draw_floor lays it out)
    draw = ImageDraw.Draw(floor)
    for number, problem in enumerate(problems, start=1):
        for r, c in re.findall(r"\br(\d+)c(\d+)\b", problem.split(": ", 1)[-1]):
            sq = (int(r), int(c))
            if not (1 <= sq[0] <= board.height and 1 <= sq[1] <= board.width):  # type: ignore[attr-defined]
                continue
            x, y = lay.origin(sq)
            draw.rectangle((x + 1, y + 1, x + lay.cell - 2, y + lay.cell - 2), outline=(220, 0, 0), width=3)
            draw.text((x + 4, y + 2), str(number), fill=(220, 0, 0))


def board_key(b: object) -> list[str]:
    """The key of the kinds on board ``b`` only, then a note for each element that needs one."""
    from ..engine import KINDS
    from ..engine.geometry import square_name

    layers: dict = b.layers  # type: ignore[attr-defined]
    notes = []
    for kind_name, layer in layers.items():
        kind = KINDS[kind_name]
        if kind.legend is None:
            continue
        for sq, els in sorted(layer.items()):
            notes.extend(f"  {square_name(sq)}: {kind.legend(el)}" for el in els)
    keys = [KINDS[k].key for k in KINDS if k in layers and KINDS[k].key]
    if b.void:  # type: ignore[attr-defined]
        keys.append("::: off the course")
    return ["key: " + (", ".join(keys) or "plain floor"), *notes]


def save_png(floor: object, key: object, path: Path) -> None:
    """The board picture with its key below it, as one PNG."""
    from PIL import Image

    from ..render.png import png_bytes

    assert isinstance(floor, Image.Image) and isinstance(key, Image.Image)
    width = max(floor.width, key.width)
    whole = Image.new("RGB", (width, floor.height + key.height), (255, 255, 255))
    whole.paste(floor.convert("RGB"), (0, 0))
    whole.paste(key.convert("RGB"), (0, floor.height))
    try:
        path.write_bytes(png_bytes(whole))
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror}") from None


@board.command("kinds")
@click.option("--markdown", is_flag=True, help="the element table of docs/boards.md")
def board_kinds(markdown: bool) -> None:
    """List the element kinds, their fields and what they do."""
    from ..engine import KINDS
    from ..engine.kinds import kinds_table

    if markdown:
        click.echo(kinds_table())
        return
    for kind in KINDS.values():
        fields = ", ".join(f.name + ("" if f.required else f" (default {f.default})") for f in kind.fields)
        click.echo(f"{kind.name:<11} {fields or '-':<34} {kind.summary}")


@board.command("check")
@click.argument("names", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="The verdicts as JSON.")
def board_check(names: tuple[str, ...], as_json: bool) -> None:
    """Validate board and course files (NAMEs or PATHs to .toml files; all known ones by default).

    Every error of a file is listed, not only the first. A course must be raceable: every flag
    reachable on foot from every start square, in order. Exit status 1 when any file has an error.
    """
    import json

    from ..boards import check_board, list_boards

    targets = list(names) or [n for n, _, _ in list_boards()]
    verdicts = []
    for target in targets:
        name, b, problems = check_board(target)
        verdicts.append({"name": name, "ok": not problems, "errors": problems,
                         "size": f"{b.width}x{b.height}" if b is not None else None})
    if as_json:
        click.echo(json.dumps(verdicts, indent=2))
    else:
        for v in verdicts:
            if v["ok"]:
                click.echo(f"ok     {v['name']} ({v['size']})")
            for problem in v["errors"]:
                click.echo(f"error  {problem}")
    if any(not v["ok"] for v in verdicts):
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

