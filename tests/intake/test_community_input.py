"""Community input like the game master's (issue 41): every value a player, observer or stranger writes has a
range and a bad one is answered NOT DONE; greetings and sign-offs around commands are left out as in order
mails; observers leave by writing "unsubscribe" (or "stop", "abmelden", "désabonner"...); strangers are shown
LIST and JOIN first; a game LIST does not show is not told of. Mails go through the real intake (stored as a
poll stores them), shaped as Gmail, Outlook, Apple Mail, Thunderbird and phones write them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from referee import games as g
from referee.common.deadlines import when_text
from referee.games.observers import start_observing
from referee.intake.process import process_pending, referee_gm_handler
from referee.reports.final import KIND_FINAL
from referee.reports.mails import KIND_OBSERVER
from referee.store.community_models import Absence, Confirmation, Observer, PressMessage
from referee.store.mail_models import IncomingMail
from tests.corpus.clients import CLIENTS, LANGS, Original, build
from tests.corpus.situations import _original

from .helpers import GM, PLAYERS, address, incoming, mail, new_game, outbox, parse, player, text_of
from .stored import deliver, quiet  # noqa: F401  (the fixture)
from .test_community import T0, answer_to, forming, gm


def keyed(store, code: str, robot: str, *lines: str) -> str:
    """A block of a player's own commands with her key on the BEGIN line."""
    secret = player(store, code, robot).secret
    return f"BEGIN {code} {robot} key {secret}\n" + "\n".join(lines) + "\nEND\n"


def observe(store, settings, code: str, user: str) -> None:
    with store.write() as s:
        start_observing(s, settings, g.get_game(s, code), address(user), now=T0)


# -- ranges ---------------------------------------------------------------------------------------------
def test_an_absence_in_the_year_9999_is_refused_with_the_range_and_the_mail_never_ends_in_error(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("alice"), keyed(store, code, "Twonky", "ABSENT 9999-12-30 TO 9999-12-31")),
            now=T0)
    said = answer_to(store, address("alice"))
    assert "ABSENT 9999-12-30 TO 9999-12-31\n    NOT DONE: an absence starts at most 365 days ahead" in said
    assert incoming(store)[-1].outcome == "rejected"
    # processed again (as `referee mail reprocess` does): the same answer, no error
    with store.write() as s:
        row = incoming(store)[-1]
        s.get(type(row), row.id).outcome = "new"
    report = process_pending(store, quiet, now=T0 + timedelta(minutes=1), gm_handler=referee_gm_handler)
    assert report.outcomes == {"rejected": 1}
    with store.read() as s:
        assert s.scalars(select(Absence)).all() == []


@pytest.mark.parametrize("line, why", [
    ("ABSENT 2026-12-01 TO 2027-06-01", "an absence is at most 90 days, first and last day included (this one is 183)"
                                        "; send ABSENT for the first 90 days now and another one later, or RESIGN"),
    ("ABSENT 2026-11-01 TO 2026-11-10", "that absence is over already (today is 2026-11-20)"),
    ("ABSENT 2026-12-10 TO 2026-12-01", "the last day (2026-12-01) comes before the first (2026-12-10)"),
    ("ABSENT 2026-02-30 TO 2026-03-01", "'2026-02-30' is no day"),
    ("SET ADDRESS alice@[127.0.0.1]", "is no mail address (its domain must be like example.org)"),
    ("SET ADDRESS \x1b[2Jalice@example.org", "is no plain mail address (only letters, digits and . _ + - before the "
                                             "@; no control characters)"),
])
def test_a_value_out_of_range_is_answered_not_done_and_the_mail_is_a_command_mail(store, quiet, line, why):  # noqa: F811
    code = new_game(store, now=T0)
    body = "Hi,\n\n" + keyed(store, code, "Twonky", line) + "\nThanks,\nAlice\n"
    deliver(store, quiet, mail(address("alice"), body), now=T0)
    said = answer_to(store, address("alice"))
    assert "NOT DONE: " in said and why in said, said
    assert "could not be read" not in said
    assert outbox(store, kind="confirm") == [] and [m for m in outbox(store) if m.recipients == [GM]] == []


def test_an_absence_of_90_days_is_taken(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("alice"), keyed(store, code, "Twonky", "ABSENT 2026-12-01 TO 2027-02-28")),
            now=T0)
    assert "away from Tue 01 Dec 2026 to Sun 28 Feb 2027" in answer_to(store, address("alice"))


def test_press_is_relayed_without_terminal_escapes_or_bidi_controls(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    evil = "Deal?\x1b]0;owned\x07 \x1b[2J\u202eyaw siht\u202c\u2066ok\u2069"
    deliver(store, quiet, mail(address("alice"), keyed(store, code, "Twonky", "PRESS TO ALL", evil)), now=T0)
    relayed = [text_of(m.raw) for m in outbox(store, kind="press")]
    assert relayed and all("Deal?]0;owned [2Jyaw sihtok" in t for t in relayed)
    assert not any(c in t for t in relayed for c in "\x1b\x07\u202e\u202c\u2066\u2069")
    with store.read() as s:
        (kept,) = s.scalars(select(PressMessage)).all()
        assert "\x1b" not in kept.text and "\u202e" not in kept.text


# -- greetings and sign-offs, as real clients write them -----------------------------------------------------
@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_greetings_and_sign_offs_around_commands_are_left_out_in_every_client_and_language(store, quiet):  # noqa: F811
    code = "CL-1"
    with store.write() as s:
        game = g.create_game(s, course="sprint", code=code, seed="clients", now=T0, actor="test")
        for robot, user in PLAYERS.items():
            g.add_player(s, game, email=address(user), robot=robot, actor="test", now=T0)
        g.start_and_announce(s, quiet, game, actor="test", now=T0)
    turn_mail = next(m for m in outbox(store) if m.recipients == [address("alice")])
    o: Original = _original(turn_mail)
    langs = [lang for lang in LANGS if lang.code in ("en", "de", "fr", "es", "nl")]
    n = 0
    for client in CLIENTS:
        for lang in langs:
            n += 1
            body = f"{lang.hello}\n\nGAMES\n\n{lang.signoff}\n{lang.signature}"
            raw = build(client, lang, body, o, n=n, sender=address("alice"), to=o.reply_to)
            deliver(store, quiet, raw, now=T0 + timedelta(minutes=n))
            last = incoming(store)[-1]
            said = answer_to(store, address("alice"))
            assert last.outcome == "accepted", (client, lang.code, last.reason, said)
            assert f"Twonky in {code} (running, turn 1" in said and "could not be read" not in said, (client, said)
            assert "Taken for words" not in said, (client, lang.code, said)
    assert n == len(CLIENTS) * 5


def test_thirteen_command_mails_with_salutations_none_rejected(store, quiet):  # noqa: F811
    """Item 12 of issue 41: 6 of 13 such mails were reported unreadable; now none."""
    code = new_game(store, now=T0)
    bodies = ["Hi,\nLIST\nThanks,\nAlice", "LIST\n\nAlice", "Hello!\n\nGAMES\n\nCheers", "GAMES\n-- \nAlice Example",
              "Dear referee,\nSET WHOIS ON\nKind regards,\nAlice", "Hallo,\nGAMES\nDanke!\nAlice",
              "Bonjour,\nGAMES\nMerci,\nAlice", "Hola,\nGAMES\nGracias,\nAlice", "Hoi,\nGAMES\nBedankt,\nAlice",
              "GAMES\nThanks,", "Hey there,\nLIST\nBest,\nA.", "GAMES\n\nSent from my iPhone", "GAMES\nAlice"]
    for i, body in enumerate(bodies):
        lines = body.split("\n")
        at = next(n for n, t in enumerate(lines) if t.isupper() and len(t) > 3)
        lines[at] = keyed(store, code, "Twonky", lines[at]).rstrip("\n")
        deliver(store, quiet, mail(address("alice"), "\n".join(lines)), now=T0 + timedelta(minutes=i))
        said = answer_to(store, address("alice"))
        assert incoming(store)[-1].outcome == "accepted", (body, said)
        assert "could not be read" not in said and "unknown command" not in said, (body, said)


# -- observers leave by writing --------------------------------------------------------------------------------
STOP = ["unsubscribe", "Unsubscribe me please", "STOP", "Stop sending me these.", "remove me",
        "Please remove me from this list", "abmelden", "Bitte austragen, danke", "Keine Mails mehr bitte",
        "désabonner", "Je veux me désinscrire", "darme de baja", "Por favor, quiero darme de baja",
        "afmelden", "Graag uitschrijven"]


def test_an_observer_who_writes_unsubscribe_or_stop_in_any_of_five_languages_is_unsubscribed_with_one_answer(
        store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    for i, words in enumerate(STOP):
        user = f"watcher{i}"
        observe(store, quiet, code, user)
        deliver(store, quiet, mail(address(user), f"Hi,\n\n{words}\n\nThanks\n"), now=T0 + timedelta(minutes=i))
        answers = [m for m in outbox(store) if m.recipients == [address(user)]]
        assert len(answers) == 1, (words, [text_of(a.raw) for a in answers])
        assert f"you no longer observe {code}" in text_of(answers[0].raw), words
        assert incoming(store)[-1].outcome == "accepted"
    with store.read() as s:
        assert {o.status for o in s.scalars(select(Observer))} == {"left"}


def test_an_unsubscribe_in_the_subject_or_as_a_reply_to_the_results_ends_it_and_results_stop(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    observe(store, quiet, code, "heidi")
    observe(store, quiet, code, "ivan")
    gm(store, quiet, code, "PROCESS", now=T0 + timedelta(hours=1))
    results = {m.recipients[0]: m for m in outbox(store, kind=KIND_OBSERVER)}
    assert set(results) == {address("heidi"), address("ivan")}
    # every observer mail says in its text how to stop
    stop = f"To stop, reply with the word unsubscribe (or send UNOBSERVE {code})"
    assert all(stop in " ".join(text_of(m.raw).split()) for m in results.values())
    # heidi answers from her phone (Gmail on a phone: top-posted, quoting the results)
    o = _original(results[address("heidi")])
    lang = next(x for x in LANGS if x.code == "en")
    deliver(store, quiet, build("gmail", lang, "Stop sending me these", o, n=1, sender=address("heidi"), to=o.reply_to),
            now=T0 + timedelta(hours=1, minutes=5))
    assert f"you no longer observe {code}" in answer_to(store, address("heidi"))
    # ivan writes an empty mail whose subject says it
    deliver(store, quiet, mail(address("ivan"), "", subject="Unsubscribe"), now=T0 + timedelta(hours=1, minutes=6))
    assert f"you no longer observe {code}" in answer_to(store, address("ivan"))
    before = len(outbox(store, kind=KIND_OBSERVER))
    gm(store, quiet, code, "PROCESS", now=T0 + timedelta(hours=2))
    assert len(outbox(store, kind=KIND_OBSERVER)) == before


def test_a_pending_observer_who_says_stop_cannot_confirm_afterwards(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("heidi"), f"OBSERVE {code}"), now=T0)
    (confirm,) = outbox(store, kind="confirm")
    deliver(store, quiet, mail(address("heidi"), "stop"), now=T0 + timedelta(minutes=1))
    assert f"you no longer observe {code}" in answer_to(store, address("heidi"))
    deliver(store, quiet, mail(address("heidi"), "", subject=f"Re: {confirm.subject}"), now=T0 + timedelta(minutes=2))
    with store.read() as s:
        # NOT DONE, recorded; its answer would be the fourth mail in a day to an address that never confirmed
        # (her OBSERVE's answer, the confirmation, the answer to "stop"): the outbound policy holds it back
        (last,) = s.scalars(select(IncomingMail).where(IncomingMail.subject == f"Re: {confirm.subject}")).all()
        assert last.outcome == "rejected" and "1 not done" in (last.reason or "")
        assert "held back by the outbound policy" in (last.reason or "")
        assert s.scalars(select(Observer)).all() == []
        assert s.scalars(select(Confirmation)).one().done_at is None


def test_a_long_mail_that_mentions_stop_is_not_an_unsubscribe(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    observe(store, quiet, code, "heidi")
    deliver(store, quiet, mail(address("heidi"), "What a turn! Hammer could not stop at the pit and fell in. "
                                                  "I love watching this game, thank you for running it for us all, "
                                                  "it makes my week every week."), now=T0)
    with store.read() as s:
        assert s.scalars(select(Observer)).one().status == "active"


def test_end_game_sends_its_last_mail_to_observers_with_how_to_stop(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    observe(store, quiet, code, "heidi")
    gm(store, quiet, code, "PROCESS", now=T0 + timedelta(hours=1))
    gm(store, quiet, code, "END GAME", now=T0 + timedelta(hours=2))
    finals = [m for m in outbox(store, kind=KIND_FINAL) if m.recipients == [address("heidi")]]
    assert len(finals) == 1
    msg = parse(finals[0].raw)
    assert "game over" in str(msg["Subject"]) and not str(msg["Subject"]).startswith("[GM]")
    assert msg["List-Unsubscribe"]
    assert "To stop, reply with the word unsubscribe" in " ".join(text_of(finals[0].raw).split())
    with store.read() as s:
        secrets = [p.secret for p in g.get_game(s, code).players]
    assert not any(secret in finals[0].raw.decode(errors="replace") for secret in secrets)


# -- strangers ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("words", ["I want to join", "Hi, can I play?", "Ich möchte gerne mitspielen",
                                   "Je voudrais participer", "Quiero unirme a una partida", "Ik wil graag meedoen"])
def test_a_stranger_who_wants_to_join_is_shown_list_and_join_first_with_the_open_games(store, quiet, words):  # noqa: F811
    code = forming(store, "SU-9")
    gm(store, quiet, code, "OPEN SEATS 2")
    deliver(store, quiet, mail(address("dave"), words, subject="RoboRally"), now=T0)
    (note,) = outbox(store, kind="stranger")
    text = text_of(note.raw)
    assert note.subject == "RoboRally referee: how to join a game"
    assert text.index("LIST") < text.index("JOIN RR-7 AS") < text.index("game master")
    assert f"{code}  sprint: open for sign-up, 0 of 2 seats taken" in text


def test_a_strangers_help_leads_with_list_and_join(store, quiet):  # noqa: F811
    deliver(store, quiet, mail(address("dave"), "HELP"), now=T0)
    (answer,) = outbox(store, kind="stranger")
    text = text_of(answer.raw)
    assert text.index("LIST") < text.index("JOIN RR-7 AS") < text.index("game master") < text.index("BEGIN")


# -- a game LIST does not show is not told of -----------------------------------------------------------------------
def test_join_observe_unobserve_and_whois_answer_alike_for_an_unlisted_game_and_no_game(store, quiet):  # noqa: F811
    hidden = forming(store, "HID-1")
    with store.write() as s:
        g.add_player(s, hidden, email=address("zoe"), robot="Ghost", actor="test", now=T0)

    def answer(body: str, i: int) -> str:
        # a fresh stranger for each mail: one address that never asked gets at most 3 mails a day
        asker = address(f"dave{i}")
        deliver(store, quiet, mail(asker, body), now=T0 + timedelta(minutes=i))
        return answer_to(store, asker).split("\n", 1)[1]   # less the marker line with the answer's id

    for i, (there, absent) in enumerate([(f"JOIN {hidden}", "JOIN NOP-1"), (f"OBSERVE {hidden}", "OBSERVE NOP-1"),
                                         (f"UNOBSERVE {hidden}", "UNOBSERVE NOP-1")]):
        assert answer(there, 2 * i).replace(hidden, "NOP-1") == answer(absent, 2 * i + 1)
    assert "nobody known as Ghost" in answer("WHOIS Ghost", 10)
    assert outbox(store, kind="confirm") == []


# -- a mistake answered in the hour's digest -------------------------------------------------------------------------
def test_a_mistake_answered_in_the_digest_gives_the_deadline_as_a_time_not_a_stale_count(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    with store.read() as s:
        deadline = g.open_turn(s, g.get_game(s, code)).deadline
    late = deadline - timedelta(minutes=2)   # two minutes before the deadline; the digest leaves an hour later
    deliver(store, quiet, *[mail(address("alice"), f"1: gibberish {i}\n") for i in range(7)], now=late)
    (digest,) = outbox(store, kind="digest")
    text = text_of(digest.raw)
    assert "gibberish 6" in text and "Time left: 2 minutes" not in text
    assert f"Time left: until {when_text(deadline)}." in text
    first = outbox(store, kind="rejection")[0]   # an answer that goes at once still counts the minutes
    assert "Time left: 2 minutes, until" in text_of(first.raw)


def test_newgame_with_a_code_in_use_does_not_say_a_game_exists(store, quiet):  # noqa: F811
    forming(store, "USED-1")
    said = gm(store, quiet, "X", "NEWGAME USED-1 COURSE sprint")
    assert "NOT DONE: the code USED-1 cannot be used: leave it out (a free code is chosen)" in said
    assert "exists" not in said and "USED-1 created" not in said
