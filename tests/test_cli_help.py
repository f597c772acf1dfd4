"""``referee --help`` groups the commands by who uses them, and every summary is a whole sentence."""

from __future__ import annotations

import re

import click
from click.testing import CliRunner

from referee.cli import main
from referee.console.help import SECTIONS


def every_command(group: click.Group, prefix: str = ""):
    for name, command in group.commands.items():
        yield f"{prefix}{name}", command
        if isinstance(command, click.Group):
            yield from every_command(command, f"{prefix}{name} ")


def test_every_summary_is_one_whole_sentence():
    for path, command in every_command(main):
        summary = command.get_short_help_str(limit=200)
        assert summary[0].isupper() and summary.endswith(".") and "..." not in summary, (path, summary)


def test_the_help_lists_each_command_once_under_who_uses_it():
    text = CliRunner().invoke(main, ["--help"]).output
    for heading, names in SECTIONS:
        assert f"{heading}:" in text
        block = text.split(f"{heading}:", 1)[1].split("\n\n", 1)[0]
        for name in names:
            assert re.search(rf"^  {re.escape(name)}\s", block, re.MULTILINE), (heading, name)
    for name in main.commands:
        assert len(re.findall(rf"^  {re.escape(name)}\s", text, re.MULTILINE)) == 1, name
    placed = {n for _, names in SECTIONS for n in names}
    if set(main.commands) - placed:  # a command without a place is still shown
        assert "Other commands:" in text
