"""``referee --help``: the commands grouped by who uses them, each summed up in one whole sentence.

The summaries live here rather than in the commands' docstrings, whose first line click would cut at
45 characters. A command added later without an entry here is listed under "Other commands" with
click's own summary, and the help test asks for an entry.
"""

from __future__ import annotations

import click

#: where the --config value is kept (as :data:`referee.console.support.CONFIG_META`)
CONFIG_META = "referee.common.config"

#: (heading, top-level commands), in the order --help shows them
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("For the game master", ("gm", "game")),
    ("For the operator, running the service", ("tick", "status", "resolve-due", "config", "doctor", "db", "outbox",
                                                "archive", "gm-admin", "compile-engine")),
    ("For the operator, moving mail by hand", ("poll", "ingest", "process", "mail")),
    ("For anyone: boards, rules and the demo", ("board", "simulate", "demo")),
)

#: command path (without "referee") -> its summary
SUMMARIES: dict[str, str] = {
    "gm": "Run game master commands at the shell, as in a GM mail.",
    "game": "Create, seat, start, play and inspect games turn by turn.",
    "game new": "Create a game on a course.",
    "game add-player": "Seat a player with a robot in a game.",
    "game start": "Place the robots and deal the first hands.",
    "game status": "Show a game, its open turn and every robot.",
    "game list": "List the games.",
    "game hand": "Show a robot's hand for the open turn.",
    "game program": "Enter a robot's program for the open turn.",
    "game resolve": "Resolve the open turn of some games, or of all, now.",
    "game show-turn": "Show a turn's seed, hands, programs and events.",
    "game replay": "Play a stored turn again and compare it with what was stored.",
    "gm-admin": "Add, list and remove game masters; move a game to another one.",
    "gm-admin add": "Add a game master and show their key once.",
    "gm-admin new-key": "Give a game master a new key and show it once.",
    "gm-admin list": "List the game masters and their games.",
    "gm-admin remove": "Remove a game master; their key stops working.",
    "gm-admin transfer": "Make another game master the master of a game.",
    "tick": "Run one pass of the service: cron runs it every few minutes.",
    "status": "Show the service's health: faults, mail waiting, the last fetch.",
    "resolve-due": "Resolve the turns due now, sharing them with other workers (PostgreSQL).",
    "config": "Look at the settings and check them.",
    "config check": "Check the settings and try every part they use.",
    "config init": "Write the commented sample settings file, with a fresh GM secret.",
    "config show": "Show the settings in effect, secrets masked.",
    "doctor": "Do the same as 'referee config check'.",
    "db": "Create, upgrade or inspect the database schema.",
    "db upgrade": "Bring the schema to the newest revision.",
    "db downgrade": "Take the schema back to an older revision.",
    "db current": "Show the schema's revision and the newest one.",
    "outbox": "Send, list, show or retry the mails waiting to go out.",
    "outbox send": "Send the mails that are due.",
    "outbox list": "List outgoing mails, newest first, with their sizes.",
    "outbox show": "Show one outgoing mail.",
    "outbox retry": "Queue failed or cancelled mails again.",
    "archive": "Build the public archive of every game's turns.",
    "archive build": "Write or update the static site.",
    "poll": "Take the new mail from the inbox and store it.",
    "ingest": "Store one mail piped in by the mail server.",
    "process": "Read the stored mails and carry out what they say.",
    "mail": "List, show or reprocess the stored incoming mails.",
    "mail list": "List the newest incoming mails and what was made of them.",
    "mail show": "Show one incoming mail.",
    "mail reprocess": "Put mails back to be processed again.",
    "compile-engine": "Compile the rules engine to C for faster turns.",
    "board": "List, draw and check the boards and courses.",
    "board list": "List the boards and courses that can be named.",
    "board show": "Draw a board or course in ASCII (or as a picture with --png).",
    "board check": "Check board and course files.",
    "board kinds": "List the element kinds and what they do.",
    "simulate": "Resolve one turn described in JSON and print what happened.",
    "demo": "Play a whole game by mail on this machine, without a mail server.",
}


class SectionedGroup(click.Group):
    """A click group whose help lists its commands under the headings of :data:`SECTIONS`.

    Commands named in ``lazy`` (name -> ``"module:attribute"``) are imported only when they are run (or
    their own help is asked for), so that ``referee --version`` and ``referee --help`` load none of the
    application: the help lists them with their summary from :data:`SUMMARIES`.
    """

    def __init__(self, *args: object, lazy: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy: dict[str, str] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            import importlib

            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            self.add_command(command, cmd_name)
            prepare(command, f"{cmd_name} ")
        return self.commands.get(cmd_name)

    def _summary(self, ctx: click.Context, name: str) -> str | None:
        """A command's line in the help (None: hidden), without importing a lazy one that has a summary."""
        if name not in self.commands and name in SUMMARIES:
            return SUMMARIES[name]
        command = self.get_command(ctx, name)
        return None if command is None or command.hidden else command.get_short_help_str(limit=200)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        lines = {n: s for n in self.list_commands(ctx) if (s := self._summary(ctx, n)) is not None}
        placed: set[str] = set()
        for heading, members in (*SECTIONS, ("Other commands", tuple(lines))):
            rows = []
            for name in members:
                if name in placed or name not in lines:
                    continue
                placed.add(name)
                rows.append((name, lines[name]))
            if rows:
                with formatter.section(heading):
                    formatter.write_dl(rows)


def _remember(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """Keep the settings file for the commands (``ctx.meta`` is shared by a command and its group)."""
    if value:
        ctx.meta[CONFIG_META] = value


def config_option() -> click.Option:
    """``--config FILE`` / ``-c FILE``: accepted on the group and after any command alike."""
    return click.Option(["--config", "-c"], metavar="FILE", expose_value=False, is_eager=True, callback=_remember,
                        help="Settings file (TOML); default $REFEREE_CONFIG. REFEREE_<NAME> variables override it.")


def prepare(command: click.Command, path: str = "") -> None:
    """Give ``command`` (and every command under it) its summary and the ``--config/-c`` option."""
    name = path.strip()
    if name in SUMMARIES:
        command.short_help = SUMMARIES[name]
    if not any("--config" in getattr(p, "opts", ()) for p in command.params):
        command.params.append(config_option())
    if isinstance(command, click.Group):
        for sub_name, sub in command.commands.items():
            prepare(sub, f"{path}{sub_name} ")


def apply_summaries(group: click.Group, prefix: str = "") -> None:
    """Give every command of ``group`` (and of its groups) its summary from :data:`SUMMARIES` and the
    ``--config/-c`` option (lazy commands get them when they are loaded)."""
    for name, command in group.commands.items():
        prepare(command, f"{prefix}{name} ")
