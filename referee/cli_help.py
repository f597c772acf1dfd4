"""``referee --help``: the commands grouped by who uses them, each summed up in one whole sentence.

The summaries live here rather than in the commands' docstrings, whose first line click would cut at
45 characters. A command added later without an entry here is listed under "Other commands" with
click's own summary, and the help test asks for an entry.
"""

from __future__ import annotations

import click

#: (heading, top-level commands), in the order --help shows them
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("For the game master", ("gm", "game")),
    ("For the operator, running the service", ("tick", "resolve-due", "config", "doctor", "db", "outbox", "archive")),
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
    "tick": "Run one pass of the service: cron runs it every few minutes.",
    "resolve-due": "Resolve the turns due now, sharing them with other workers (PostgreSQL).",
    "config": "Look at the settings and check them.",
    "config check": "Check the settings and try every part they use.",
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
    "board": "List, draw and check the boards and courses.",
    "board list": "List the boards and courses that can be named.",
    "board show": "Draw a board or course in ASCII.",
    "board check": "Check board and course files.",
    "board kinds": "List the element kinds and what they do.",
    "simulate": "Resolve one turn described in JSON and print what happened.",
    "demo": "Play a whole game by mail on this machine, without a mail server.",
}


class SectionedGroup(click.Group):
    """A click group whose help lists its commands under the headings of :data:`SECTIONS`."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = [n for n in self.list_commands(ctx) if (c := self.get_command(ctx, n)) is not None and not c.hidden]
        placed: set[str] = set()
        for heading, members in (*SECTIONS, ("Other commands", tuple(names))):
            rows = []
            for name in members:
                command = self.get_command(ctx, name)
                if name in placed or name not in names or command is None:
                    continue
                placed.add(name)
                rows.append((name, command.get_short_help_str(limit=200)))
            if rows:
                with formatter.section(heading):
                    formatter.write_dl(rows)


def apply_summaries(group: click.Group, prefix: str = "") -> None:
    """Give every command of ``group`` (and of its groups) its summary from :data:`SUMMARIES`."""
    for name, command in group.commands.items():
        path = f"{prefix}{name}"
        if path in SUMMARIES:
            command.short_help = SUMMARIES[path]
        if isinstance(command, click.Group):
            apply_summaries(command, f"{path} ")
