"""Stored mail turned into orders and answers: who may send, what is taken, what every sender is told.

Every mail arrives the real way: IMAP APPEND into the referee's mailbox, a poll, then processing.
"""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from referee import games as g
from referee.games.tokens import reply_address
from referee.intake.process import NO_GM, GmMail, GmOutcome, process_pending
from referee.store.mail import reprocess
from referee.store.mail_models import IncomingMail

from .helpers import (
    GM,
    active_program,
    address,
    block,
    hand,
    incoming,
    mail,
    new_game,
    orders,
    outbox,
    player,
    program_lines,
    text_of,
)


def outcome_of(store) -> list[tuple[str, str | None]]:
    return [(m.outcome, m.reason) for m in incoming(store)]


# -- taking orders -------------------------------------------------------------------------------------
async def test_the_last_valid_orders_count_and_earlier_ones_are_kept_inactive(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")
    first, second = cards[:5], cards[4:9]
    await take(mail(address("alice"), block(store, code, "Twonky", program_lines(first))),
               mail(address("alice"), block(store, code, "Twonky", program_lines(second))))
    kept = orders(store, code, "Twonky")
    assert [o.program for o in kept] == [first, second]
    assert [o.active for o in kept] == [False, True]
    assert all(o.source == "mail" and o.incoming_mail_id is not None for o in kept)
    assert [m.kind for m in outbox(store)] == ["echo", "echo"]


async def test_a_card_not_in_the_hand_is_refused_with_the_errors_and_a_corrected_template(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:4]
    foreign = next(c for c in hand(store, code, "Hammer") if c not in hand(store, code, "Twonky"))
    await take(mail(address("alice"), block(store, code, "Twonky", program_lines([*cards, foreign]))))
    assert active_program(store, code, "Twonky") is None
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and foreign in reason
    (answer,) = outbox(store)
    body = text_of(answer.raw)
    assert answer.kind == "rejection" and answer.recipients == [address("alice")]
    assert "could not be used" in body and "line 6" in body
    key = player(store, code, "Twonky").secret
    assert f"BEGIN {code} Twonky turn 1 key {key}" in body
    assert "1: " + cards[0] in body   # the template is filled with what was understood


async def test_orders_for_an_earlier_turn_are_stale(store, take):
    code = new_game(store)
    with store.write() as s:
        g.resolve_turn(s, code, fill=g.random_fill, actor="test")
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), block(store, code, "Twonky", program_lines(cards), turn=1)))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "stale" in reason
    assert active_program(store, code, "Twonky") is None


async def test_a_plain_reply_to_an_old_turn_mail_is_stale(store, settings, take):
    """No BEGIN line: the turn mail it answers (In-Reply-To) was for turn 1, turn 2 is being played."""
    code = new_game(store)
    first = mail(address("alice"), "HELP\n")
    await take(first)
    (help_answer,) = outbox(store)
    with store.write() as s:
        g.resolve_turn(s, code, fill=g.random_fill, actor="test")
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), ", ".join(cards) + "\n",
                    headers={"In-Reply-To": help_answer.message_id, "References": help_answer.message_id}))
    outcome, reason = outcome_of(store)[-1]
    assert outcome == "rejected" and "stale" in reason and "turn 1" in reason


async def test_a_wrong_key_from_the_players_address_is_refused_and_answered(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), block(store, code, "Twonky", program_lines(cards), key="notmykey")))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "not your key" in reason
    (answer,) = outbox(store)
    assert answer.recipients == [address("alice")]


async def test_orders_without_a_key_from_the_players_address_are_refused_with_the_key_to_use(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), "\n".join(program_lines(cards)) + "\n"))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "no key" in reason
    body = text_of(outbox(store)[0].raw)
    assert f"key {player(store, code, 'Twonky').secret}" in body
    assert active_program(store, code, "Twonky") is None


async def test_another_address_with_the_right_key_is_obeyed_and_only_the_address_of_record_is_answered(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("dave"), block(store, code, "Twonky", program_lines(cards))))
    assert active_program(store, code, "Twonky") == cards
    (copy,) = outbox(store)
    assert (copy.kind, copy.recipients) == ("echo_copy", [address("alice")])
    assert f"A mail from {address('dave')} carrying your key was accepted" in text_of(copy.raw)


async def test_another_address_without_the_key_is_never_answered_about_the_game(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("dave"), block(store, code, "Twonky", program_lines(cards), key="guessed")),
               mail(address("dave"), "HELP\n", subject=f"Re: {code} turn 1"))
    assert [o for o, _ in outcome_of(store)] == ["ignored", "ignored"]
    assert active_program(store, code, "Twonky") is None
    # HELP is answered for anyone, with the order language only: nothing of the game or its players
    (help_answer,) = outbox(store)
    body = text_of(help_answer.raw)
    assert help_answer.kind == "stranger" and "How to send orders" in body
    assert code not in body and "Twonky" not in body and not any(str(c) in body for c in cards)


async def test_a_player_writing_about_someone_elses_robot_is_told_and_nothing_is_taken(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    bob_key = player(store, code, "Hammer").secret
    await take(mail(address("bob"), block(store, code, "Twonky", program_lines(cards), key=bob_key)))
    ((outcome, _),) = outcome_of(store)
    (answer,) = outbox(store)
    assert outcome == "rejected" and answer.recipients == [address("bob")]
    body = text_of(answer.raw)
    assert "not your robot" in body
    assert player(store, code, "Twonky").secret not in body and cards[0] not in body
    assert active_program(store, code, "Twonky") is None


async def test_an_unknown_sender_is_recorded_and_nothing_in_the_mail_is_acted_on_but_help_is_answered(store, take):
    code = new_game(store)
    await take(mail("stranger@elsewhere.test", "HELP\n1: FWD1 500\n"))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "ignored" and "unknown sender" in reason and "answered with HELP" in reason
    [answer] = outbox(store)
    assert answer.kind == "stranger" and answer.recipients == ["stranger@elsewhere.test"]
    body = text_of(answer.raw)
    assert "How to send orders" in body and "game master: gm@example.test" in body
    assert code not in body  # nothing about the games goes to a stranger


async def test_a_stranger_asking_how_to_join_gets_one_short_note_a_day(store, take):
    new_game(store)
    await take(mail("newcomer@elsewhere.test", "Hello, how do I join a game?\n"),
               mail("newcomer@elsewhere.test", "Hello? Anyone there?\n"))
    [answer] = outbox(store)
    body = text_of(answer.raw)
    assert answer.subject == "RoboRally referee: how to join a game"   # LIST and JOIN first (issue 41)
    assert body.index("LIST") < body.index("JOIN RR-7 AS") < body.index("game master: gm@example.test")
    assert "RoboRally referee at referee@example.test" in body
    assert "HELP" in body and "at most one of these a day" in body
    reasons = [reason for _, reason in outcome_of(store)]
    assert reasons[0].endswith("answered with a short note") and reasons[1].endswith("answered already today")


async def test_a_stranger_whose_envelope_is_of_another_domain_is_not_answered(store, take):
    new_game(store)
    await take(mail("victim@elsewhere.test", "how do I join?\n",
                    headers={"Return-Path": "<spammer@bulk.example>"}))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "ignored" and "envelope sender" in reason
    assert outbox(store) == []


async def test_robots_bounces_and_lists_are_ignored_without_an_answer(store, take):
    new_game(store)
    await take(mail(address("alice"), "I am away.\n", headers={"Auto-Submitted": "auto-replied"}),
               mail("MAILER-DAEMON@example.test", "Delivery failed.\n"),
               mail(address("alice"), "news\n", headers={"Precedence": "bulk"}),
               mail(address("alice"), "digest\n", headers={"List-Id": "<robots.example.test>"}),
               mail(address("alice"), "ours\n", headers={"X-Loop": "referee@example.test"}))
    assert [o for o, _ in outcome_of(store)] == ["ignored"] * 5
    assert outbox(store) == []


async def test_a_reply_address_token_names_the_robot_and_carries_the_key(store, settings, take):
    code = new_game(store)
    with store.read() as s:
        to = reply_address(settings, g.get_game(s, code), "Zoom", turn=1)
    cards = hand(store, code, "Zoom")[:5]
    await take(mail(address("carol"), " ".join(cards[i].split()[1] for i in range(5)) + "\n", to=to))
    assert active_program(store, code, "Zoom") == cards


async def test_a_token_with_a_changed_signature_counts_for_nothing(store, settings, take):
    code = new_game(store)
    with store.read() as s:
        to = reply_address(settings, g.get_game(s, code), "Zoom", turn=1)
    local, domain = to.split("@")
    forged = f"{local[:-1]}{'a' if local[-1] != 'a' else 'b'}@{domain}"
    cards = hand(store, code, "Zoom")[:5]
    await take(mail(address("dave"), ", ".join(cards) + "\n", to=forged))
    assert [o for o, _ in outcome_of(store)] == ["ignored"]


async def test_standing_orders_are_merged_and_power_down_is_announced_and_called_off(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), block(store, code, "Twonky", [*program_lines(cards), "SACRIFICE AT HP 4",
                                                                     "REBOOT", "REENTER FACING E"])),
               mail(address("alice"), block(store, code, "Twonky", ["ON TWO WRENCHES: OPTION"])),
               mail(address("alice"), block(store, code, "Twonky", ["NO REBOOT"])))
    assert [o for o, _ in outcome_of(store)] == ["accepted"] * 3
    standing = player(store, code, "Twonky").standing_orders
    assert standing["sacrifice_at"] == 4 and standing["two_wrenches"] == "option" and standing["reenter_facing"] == 1
    kept = orders(store, code, "Twonky")  # the second mail changed only a standing order: no new program
    assert [o.power_down for o in kept] == [True, False]
    assert all(o.program == cards and o.reentry_facing == "E" for o in kept)
    last_echo = text_of(outbox(store)[-1].raw)
    assert "NO REBOOT" in last_echo and "SACRIFICE AT HP 4" in last_echo and "ON TWO WRENCHES: OPTION" in last_echo
    assert "REENTER FACING E" in last_echo


async def test_a_power_down_with_no_program_on_file_asks_for_the_program(store, take):
    code = new_game(store)
    await take(mail(address("alice"), block(store, code, "Twonky", ["POWER DOWN"])))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "goes with a program" in reason
    assert orders(store, code, "Twonky") == []


async def test_fire_orders_naming_a_weapon_the_robot_lacks_are_an_error(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), block(store, code, "Twonky", [*program_lines(cards), "FIRE 1-5: RAIL GUN"])))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "rail gun" in reason.lower()


async def test_orders_after_the_deadline_are_late(store, settings, take):
    code = new_game(store, now=datetime.now(UTC) - timedelta(days=6))
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), block(store, code, "Twonky", program_lines(cards))))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "after the deadline" in reason


# -- help, status, cards ---------------------------------------------------------------------------------
async def test_help_status_and_cards_are_answered_in_one_mail(store, take):
    code = new_game(store)
    await take(mail(address("bob"), "HELP\nSTATUS\nCARDS\n"))
    ((outcome, reason),) = outcome_of(store)
    (answer,) = outbox(store)
    body = text_of(answer.raw)
    assert outcome == "accepted" and reason == "answered HELP, STATUS, CARDS" and answer.kind == "answer"
    assert "How to send orders" in body
    assert f"Game {code}" in body and "Turn 1 is open" in body and "Hammer" in body and "<- you" in body
    assert "Your cards for Hammer" in body and hand(store, code, "Hammer")[0] in body
    assert hand(store, code, "Twonky")[0] not in body.split("Your cards for Hammer")[1]


async def test_a_known_sender_in_two_games_is_asked_which(store, take):
    new_game(store)
    new_game(store)
    await take(mail(address("alice"), "1: FWD1 500\n"))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "which game" in reason
    assert "Twonky in game" in text_of(outbox(store)[0].raw)


# -- the mail itself -----------------------------------------------------------------------------------------
async def test_an_html_only_mail_is_read(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    html = "<html><body><p>" + "<br>".join(block(store, code, "Twonky", program_lines(cards)).splitlines()) + \
        "</p></body></html>"
    await take(mail(address("alice"), "", html=html))
    assert active_program(store, code, "Twonky") == cards


GREETINGS = {"iso-8859-1": "Grüße, voilà mes ordres", "utf-16": "Grüße — 進め!", "shift_jis": "進め、ロボット",
             "koi8-r": "Приказы", "windows-1252": "Voilà — “quotes”"}


async def test_mails_in_other_charsets_are_read(store, take):
    code = new_game(store)
    raws = []
    for i, (charset, greeting) in enumerate(GREETINGS.items()):   # a new program each time (repeats count once)
        orders_block = block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[i % 2:i % 2 + 5]))
        head = (f"From: {address('alice')}\r\nTo: referee@example.test\r\nSubject: orders\r\n"
                f"Message-ID: <{charset}.{code}@client.example.test>\r\nMIME-Version: 1.0\r\n"
                f"Content-Type: text/plain; charset={charset}\r\nContent-Transfer-Encoding: base64\r\n\r\n")
        body = base64.encodebytes(f"{greeting}\n\n{orders_block}".encode(charset)).replace(b"\n", b"\r\n")
        raws.append(head.encode() + body)
    await take(*raws)
    assert [o for o, _ in outcome_of(store)] == ["accepted"] * len(GREETINGS)


async def test_a_mail_too_big_to_read_is_refused_with_a_reason(store, settings, take):
    code = new_game(store)
    raw = mail(address("alice"), block(store, code, "Twonky", ["HELP"]) + "x" * 5000 + "\n")
    await take(raw, settings=settings.with_overrides(max_mail_bytes=2000))
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "rejected" and "more than the 2 kB accepted" in reason
    assert "could not be read" in text_of(outbox(store)[0].raw)


# -- error answers are limited ------------------------------------------------------------------------------
async def test_error_answers_to_one_sender_are_limited_per_hour(store, take):
    new_game(store)
    await take(*[mail(address("alice"), f"gibberish {i}\n") for i in range(7)])
    assert [o for o, _ in outcome_of(store)] == ["rejected"] * 7
    answered = outbox(store, kind="rejection")
    assert len(answered) == 5   # five answers, then (issue 30) the rest in one digest when the hour is over
    (digest,) = outbox(store, kind="digest")
    assert "gibberish 5" in text_of(digest.raw) and "gibberish 6" in text_of(digest.raw)
    (told,) = outbox(store, kind="gm_answer")
    assert told.recipients == [GM] and address("alice") in told.subject
    assert all("answered in the hour's digest" in r for _, r in outcome_of(store)[5:])


# -- GM commands ------------------------------------------------------------------------------------------------
async def test_a_gm_block_with_no_gm_handler_is_refused_and_the_gm_told(store, take):
    await take(mail(GM, "BEGIN GM key gm-secret-42\nPAUSE RR-1\nEND\n"))
    ((outcome, reason),) = outcome_of(store)
    assert (outcome, reason) == ("rejected", NO_GM)
    (answer,) = outbox(store)
    assert answer.recipients == [GM] and NO_GM in text_of(answer.raw)


async def test_a_gm_block_goes_to_the_gm_handler_inside_its_mails_transaction(store, take):
    seen: list[tuple[str, str, str]] = []

    def handler(request: GmMail) -> GmOutcome:
        with request.store.write() as s:  # a savepoint of the mail's own transaction
            row = s.get(IncomingMail, request.mail_id)
            seen.append((row.outcome, request.sender, request.mail.body.splitlines()[1]))
            g.pause_game(s, code, actor="gm:test")
        return GmOutcome("accepted", "1 command done", reply="PAUSE RR-1: done\n")

    code = new_game(store)
    await take(mail(GM, "BEGIN GM key gm-secret-42\nPAUSE RR-1\nEND\n"), gm_handler=handler)
    assert seen == [("accepted", GM, "PAUSE RR-1")]
    assert outcome_of(store) == [("accepted", "1 command done")]
    (answer,) = outbox(store)
    assert answer.kind == "gm_answer" and text_of(answer.raw).endswith("\n\nPAUSE RR-1: done\n")
    with store.read() as s:
        assert g.get_game(s, code).status == "paused"


async def test_a_gm_handler_that_breaks_off_leaves_nothing_done_and_the_mail_is_carried_out_once_later(
        store, settings, take):
    code = new_game(store)

    def breaks_off(request: GmMail) -> GmOutcome:
        with request.store.write() as s:
            g.pause_game(s, code, actor="gm:test")
        raise RuntimeError("stopped half-way")

    await take(mail(GM, "BEGIN GM key gm-secret-42\nPAUSE RR-1\nEND\n"), gm_handler=breaks_off)
    with store.read() as s:
        assert g.get_game(s, code).status == "running"   # the pause went with the rest
    assert outbox(store) == [] and outcome_of(store)[0][0] == "error"

    with store.write() as s:
        reprocess(s)
    process_pending(store, settings, gm_handler=lambda r: GmOutcome("accepted", "done", reply="paused\n"))
    assert outcome_of(store) == [("accepted", "done")]
    (answer,) = outbox(store)
    assert text_of(answer.raw).endswith("\n\npaused\n")


async def test_a_gm_block_from_anyone_else_is_ignored(store, take):
    new_game(store)
    await take(mail(address("alice"), "BEGIN GM key guess\nEND GAME RR-1\nEND\n"), gm_handler=lambda r: 1 / 0)
    assert [o for o, _ in outcome_of(store)] == ["ignored"] and outbox(store) == []


async def test_a_failure_is_recorded_as_error_and_the_mail_can_be_processed_again(store, settings, take):
    def broken(request: GmMail) -> GmOutcome:
        raise RuntimeError("the GM module has a bug")

    await take(mail(GM, "BEGIN GM key gm-secret-42\nSTATUS\nEND\n"), gm_handler=broken)
    ((outcome, reason),) = outcome_of(store)
    assert outcome == "error" and "the GM module has a bug" in reason

    with store.write() as s:
        assert reprocess(s) == 1
    done = process_pending(store, settings, gm_handler=lambda r: GmOutcome("accepted", "fixed", reply="ok\n"))
    assert done.outcomes == {"accepted": 1}
    with store.read() as s:
        row = s.scalars(select(IncomingMail)).one()
        assert (row.outcome, row.attempts) == ("accepted", 2)


# -- the order form filled in within the quoted turn mail (issue 18) ---------------------------------------------
def _quoted_reply(form: str) -> str:
    quoted = "\n".join("> " + line if line else ">" for line in form.splitlines())
    return f"\nOn Mon, 2 Mar 2026 at 12:00, RoboRally referee <referee@example.test> wrote:\n{quoted}\n"


async def test_a_form_filled_in_within_the_quote_is_read_when_it_carries_the_key(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), _quoted_reply(block(store, code, "Twonky", program_lines(cards))),
                    subject=f"Re: {code} turn 1"))
    assert active_program(store, code, "Twonky") == cards
    [echo] = outbox(store)
    assert "read the order form you filled in within the quoted turn mail" in text_of(echo.raw)
    # the answer gives the deadline as every mail does: time left, weekday, date, UTC
    assert re.search(r"Time left: [^\n]*, until \w{3} \d+ \w{3} \d{4}, \d\d:\d\d UTC", text_of(echo.raw))


async def test_a_form_filled_in_within_the_quote_is_read_when_the_mail_came_to_the_reply_address(store, settings,
                                                                                                   take):
    code = new_game(store)
    cards = hand(store, code, "Zoom")[:5]
    keyless = f"BEGIN {code} Zoom turn 1\n" + "\n".join(program_lines(cards)) + "\nEND\n"
    await take(mail(address("carol"), _quoted_reply(keyless), subject=f"Re: {code} turn 1"))
    assert active_program(store, code, "Zoom") is None  # to the plain address, without the key: not read
    with store.read() as s:
        to = reply_address(settings, g.get_game(s, code), "Zoom", turn=1)
    await take(mail(address("carol"), _quoted_reply(keyless), subject=f"Re: {code} turn 1", to=to))
    assert active_program(store, code, "Zoom") == cards


async def test_other_quoted_text_is_never_read(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    quoted_orders = _quoted_reply("My orders: " + ", ".join(cards))
    await take(mail(address("alice"), "Thanks!\n" + quoted_orders, subject=f"Re: {code} turn 1"))
    assert active_program(store, code, "Twonky") is None


async def test_a_quoted_form_with_a_mistake_gets_a_correction_template_that_keeps_what_was_read(store, take):
    code = new_game(store)
    cards = hand(store, code, "Twonky")
    lines = [f"1: {cards[0]}", f"2: {cards[1]}", f"3: {cards[2]}", f"4: {cards[3]}", "5: FWD9 999"]
    await take(mail(address("alice"), _quoted_reply(block(store, code, "Twonky", lines)), subject=f"Re: {code} turn 1"))
    assert active_program(store, code, "Twonky") is None
    [answer] = outbox(store)
    body = text_of(answer.raw)
    assert "could not be used" in body and "without the \">\" marks" not in body
    template = body[body.index(f"BEGIN {code} Twonky"):]
    for reg in range(4):  # the four cards read are in the template sent back; register 5 waits for a card
        assert re.search(rf"^{reg + 1}: {re.escape(cards[reg])}", template, re.M), template
