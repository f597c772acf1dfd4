"""Signing up, a player's own commands, press and observers, by mail (issue 31), on the fast path: mails
stored as a poll stores them and processed with the referee's own GM handler.

Rulings cited (docs/rulings.md): 18.9.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import make_msgid
from urllib.parse import unquote

from sqlalchemy import select

from referee import games as g
from referee.games import own, signup
from referee.games.tokens import reply_address
from referee.reports.mails import KIND_OBSERVER
from referee.store.community_models import Departure, Observer, PressMessage
from referee.store.models import Game, Player

from .helpers import GM, GM_SECRET, active_program, address, incoming, mail, new_game, outbox, parse, player, text_of
from .stored import deliver, quiet  # noqa: F401  (the fixture)

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def gm(store, settings, code: str, *lines: str, now: datetime = T0) -> str:
    """The GM mails ``lines``; the answer's text."""
    before = len(outbox(store, kind="gm_answer"))
    deliver(store, settings, mail(GM, f"BEGIN GM {code} key {GM_SECRET}\n" + "\n".join(lines) + "\nEND\n"), now=now)
    answers = outbox(store, kind="gm_answer")
    assert len(answers) == before + 1
    return text_of(answers[-1].raw)


def sent_to(store, who: str, kind: str | None = None) -> list[str]:
    """The texts of every mail queued to ``who`` (of ``kind``)."""
    return [text_of(m.raw) for m in outbox(store) if m.recipients == [who] and (kind is None or m.kind == kind)]


def answer_to(store, who: str) -> str:
    (last,) = [m for m in outbox(store, kind="community") if m.recipients == [who]][-1:]
    return text_of(last.raw)


def forming(store, code: str = "SU-1") -> str:
    with store.write() as s:
        g.create_game(s, course="sprint", code=code, seed="su", actor="test", now=T0, gm_address=GM)
    return code


# -- sign-up ----------------------------------------------------------------------------------------------
def test_a_stranger_joins_an_open_game_the_gm_accepts_and_the_game_starts_when_full(store, quiet):  # noqa: F811
    code = forming(store)
    said = gm(store, quiet, code, "OPEN SEATS 2 UNTIL 2026-12-05", "AUTOSTART ON")
    assert "open for sign-up: 2 seats" in said and "NOT DONE" not in said

    deliver(store, quiet, mail(address("dave"), "LIST"), now=T0)
    listed = answer_to(store, address("dave"))
    assert f"{code}  sprint: open for sign-up, 0 of 2 seats taken" in listed and GM in listed

    deliver(store, quiet, mail(address("dave"), f"JOIN {code} AS Spinner"), now=T0)
    assert f"asked for a seat in {code} as Spinner" in answer_to(store, address("dave"))
    told = sent_to(store, GM, "gm")
    assert told and f"{address('dave')} asks to join {code} as Spinner" in told[-1]

    deliver(store, quiet, mail(address("erin"), f"JOIN {code}"), now=T0)
    offered = answer_to(store, address("erin"))
    assert f"asked for a seat in {code} as Twonky (a free name" in offered

    deliver(store, quiet, mail(address("frank"), f"JOIN {code}"), now=T0)   # both seats are asked for
    assert "NOT DONE: every seat of" in answer_to(store, address("frank"))

    said = gm(store, quiet, code, "ACCEPT Spinner")
    assert "Spinner (dave@" in said and "takes seat 1" in said
    assert any("you play Spinner" in t for t in sent_to(store, address("dave")))
    said = gm(store, quiet, code, f"ACCEPT {address('erin')}")
    assert "every seat is taken: the game has started" in said
    with store.read() as s:
        game = g.get_game(s, code)
        assert game.status == "running" and [p.robot for p in game.players] == ["Spinner", "Twonky"]


def test_the_gm_refuses_a_sign_up_with_a_reason_and_the_player_is_told(store, quiet):  # noqa: F811
    code = forming(store, "SU-2")
    gm(store, quiet, code, "OPEN")
    deliver(store, quiet, mail(address("dave"), f"JOIN {code} AS Spinner"), now=T0)
    said = gm(store, quiet, code, "REFUSE Spinner the table is for club members")
    assert "is refused" in said
    assert any("did not accept your sign-up as Spinner: the table is for club members" in t
               for t in sent_to(store, address("dave")))
    with store.read() as s:
        assert g.get_game(s, code).players == []


def test_join_is_refused_for_a_game_not_open_and_after_its_sign_up_closed(store, quiet):  # noqa: F811
    """A game LIST does not show is answered as one that does not exist: nobody learns of it by asking."""
    code = forming(store, "SU-3")
    deliver(store, quiet, mail(address("dave"), f"JOIN {code}"), now=T0)
    not_open = answer_to(store, address("dave"))
    assert f"NOT DONE: no game {code} is open for sign-up or has an open seat" in not_open
    deliver(store, quiet, mail(address("dave"), "JOIN SU-404"), now=T0 + timedelta(minutes=1))
    assert answer_to(store, address("dave")).split("\n", 1)[1] == not_open.split("\n", 1)[1].replace(code, "SU-404")
    gm(store, quiet, code, "OPEN UNTIL 2026-11-21")
    deliver(store, quiet, mail(address("dave"), f"JOIN {code}"), now=T0 + timedelta(days=3))
    assert f"NOT DONE: no game {code} is open for sign-up" in answer_to(store, address("dave"))


def test_whois_shows_an_address_only_where_its_player_allowed_it(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("dave"), "WHOIS Twonky"), now=T0)
    said = answer_to(store, address("dave"))
    assert f"Twonky in {code} (active): address not shown" in said and address("alice") not in said
    deliver(store, quiet, mail(address("dave"), f"WHOIS {address('alice')}"), now=T0 + timedelta(minutes=1))
    assert "nobody known as" in answer_to(store, address("dave"))

    alice = player(store, code, "Twonky")
    deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\nSET WHOIS ON\nEND"),
            now=T0 + timedelta(minutes=2))
    assert "WHOIS shows your address" in answer_to(store, address("alice"))
    deliver(store, quiet, mail(address("dave"), "WHOIS Twonky"), now=T0 + timedelta(minutes=3))
    assert f"Twonky in {code} (active): {address('alice')}" in answer_to(store, address("dave"))


def test_a_strangers_help_lists_list_join_and_observe(store, quiet):  # noqa: F811
    deliver(store, quiet, mail(address("dave"), "HELP"), now=T0)
    (answer,) = outbox(store, kind="stranger")
    text = text_of(answer.raw)
    assert "LIST" in text and "JOIN RR-7 AS <robot name>" in text and "OBSERVE RR-7" in text


# -- a player's own commands ----------------------------------------------------------------------------
def test_player_commands_need_the_key_and_a_stranger_gets_nothing(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("alice"), f"RESIGN {code}"), now=T0)
    assert "NOT DONE: this command needs your key" in answer_to(store, address("alice"))
    deliver(store, quiet, mail(address("dave"), f"RESIGN {code}"), now=T0)
    assert [m for m in outbox(store) if m.recipients == [address("dave")]] == []
    assert incoming(store)[-1].outcome == "ignored"
    with store.read() as s:
        assert s.scalars(select(Departure)).all() == []


def test_resigning_from_a_running_game_tells_the_gm_and_the_robot_plays_on_without_her(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    with store.read() as s:
        game = g.get_game(s, code)
        game_id = game.id
    # a reply to her own mail carries her key (its reply address)
    with store.read() as s:
        game = g.get_game(s, code)
        to = reply_address(quiet, game, "Hammer", 1)
    old_key = player(store, code, "Hammer").secret
    deliver(store, quiet, mail(address("bob"), f"RESIGN {code}", to=to), now=T0)
    said = answer_to(store, address("bob"))
    assert f"you resigned from {code}" in said and "NOT DONE" not in said
    gm(store, quiet, code, "PAUSE", "RESUME")   # announcements no longer reach her
    assert not any(m.kind == "announcement" for m in outbox(store) if m.recipients == [address("bob")])
    assert any("game resumed" in m.subject for m in outbox(store)   # one line a matter: paused, then resumed
               if m.recipients == [address("alice")])
    # her old key gives no more orders for the robot
    deliver(store, quiet, mail(address("bob"), f"BEGIN {code} Hammer turn 1 key {old_key}\n1, 2, 3, 4, 5\nEND"),
            now=T0 + timedelta(seconds=30))
    assert active_program(store, code, "Hammer") is None
    assert any("Hammer resigned" in m.subject for m in outbox(store, kind="gm"))
    with store.read() as s:
        game = s.get(Game, game_id)
        waiting = {p.robot for p in g.waiting_for(s, game)}
        assert waiting == {"Twonky", "Zoom"}            # the turn does not wait for Hammer
        assert [p.robot for p in signup.open_seats(s, game)] == ["Hammer"]
    # LIST shows the open seat and a JOIN takes it over once the GM accepts
    deliver(store, quiet, mail(address("dave"), "LIST"), now=T0)
    assert "open seat: Hammer" in answer_to(store, address("dave"))
    deliver(store, quiet, mail(address("dave"), f"JOIN {code}"), now=T0 + timedelta(minutes=1))
    assert f"asked for a seat in {code} as Hammer" in answer_to(store, address("dave"))
    said = gm(store, quiet, code, "ACCEPT Hammer")
    assert "NOT DONE" not in said, said
    assert player(store, code, "Hammer").email == address("dave")
    (welcome,) = [t for t in sent_to(store, address("dave")) if "you take over Hammer" in t]
    assert "Your cards for turn 1:" in welcome and f"BEGIN {code} Hammer turn 1" in welcome
    with store.read() as s:
        game = s.get(Game, game_id)
        assert "Hammer" in {p.robot for p in g.waiting_for(s, game)}    # the new player is waited for again
        assert signup.open_seats(s, game) == []


def test_resigning_before_the_start_frees_the_seat(store, quiet):  # noqa: F811
    code = forming(store, "SU-4")
    gm(store, quiet, code, f"ADD PLAYER {address('alice')} Twonky", f"ADD PLAYER {address('bob')} Hammer")
    bob = player(store, code, "Hammer")
    deliver(store, quiet, mail(address("bob"), f"BEGIN {code} Hammer key {bob.secret}\nRESIGN {code}\nEND"), now=T0)
    assert "your seat (Hammer) is free again" in answer_to(store, address("bob"))
    with store.read() as s:
        assert [p.robot for p in g.get_game(s, code).players] == ["Twonky"]


def test_a_new_address_takes_effect_only_when_confirmed_from_it(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\n"
                                                 f"SET ADDRESS {address('grace')}\nEND"), now=T0)
    assert f"a mail went to {address('grace')}" in answer_to(store, address("alice"))
    assert player(store, code, "Twonky").email == address("alice")
    (confirm,) = [m for m in outbox(store, kind="confirm")]
    assert confirm.recipients == [address("grace")]
    token = re.search(r"\[confirm (c\.\d+\.[a-z2-7]+)\]", confirm.subject).group(1)

    # someone else answering with the token changes nothing
    deliver(store, quiet, mail(address("heidi"), f"CONFIRM {token}"), now=T0 + timedelta(minutes=1))
    assert "must come from" in answer_to(store, address("heidi"))
    assert player(store, code, "Twonky").email == address("alice")

    # the new address replies to the confirmation mail (the subject carries the token)
    reply = mail(address("grace"), "yes, that is me\n", subject=f"Re: {confirm.subject}",
                 headers={"In-Reply-To": confirm.message_id})
    deliver(store, quiet, reply, now=T0 + timedelta(minutes=2))
    assert f"your address of record is now {address('grace')}" in answer_to(store, address("grace"))
    assert player(store, code, "Twonky").email == address("grace")
    assert any("Twonky has a new address" in m.subject for m in outbox(store, kind="gm"))


def test_absent_is_recorded_shown_to_the_gm_and_by_the_game_setting_the_turn_does_not_wait(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    zoom = player(store, code, "Zoom")
    deliver(store, quiet, mail(address("carol"), f"BEGIN {code} Zoom key {zoom.secret}\n"
                                                 "ABSENT 2026-11-20 TO 2026-12-08\nEND"), now=T0)
    assert "away from Fri 20 Nov 2026 to Tue 08 Dec 2026" in answer_to(store, address("carol"))
    assert any("Zoom's player is away" in m.subject for m in outbox(store, kind="gm"))
    assert "absences: Zoom 2026-11-20 to 2026-12-08" in gm(store, quiet, code, "SIGNUPS")
    with store.read() as s:
        assert "Zoom" in {p.robot for p in g.waiting_for(s, g.get_game(s, code))}   # ON ABSENCE WAIT
    gm(store, quiet, code, "ON ABSENCE AUTOPILOT")
    with store.read() as s:
        assert "Zoom" not in {p.robot for p in g.waiting_for(s, g.get_game(s, code))}
    deliver(store, quiet, mail(address("carol"), f"BEGIN {code} Zoom key {zoom.secret}\nGAMES\nEND"),
            now=T0 + timedelta(minutes=5))
    assert f"Zoom in {code} (running, turn 1" in answer_to(store, address("carol"))


# -- press ------------------------------------------------------------------------------------------------
def test_press_is_relayed_with_the_robot_name_never_the_address_and_the_gm_sets_grey_and_off(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    begin = f"BEGIN {code} Twonky key {alice.secret}"
    deliver(store, quiet, mail(address("alice"), f"{begin}\nPRESS TO ALL\nShall we leave the flag to Zoom?\nEND"),
            now=T0)
    assert "relayed to Hammer, Zoom" in answer_to(store, address("alice"))
    for user in ("bob", "carol"):
        (relayed,) = [m for m in outbox(store, kind="press") if m.recipients == [address(user)]]
        assert "press from Twonky" in relayed.subject
        raw = relayed.raw.decode()
        assert "Shall we leave the flag to Zoom?" in text_of(relayed.raw) and address("alice") not in raw

    gm(store, quiet, code, "PRESS GREY")
    deliver(store, quiet, mail(address("alice"), f"{begin}\nPRESS TO Hammer\nA secret pact?\nEND"),
            now=T0 + timedelta(minutes=1))
    grey = [m for m in outbox(store, kind="press") if m.recipients == [address("bob")]][-1]
    assert "anonymous" in grey.subject and "Twonky" not in text_of(grey.raw)
    assert [m for m in outbox(store, kind="press") if m.recipients == [address("carol")]].__len__() == 1

    gm(store, quiet, code, "PRESS OFF")
    deliver(store, quiet, mail(address("alice"), f"{begin}\nPRESS TO ALL\nHello?\nEND"), now=T0 + timedelta(minutes=2))
    assert "NOT DONE: the game master has turned press off" in answer_to(store, address("alice"))
    with store.read() as s:
        assert [p.mode for p in s.scalars(select(PressMessage))] == ["white", "grey"]


def test_press_over_the_senders_budget_is_not_done_and_she_is_told(store, db_url):
    """Issue 41.5: press over ``press_per_hour`` is refused and said so; nothing kept as if relayed."""
    from .stored import hostile_settings

    settings = hostile_settings(db_url, press_per_hour=3)
    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    for i in range(4):
        deliver(store, settings, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\nPRESS TO Hammer\n"
                                                        f"message {i}\nEND"), now=T0 + timedelta(minutes=i))
    to_bob = [m for m in outbox(store, kind="press") if m.recipients == [address("bob")]]
    assert len(to_bob) == 3
    assert "NOT DONE" in answer_to(store, address("alice")) and "3 press messages this hour" in \
        answer_to(store, address("alice"))
    with store.read() as s:
        assert len(s.scalars(select(PressMessage)).all()) == 3
    assert incoming(store)[-1].outcome == "rejected"


# -- observers --------------------------------------------------------------------------------------------
def test_an_observer_confirms_gets_public_results_with_a_working_unsubscribe(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("heidi"), f"OBSERVE {code}"), now=T0)
    assert f"a confirmation went to {address('heidi')}" in answer_to(store, address("heidi"))
    with store.read() as s:
        assert s.scalars(select(Observer)).all() == []     # nothing before the address confirms
    (confirm,) = outbox(store, kind="confirm")
    reply = mail(address("heidi"), "", subject=f"Re: {confirm.subject}")
    deliver(store, quiet, reply, now=T0 + timedelta(minutes=1))
    assert f"you observe {code}" in answer_to(store, address("heidi"))

    gm(store, quiet, code, "PROCESS", now=T0 + timedelta(hours=1))
    (watched,) = outbox(store, kind=KIND_OBSERVER)
    assert watched.recipients == [address("heidi")]
    msg = parse(watched.raw)
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text = text_of(watched.raw)
    assert "BEGIN" not in text and "your cards" not in text    # no order form, no hand
    with store.read() as s:
        secrets = [p.secret for p in g.get_game(s, code).players]
    assert not any(secret in watched.raw.decode(errors="replace") for secret in secrets)
    target = re.match(r"<mailto:([^?]+)\?subject=(.+)>", str(msg["List-Unsubscribe"]))
    assert target is not None and target.group(1) == quiet.referee_address

    # the mail client unsubscribes: a mail to that address with that subject
    unsubscribe = mail(address("heidi"), "", subject=unquote(target.group(2)),
                       headers={"Auto-Submitted": "auto-generated"})
    deliver(store, quiet, unsubscribe, now=T0 + timedelta(hours=2))
    assert incoming(store)[-1].reason.startswith("unsubscribe:")
    gm(store, quiet, code, "PROCESS", now=T0 + timedelta(hours=3))
    assert len(outbox(store, kind=KIND_OBSERVER)) == 1      # no more results


def test_observe_never_mails_an_address_more_than_three_mails_a_day(store, quiet):  # noqa: F811
    """An address that never asked gets at most three mails a day in all (issue 41): confirmations and answers."""
    code = new_game(store, now=T0)
    for i in range(5):
        deliver(store, quiet, mail(address("heidi"), f"OBSERVE {code}",
                                   msgid=make_msgid(domain="x.test")), now=T0 + timedelta(minutes=i))
    sent = [m for m in outbox(store) if m.recipients == [address("heidi")] and m.status != "cancelled"]
    assert len(sent) == 3 and {m.kind for m in sent} == {"confirm", "community"}
    deliver(store, quiet, mail(address("heidi"), f"OBSERVE {code}"), now=T0 + timedelta(hours=25))
    assert len([m for m in outbox(store, kind="confirm") if m.status != "cancelled"]) == 3   # a new day


def test_unobserve_ends_the_subscription(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    with store.write() as s:
        from referee.games.observers import start_observing

        start_observing(s, quiet, g.get_game(s, code), address("heidi"), now=T0)
    deliver(store, quiet, mail(address("heidi"), f"UNOBSERVE {code}"), now=T0)
    assert f"you no longer observe {code}" in answer_to(store, address("heidi"))
    with store.read() as s:
        assert [o.status for o in s.scalars(select(Observer))] == ["left"]


def test_own_seats_are_those_not_resigned(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    with store.write() as s:
        p = s.scalars(select(Player).where(Player.robot == "Zoom")).one()
        own.resign(s, p, now=T0)
        assert own.seats_of(s, address("carol")) == []
        assert "Zoom" in {p.robot for p in g.get_game(s, code).players}   # the robot plays on


def test_press_goes_into_the_archive_after_the_game_only_when_the_game_says_so(store, quiet, tmp_path):  # noqa: F811
    from referee.archive.build import build_archive, game_dir_name

    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\nPRESS TO ALL\n"
                                                 "Race you to the flag <b>!</b>\nEND"), now=T0)
    gm(store, quiet, code, "END GAME")
    build_archive(store, tmp_path / "off", now=T0)
    page = (tmp_path / "off" / game_dir_name(code) / "index.html").read_text()
    assert "Race you to the flag" not in page          # PRESS ARCHIVE is off by default

    gm(store, quiet, code, "PRESS ARCHIVE ON")
    build_archive(store, tmp_path / "on", now=T0)
    page = (tmp_path / "on" / game_dir_name(code) / "index.html").read_text()
    assert "Twonky to all:" in page and "Race you to the flag &lt;b&gt;!&lt;/b&gt;" in page
    assert address("alice") not in page


def test_a_forged_sender_cannot_make_the_referee_mail_an_observer_confirmation(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    forged = mail(address("heidi"), f"OBSERVE {code}", headers={"Return-Path": "<spammer@elsewhere.example>"})
    deliver(store, quiet, forged, now=T0)
    assert outbox(store) == []
    assert incoming(store)[-1].outcome == "ignored"


def test_a_new_address_gets_at_most_three_confirmations_a_day(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    alice = player(store, code, "Twonky")
    for i in range(4):
        deliver(store, quiet, mail(address("alice"), f"BEGIN {code} Twonky key {alice.secret}\n"
                                                     f"SET ADDRESS {address('grace')}\nEND"),
                now=T0 + timedelta(minutes=i))
    assert len(outbox(store, kind="confirm")) == 3
    assert "3 confirmation mails today" in answer_to(store, address("alice"))


# -- our own words quoted back are never commands ------------------------------------------------------------
def test_a_thanks_above_our_quoted_help_resigns_nobody_and_gets_one_answer(store, quiet):  # noqa: F811
    """Bob asks for HELP, whose answer lists ``RESIGN RR-7`` among the seat commands; he replies "Thanks!"
    above it, once quoted as Gmail does and once below an Outlook header without quote marks (a day apart: a
    reply with nothing new gets one answer per thread a day). Neither reply resigns him or changes anything;
    each gets exactly one answer."""
    code = new_game(store, now=T0)
    bob = player(store, code, "Hammer")
    deliver(store, quiet, mail(address("bob"), f"BEGIN {code} Hammer key {bob.secret}\nHELP\nEND"), now=T0)
    (help_answer,) = [m for m in outbox(store) if m.recipients == [address("bob")]]
    help_text = text_of(help_answer.raw).replace("RR-7", code)
    assert f"RESIGN {code}" in help_text
    gmail = "Thanks!\n\nOn Fri, 20 Nov 2026 at 09:00, Referee <referee@example.test> wrote:\n" + "".join(
        f"> {line}\n" for line in help_text.splitlines())
    outlook = ("Thanks!\n\n________________________________\nFrom: Referee <referee@example.test>\n"
               "Sent: Friday, November 20, 2026 9:00 AM\nTo: bob\nSubject: Re: orders\n\n" + help_text)
    for i, body in enumerate((gmail, outlook), start=1):
        before = len(outbox(store))
        deliver(store, quiet, mail(address("bob"), body, subject="Re: orders",
                                   headers={"In-Reply-To": help_answer.message_id}), now=T0 + timedelta(days=i))
        assert len([m for m in outbox(store)[before:] if m.recipients == [address("bob")]]) == 1
        with store.read() as s:
            assert list(s.scalars(select(Departure))) == []
        assert player(store, code, "Hammer").secret == bob.secret
