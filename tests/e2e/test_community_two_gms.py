"""Issue 31 end to end, through the real IMAP and SMTP servers, on SQLite and PostgreSQL: two game masters run
two games at once on one installation. The configured GM (gm@) opens CA-1 for sign-up and Grace, added by the
operator with ``referee gm-admin add``, opens CB-1. Dave joins both by mail, bob joins CA-1 and carol CB-1;
each GM accepts in their own game only (the other's ACCEPT, OPEN and PAUSE are refused and change nothing);
both games start when full. Dave resigns from CA-1, moves his CB-1 seat to a new address (confirmed from
there), and gets carol's press there; Heidi observes CA-1, gets its public results and unsubscribes with the
mail's own List-Unsubscribe address."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import unquote

from referee import games as g
from tests.e2e.test_community_by_mail import send, subjects
from tests.e2e.test_game_by_mail import SECRET, T0, Mailer, at, text_of, tick_ok
from tests.e2e.test_two_gms_by_mail import add_gm, empty, snapshot, unmarked

GAMES = {"gm": "CA-1", "grace": "CB-1"}
OTHER = {"gm": "grace", "grace": "gm"}


def test_two_gms_sign_up_resign_new_address_press_and_an_observer(settings, store, dovecot, smtp_server):
    empty(dovecot, "dave", "erin", "grace", "heidi")
    keys = {"gm": SECRET, "grace": add_gm(settings, "grace")}
    mail = Mailer(dovecot, smtp_server)
    clock = [T0]
    got: dict[str, list] = {}

    def box(user: str) -> list:
        """Every mail ``user`` has received so far, oldest first."""
        got.setdefault(user, []).extend(mail.inbox(user))
        return got[user]

    def run() -> None:
        clock[0] += timedelta(minutes=5)
        tick_ok(settings, store, clock[0])

    def gm(who: str, code: str | None, *lines: str) -> str:
        """GM ``who`` mails a block; a tick runs; their one new answer, as text."""
        before = len([m for m in box(who) if "GM commands" in str(m["Subject"])])
        send(mail, who, f"BEGIN GM {code or ''} key {keys[who]}\n" + "\n".join(lines) + "\nEND\n")
        run()
        answers = [m for m in box(who) if "GM commands" in str(m["Subject"])]
        assert len(answers) == before + 1, subjects(answers)
        return text_of(answers[-1])

    def last(user: str) -> str:
        return text_of(box(user)[-1])

    # -- each GM makes a game and opens it for sign-up: two seats, started when full ----------------------------
    for who, code in GAMES.items():
        said = gm(who, None, f"NEWGAME {code} COURSE sprint SEED {code} SETTLE 0", "OPEN SEATS 2", "AUTOSTART ON")
        assert "0 not done" in said, said
    send(mail, "heidi", "LIST")
    run()
    listed = last("heidi")
    for code in GAMES.values():
        assert f"{code}  sprint: open for sign-up, 0 of 2 seats taken" in listed, listed

    # -- dave joins both, bob CA-1, carol CB-1; each game's master is told of their own game's joins -----------
    for user, code, robot in (("dave", "CA-1", "Spinner"), ("dave", "CB-1", "Spinner"), ("bob", "CA-1", "Hammer"),
                              ("carol", "CB-1", "Zoom")):
        send(mail, user, f"JOIN {code} AS {robot}")
        run()
        assert f"asked for a seat in {code} as {robot}" in last(user)
    for who, code in GAMES.items():
        told = [s for s in subjects(box(who)) if "asks to join" in s]
        assert told and all(code in s for s in told), told

    # -- each GM's hand on the other's game: refused as for a game that does not exist, nothing changed ---------
    for who, theirs in (("gm", "CB-1"), ("grace", "CA-1")):
        before = snapshot(store, theirs)
        tried = gm(who, theirs, "ACCEPT Spinner", "PAUSE", "SET DEADLINE +1h", "PRESS OFF")
        nowhere = gm(who, "CZ-9", "ACCEPT Spinner", "PAUSE", "SET DEADLINE +1h", "PRESS OFF")
        assert unmarked(tried.replace(theirs, "CZ-9")) == unmarked(nowhere)
        assert tried.count(f"NOT DONE: no game '{theirs}'") == 4, tried
        named = gm(who, GAMES[who], f"OPEN {theirs} SEATS 6")
        assert f"no game '{theirs}'" in named, named
        assert snapshot(store, theirs) == before

    # -- each accepts their own; both games start when full ----------------------------------------------------
    for who, code in GAMES.items():
        said = gm(who, code, "ACCEPT Spinner", "ACCEPT " + ("Hammer" if code == "CA-1" else "Zoom"))
        assert "the game has started" in said, said
    with store.read() as s:
        assert {g.get_game(s, code).status for code in GAMES.values()} == {"running"}
    starts = {code: next(m for m in box("dave") if str(m["Subject"]).startswith(f"{code} has started"))
              for code in GAMES.values()}

    # -- heidi observes CA-1 (a confirmation first: nothing else goes to an address that did not ask) -----------
    send(mail, "heidi", "OBSERVE CA-1")
    run()
    confirmation = next(m for m in box("heidi") if "[confirm" in str(m["Subject"]))
    send(mail, "heidi", "", subject=f"Re: {confirmation['Subject']}", in_reply_to=confirmation["Message-ID"])
    run()

    # -- dave resigns from CA-1 by replying to its turn mail; its master is told, the other GM is not ------------
    a_start = starts["CA-1"]
    send(mail, "dave", "RESIGN CA-1\n", subject=f"Re: {a_start['Subject']}", to=str(a_start["Reply-To"]),
         in_reply_to=a_start["Message-ID"])
    run()
    assert "you resigned from CA-1" in last("dave")
    assert any("Spinner resigned" in s for s in subjects(box("gm")))
    assert not any("resigned" in s for s in subjects(box("grace")))

    # -- CA-1 plays a turn: bob and the observer get results, dave does not --------------------------------------
    assert "turn 1 resolved" in gm("gm", "CA-1", "PROCESS")
    assert any("CA-1 turn 1 results" in s for s in subjects(box("bob")))
    assert not any("CA-1 turn 1 results" in s for s in subjects(box("dave")))
    (results,) = [m for m in box("heidi") if "CA-1 turn 1 results" in str(m["Subject"])]
    assert results["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "BEGIN CA-1" not in text_of(results)          # public results: no hand, no form, no key

    # -- dave moves his CB-1 seat to erin@, who confirms from there -----------------------------------------------
    b_start = starts["CB-1"]
    send(mail, "dave", f"SET ADDRESS {at('erin')}\n", subject=f"Re: {b_start['Subject']}",
         to=str(b_start["Reply-To"]), in_reply_to=b_start["Message-ID"])
    run()
    (confirm,) = box("erin")
    with store.read() as s:
        assert g.get_player(s, g.get_game(s, "CB-1"), "Spinner").email == at("dave")   # not before erin answers
    send(mail, "erin", "Yes, that is me.\n", subject=f"Re: {confirm['Subject']}", in_reply_to=confirm["Message-ID"])
    run()
    with store.read() as s:
        assert g.get_player(s, g.get_game(s, "CB-1"), "Spinner").email == at("erin")
    assert any("Spinner" in s and "address" in s.lower() for s in subjects(box("grace")))   # CB-1's GM told

    # -- carol sends press in CB-1: it reaches dave at his new address, signed Zoom, without carol's address ------
    carol_start = next(m for m in box("carol") if str(m["Subject"]).startswith("CB-1 has started"))
    send(mail, "carol", "PRESS TO Spinner\nSee you at the first flag.\n", subject=f"Re: {carol_start['Subject']}",
         to=str(carol_start["Reply-To"]), in_reply_to=carol_start["Message-ID"])
    run()
    (press,) = [m for m in box("erin") if "press from Zoom" in str(m["Subject"])]
    assert "See you at the first flag." in text_of(press) and at("carol") not in press.as_string()
    assert not any("press" in s for s in subjects(box("dave")))

    # -- heidi unsubscribes with the header's own address: CA-1's next results do not reach her ------------------
    target = re.match(r"<mailto:([^?]+)\?subject=(.+)>", str(results["List-Unsubscribe"]))
    assert target is not None
    send(mail, "heidi", "", subject=unquote(target.group(2)), to=target.group(1))
    run()
    assert "turn 2 resolved" in gm("gm", "CA-1", "PROCESS")
    assert any("CA-1 turn 2 results" in s for s in subjects(box("bob")))
    assert not any("CA-1 turn 2 results" in s for s in subjects(box("heidi")))
