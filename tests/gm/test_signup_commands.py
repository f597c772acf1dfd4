"""The GM's sign-up and press commands as the command language reads them (issue 31)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from referee.gm.commands import HANDLERS, HELP
from referee.gm.language import GmSyntaxError, parse_command


def test_open_reads_the_game_the_seats_and_the_day_sign_up_ends():
    command = parse_command("OPEN RR-7 SEATS 6 UNTIL 2026-12-05")
    assert (command.name, command.args) == ("open", {"code": "RR-7", "seats": 6,
                                                     "until": datetime(2026, 12, 6, tzinfo=UTC)})
    assert parse_command("OPEN").args == {"code": None, "seats": None, "until": None}
    assert parse_command("OPEN UNTIL 2026-12-05 18:00").args["until"] == datetime(2026, 12, 5, 18, tzinfo=UTC)


@pytest.mark.parametrize("line, name, args", [
    ("AUTOSTART", "autostart", {"on": True}),
    ("AUTOSTART OFF", "autostart", {"on": False}),
    ("ACCEPT Twonky", "accept", {"who": "Twonky", "reason": ""}),
    ("REFUSE dave@example.org the table is full", "refuse", {"who": "dave@example.org",
                                                            "reason": "the table is full"}),
    ("PRESS GREY", "press", {"mode": "grey"}),
    ("PRESS ARCHIVE ON", "press_archive", {"on": True}),
    ("ON RESIGN AUTOPILOT", "on_resign", {"policy": "autopilot"}),
    ("ON ABSENCE WAIT", "on_absence", {"policy": "wait"}),
    ("SIGNUPS", "signups", {}),
    ("CLOSE", "close", {}),
])
def test_each_command_reads_as_meant_and_has_a_handler(line, name, args):
    command = parse_command(line)
    assert (command.name, command.args) == (name, args)
    assert command.name in HANDLERS


@pytest.mark.parametrize("line", ["OPEN SEATS many", "PRESS LOUD", "ON RESIGN MAYBE", "ACCEPT", "OPEN UNTIL soon"])
def test_a_wrong_line_is_refused(line):
    with pytest.raises(GmSyntaxError):
        parse_command(line)


def test_help_lists_the_sign_up_commands():
    assert "OPEN [RR-7] [SEATS 6] [UNTIL 2026-12-05]" in HELP and "PRESS OFF|GREY|WHITE" in HELP
