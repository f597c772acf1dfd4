"""Issue 30 through real mail (SMTP into Dovecot, IMAP out, the tick): one reading of a reply.

Each test shows the mail as the client puts it on the wire, and what must come of it: the program on
file, and exactly one answer of the right kind.
"""

from __future__ import annotations

import email
import re
from collections.abc import Callable

from referee import games as g
from tests.e2e.test_game_by_mail import GAME, PLAYERS, Mailer, at, orders, text_of
from tests.e2e.test_trust import Form, Table, send_raw

Inbox = list[email.message.EmailMessage]


def quote(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() if line else ">" for line in text.split("\n"))


def gmail_reply(user: str, to: str, original: email.message.EmailMessage, body: str, n: int) -> str:
    """A Gmail plain-text reply: the text, the attribution, the whole original quoted."""
    return (f"From: {user.title()} <{at(user)}>\nTo: {to}\nSubject: Re: {original['Subject']}\n"
            f"Date: Wed, 25 Nov 2026 10:0{n}:00 +0000\nMessage-ID: <CAF{n}x{user}@mail.gmail.com>\n"
            f"In-Reply-To: {original['Message-ID']}\nReferences: {original['Message-ID']}\nMIME-Version: 1.0\n"
            'Content-Type: text/plain; charset="UTF-8"\n\n'
            f"{body}\n\nOn Wed, 25 Nov 2026 at 09:00, RoboRally referee <{at('referee')}> wrote:\n\n"
            f"{quote(text_of(original))}\n")


def apple_flowed_reply(user: str, to: str, original: email.message.EmailMessage, body: str, quoted: str,
                       n: int) -> str:
    """Apple Mail: format=flowed, delsp=yes; ``quoted`` is the quote as Apple writes it (soft breaks kept)."""
    return (f"From: {user.title()} <{at(user)}>\nTo: {to}\nSubject: Re: {original['Subject']}\n"
            f"Date: Wed, 25 Nov 2026 10:1{n}:00 +0000\nMessage-ID: <A{n}B2-C3D4-{user}@example.test>\n"
            f"In-Reply-To: {original['Message-ID']}\nReferences: {original['Message-ID']}\n"
            "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3826.200.121\\))\nX-Mailer: Apple Mail (2.3826.200.121)\n"
            "Content-Type: text/plain; charset=us-ascii; format=flowed; delsp=yes\n"
            "Content-Transfer-Encoding: 7bit\n\n"
            f"{body}\n\nOn 25 Nov 2026, at 09:00, RoboRally referee <{at('referee')}> wrote:\n\n{quoted}\n")


def only(mails: Inbox, what: Callable[[email.message.EmailMessage], bool] = lambda m: True
         ) -> email.message.EmailMessage:
    """The one mail (of those that ``what`` picks) among ``mails``: exactly one answer."""
    picked = [m for m in mails if what(m)]
    assert len(picked) == 1, [str(m["Subject"]) for m in mails]
    return picked[0]


def on_file(table: Table, robot: str) -> list[str] | None:
    with table.store.read() as s:
        game = g.get_game(s, GAME)
        order = g.active_orders(s, g.open_turn(s, game)).get(g.get_player(s, game, robot).id)
        return None if order is None else list(order.program)


def program(hand, picks: str) -> list:
    return [hand[int(i) - 1] for i in picks.split(", ")]


def accepted(table: Table, user: str, form: Form, picks: str) -> email.message.EmailMessage:
    begin, hand, msg = form
    table.mail.send(user, orders(begin, program(hand, picks)), f"Re: {msg['Subject']}", in_reply_to=msg["Message-ID"])
    table.run(1)
    return only(table.mail.inbox(user), lambda m: "orders accepted" in str(m["Subject"]))


def test_defect_1_thanks_to_an_old_acceptance_keeps_the_newer_program(settings, store, dovecot, smtp_server):
    """Alice sends 1, 2, 3, 4, 5, then 5, 4, 3, 2, 1, then answers "Thanks!" to the FIRST acceptance,
    quoting it: the second program stays on file, and "Thanks!" gets one answer that takes nothing. "ok" and
    "see you" after it, content-free in the same thread on the same day, are recorded and not answered (the
    loop rule of issue 41); the question to the GM is answered."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    form = forms["Twonky"]
    first = accepted(table, "alice", form, "1, 2, 3, 4, 5")
    accepted(table, "alice", form, "5, 4, 3, 2, 1")
    newer = on_file(table, "Twonky")
    assert newer == [str(c) for c in program(form[1], "5, 4, 3, 2, 1")]
    for n, words in enumerate(("Thanks!", "ok", "see you", "GM: when is the next turn due?"), start=1):
        raw = gmail_reply("alice", str(first["Reply-To"]), first, words, n)
        send_raw(table.mail, "alice", raw, str(first["Reply-To"]))
        table.run(1)
        answers = table.mail.inbox("alice")
        assert on_file(table, "Twonky") == newer
        if words in ("ok", "see you"):
            assert answers == [], [str(m["Subject"]) for m in answers]
            continue
        answer = only(answers)
        assert "orders accepted" not in str(answer["Subject"]), text_of(answer)


def test_defect_2_help_in_a_flowed_reply_quoting_the_empty_form_is_answered(settings, store, dovecot, smtp_server):
    """Apple Mail quotes the turn mail format=flowed; the form's empty register lines were written "1: "
    (a trailing space: a soft break). HELP, STATUS and "see you!" get their answers, not five errors."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    _, _, msg = forms["Hammer"]
    # the turn mail as forms were written before issue 30: "1: " ... "5: " with a trailing space
    old_mail = re.sub(r"(?m)^([1-5]):$", r"\1: ", text_of(msg))
    assert "\n1: \n2: \n" in old_mail
    old_form = "\n".join(f"> {line}" if line else ">" for line in old_mail.split("\n"))
    for n, (words, kind) in enumerate((("HELP", "HELP"), ("STATUS", "STATUS"), ("see you!", "not accepted")), 1):
        raw = apple_flowed_reply("bob", str(msg["Reply-To"]), msg, words, old_form, n)
        send_raw(table.mail, "bob", raw, str(msg["Reply-To"]))
        table.run(1)
        answer = only(table.mail.inbox("bob"))
        assert kind in str(answer["Subject"]), (str(answer["Subject"]), text_of(answer))
        assert "register 1 has no card" not in text_of(answer)
    # and the form the turn mail carries now has no trailing spaces to join
    assert not any(line.endswith(" ") for line in text_of(msg).split("\n") if line[:2] in ("1:", "2:", "5:"))


def test_defect_3a_preview_hint_status_in_a_reply_to_an_acceptance_are_answered(settings, store, dovecot,
                                                                                 smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    echo = accepted(table, "carol", forms["Zoom"], "1, 2, 3, 4, 5")
    for n, command in enumerate(("PREVIEW", "STATUS", "HINT"), start=1):
        raw = gmail_reply("carol", str(echo["Reply-To"]), echo, command, n)
        send_raw(table.mail, "carol", raw, str(echo["Reply-To"]))
        table.run(1)
        answer = only(table.mail.inbox("carol"))
        assert command in str(answer["Subject"]), (str(answer["Subject"]), text_of(answer))


def test_defect_3b_the_same_program_from_another_client_is_answered_already_on_file(settings, store, dovecot,
                                                                                    smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    begin, hand, msg = forms["Twonky"]
    accepted(table, "alice", forms["Twonky"], "1, 2, 3, 4, 5")
    # from her phone: the same five cards, written as a list, a new Message-ID
    table.mail.send("alice", begin + "\n" + ", ".join(str(c) for c in hand[:5]) + "\nEND\n\nSent from my iPhone\n",
                    f"Re: {msg['Subject']}", in_reply_to=msg["Message-ID"])
    table.run(1)
    answer = only(table.mail.inbox("alice"))
    assert "already on file" in str(answer["Subject"]) and "nothing changed" in text_of(answer)


def test_defect_3c_a_mistake_after_the_hourly_error_quota_is_answered_in_the_digest(settings, store, dovecot,
                                                                                   smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    table.start()
    quota = settings.error_replies_per_hour
    for n in range(quota + 2):
        table.mail.send("bob", f"gibberish {n}\n", f"orders {n}")
    table.run(1)
    errors = table.mail.inbox("bob")
    assert len(errors) == quota and all("not accepted" in str(m["Subject"]) for m in errors)
    table.run(61)   # the hour is over: the digest goes
    digest = only(table.mail.inbox("bob"))
    text = text_of(digest)
    assert "answers of the last hour" in str(digest["Subject"])
    assert f"gibberish {quota}" in text and f"gibberish {quota + 1}" in text


def test_two_hundred_mixed_mails_get_exactly_one_answer_each(settings, store, dovecot, smtp_server):
    """Orders, repeats, HELP, STATUS, thanks, mistakes from three players: every mail is answered once,
    alone or in its player's digest (which writes out 30 answers and counts the rest)."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    kinds = ["orders", "repeat", "HELP", "STATUS", "Thanks!", "FWD9 1", "CARDS", "orders"]
    sent: dict[str, list[str]] = {user: [] for user in PLAYERS.values()}
    n = 0
    for robot, (begin, hand, msg) in forms.items():
        user = PLAYERS[robot]
        for i in range(67 if robot != "Zoom" else 66):
            kind = kinds[i % len(kinds)]
            body = {"orders": orders(begin, hand[i % 4:i % 4 + 5]), "repeat": orders(begin, hand[(i - 1) % 4:][:5])}\
                .get(kind, kind + "\n")
            subject = f"mail {n}"
            table.mail.send(user, body, subject, in_reply_to=msg["Message-ID"])
            sent[user].append(subject)
            n += 1
    assert n == 200
    table.run(1)
    table.run(61)
    for user, subjects in sent.items():
        mails = table.mail.inbox(user)
        # not the turn report (all programs in: turn 1 resolves)
        answers = [m for m in mails if "results, your cards" not in str(m["Subject"])]
        answered = [str(m["Subject"]) for m in answers if "last hour" not in str(m["Subject"])]
        in_digest = [line for m in answers if "last hour" in str(m["Subject"])
                     for line in text_of(m).split("\n") if line.startswith("=== ")]
        more = sum(int(m.group(1)) for d in answers if "last hour" in str(d["Subject"])
                   for m in re.finditer(r"\(and (\d+) more of your mails", text_of(d)))
        per_mail = {subject: sum(f'"{subject}"' in line for line in in_digest) for subject in subjects}
        assert len(answered) + len(in_digest) + more == len(subjects), (user, answered, in_digest, more)
        assert all(count <= 1 for count in per_mail.values()), per_mail


def test_defect_6_programs_as_players_write_them_are_read(settings, store, dovecot, smtp_server):
    """FWD3(800), "#1 ... #2 ...", Right90 80 and "Reboot: yes" are read; SACRIFICE AT HP 0 is refused
    with the words that mean never."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    _, hand, msg = forms["Twonky"]
    spelled = {"RT90": "Right90", "LF90": "Left90"}
    mails = [
        (", ".join(f"{c.type.code}({c.priority})" for c in hand[:5]) + "\nReboot: yes", hand[:5], True),
        (" ".join(f"#{i} {c}" for i, c in enumerate(hand[1:6], start=1)), hand[1:6], None),
        ("\n".join(f"{i}: {spelled.get(c.type.code, c.type.code)} {c.priority}"
                   for i, c in enumerate(hand[2:7], start=1)), hand[2:7], None),
    ]
    for n, (body, cards, power_down) in enumerate(mails, start=1):
        raw = gmail_reply("alice", str(msg["Reply-To"]), msg, body, n)
        send_raw(table.mail, "alice", raw, str(msg["Reply-To"]))
        table.run(1)
        answer = only(table.mail.inbox("alice"))
        assert "orders accepted" in str(answer["Subject"]), (body, text_of(answer))
        assert on_file(table, "Twonky") == [str(c) for c in cards]
        if power_down:
            assert "\nREBOOT\n" in text_of(answer)
    raw = gmail_reply("alice", str(msg["Reply-To"]), msg, "SACRIFICE AT HP 0", 9)
    send_raw(table.mail, "alice", raw, str(msg["Reply-To"]))
    table.run(1)
    answer = only(table.mail.inbox("alice"))
    assert "not accepted" in str(answer["Subject"]) and "SACRIFICE NEVER" in text_of(answer)
