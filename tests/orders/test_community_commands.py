"""Reading a player's (or anyone's) own commands (issue 31): which mails are command mails, and what each
line says."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from referee.orders.community import read_commands, split_begin, subject_token


def lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


def test_a_mail_whose_first_line_is_no_command_is_left_to_the_orders():
    assert read_commands(lines("1: FWD2 670\n2: LF90\n")) is None
    assert read_commands(lines("List of my orders:\n1: FWD2 670\n")) is None
    assert read_commands(lines("Press on!\n1, 2, 3, 4, 5\n")) is None


def test_anyones_commands_are_read_one_a_line():
    mail = read_commands(lines("\nLIST\nJOIN rr-7 AS Twonky\nWHOIS <Alice@Example.org>\nOBSERVE RR-8\n"))
    assert mail is not None and mail.errors == [] and mail.open_to_all
    assert [(c.name, c.args) for c in mail.commands] == [
        ("list", {}), ("join", {"game": "RR-7", "robot": "Twonky"}),
        ("whois", {"address": "alice@example.org", "robot": None}), ("observe", {"game": "RR-8"})]


def test_a_join_without_a_name_asks_for_one_to_be_offered():
    (join,) = read_commands(lines("JOIN RR-7")).commands
    assert join.args == {"game": "RR-7", "robot": None}


def test_a_players_own_commands_need_the_key():
    mail = read_commands(lines("RESIGN RR-7\nSET ADDRESS new@example.org\nSET WHOIS on\nGAMES\n"
                               "ABSENT 2026-12-01 TO 2026-12-08\n"))
    assert not mail.open_to_all
    assert [c.name for c in mail.commands] == ["resign", "set_address", "set_whois", "games", "absent"]
    absent = mail.commands[-1].args
    assert absent == {"starts": datetime(2026, 12, 1, tzinfo=UTC), "ends": datetime(2026, 12, 8, tzinfo=UTC)}


def test_press_takes_every_line_after_it_up_to_end():
    mail = read_commands(lines("PRESS TO Hammer\nA pact?\n\nYours, T.\nEND\nafter the end"))
    (press,) = mail.commands
    assert press.args == {"to": "Hammer", "message": "A pact?\n\nYours, T."}
    assert read_commands(lines("PRESS TO ALL\nhi")).commands[0].args["to"] is None


@pytest.mark.parametrize("text, problem", [
    ("JOIN", "JOIN <game>"),
    ("JOIN RR 7", "JOIN <game>"),
    ("JOIN RR-7 AS 1bad", "no robot name"),
    ("PRESS TO ALL", "PRESS needs the message"),
    ("LIST\nFLY AWAY", "unknown command"),
])
def test_a_line_that_cannot_be_read_is_reported_with_why(text, problem):
    mail = read_commands(lines(text))
    assert mail is not None and any(problem in e for e in mail.errors), mail.errors


@pytest.mark.parametrize("text, problem", [
    ("SET ADDRESS not-an-address", "no plain mail address"),
    ("SET ADDRESS a\x01b@example.org", "no control characters"),
    ("SET ADDRESS alice@localhost", "domain must be like example.org"),
    ("SET ADDRESS alice@[127.0.0.1]", "domain must be like example.org"),
    ("WHOIS \"ab\"@example.org", "no plain mail address"),
    ("ABSENT 2026-12-08 TO 2026-12-01", "the last day (2026-12-01) comes before the first"),
    ("ABSENT 2026-01-01 TO 2026-12-31", "at most 90 days, first and last day included (this one is 365)"),
    ("ABSENT 2026-12-01 TO 2026-12-40", "'2026-12-40' is no day"),
    ("PRESS TO ALL\n" + "x" * 5000, "at most 4000 characters (this has 5000)"),
])
def test_a_value_out_of_its_range_is_a_command_answered_not_done_with_the_range(text, problem):
    """The command is written right, so the mail is a command mail; its value is refused, with why."""
    mail = read_commands(lines(text))
    assert mail is not None and mail.errors == []
    (command,) = mail.commands
    assert problem in command.args["problem"], command.args


def test_greetings_sign_offs_and_names_around_commands_are_left_out():
    for text in ("Hi,\n\nLIST\n\nThanks,\nAlice", "Hello Referee!\nLIST\nCheers", "LIST\n\n-- \nAlice Example",
                 "Hallo zusammen,\nLIST\nViele Grüße\nAnna", "Bonjour,\nLIST\nMerci !\nÉlodie",
                 "Hola:\nLIST\nSaludos,\nJosé", "Hoi,\nLIST\nGroeten,\nDaan", "LIST\nSent from my iPhone",
                 "Dear referee,\n\nLIST\n\nBest regards,\nAlice Example\nChess club"):
        mail = read_commands(lines(text))
        assert mail is not None, text
        assert [c.name for c in mail.commands] == ["list"] and mail.errors == [] and mail.skipped == [], text


def test_prose_between_commands_is_named_and_a_mistyped_command_is_an_error():
    mail = read_commands(lines("LIST\nI am new here.\nJoim RR-7\nGAMSE\nWHOIS Twonky"))
    assert [c.name for c in mail.commands] == ["list", "whois"]
    assert mail.skipped == ["I am new here."]
    assert len(mail.errors) == 2 and "did you mean JOIN?" in mail.errors[0] and "did you mean GAMES?" in mail.errors[1]


def test_press_loses_terminal_escapes_and_bidi_controls_but_keeps_its_lines():
    mail = read_commands(lines("PRESS TO ALL\nred \x1b[31malert\x1b[0m\n\u202eevil\u202c text\tend\nEND"))
    assert mail.commands[0].args["message"] == "red [31malert[0m\nevil text\tend"


def test_a_begin_line_without_a_turn_carries_the_key_of_the_commands_after_it():
    begin, rest = split_begin(lines("BEGIN rr-7 Twonky key abc123\nGAMES\nEND"))
    assert (begin.game, begin.robot, begin.key) == ("RR-7", "Twonky", "abc123")
    assert [c.name for c in read_commands(rest).commands] == ["games"]
    assert split_begin(lines("GAMES"))[0] is None


def test_confirm_and_unsubscribe_tokens_are_found_in_the_subject():
    assert subject_token("Re: RR-7: please confirm [confirm c.12.abcdefghijklmnop]") == \
        ("confirm", "c.12.abcdefghijklmnop")
    assert subject_token("UNOBSERVE RR-7 [unobserve o.3.abcdefghijklmnop]") == ("unobserve", "o.3.abcdefghijklmnop")
    assert subject_token("Re: RR-7 turn 3 results") is None
