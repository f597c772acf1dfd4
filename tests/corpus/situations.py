"""The reply corpus: client x language x what is quoted x what is written, each with what must come of it.

For every client and language a fresh game is started and announced (so its turn mail is in the outbox);
Alice (Twonky) then sends a mistake (for an error answer to quote), her first program (quoting the turn
mail) and a run of situations drawn in rotation from :data:`WRITTEN` x :data:`QUOTED`. Each situation
says what must be on file afterwards and what the one answer is (its kind and the words of its subject),
or that no answer goes (a GM block from a player, which is not a GM mail). :func:`run` delivers them
through the real intake (stored and processed as a poll would) and returns each with its outcome.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.parser import BytesParser

from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.intake.process import process_pending, referee_gm_handler
from referee.store import Store
from referee.store.incoming_batch import record_batch
from referee.store.mail_models import IncomingMail, OutgoingMail
from tests.corpus.clients import CLIENTS, LANGS, QUOTING, Original, build
from tests.intake.helpers import GM, GM_SECRET, PLAYERS, REFEREE, address

T0 = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)
#: what the player writes
WRITTEN = ["orders", "orders-in-form", "thanks", "HELP", "STATUS", "PREVIEW", "HINT", "CARDS", "repeat",
           "option-order", "gm-command", "forgery", "mistake", "question"]
#: what her reply quotes (an answer of ours, the turn mail)
QUOTED = ["turn", "echo", "error", "answer"]


@dataclass
class Situation:
    client: str
    lang: str
    written: str
    quoted: str
    #: the program that must be on file afterwards (card strings)
    program: list[str] | None
    #: the answer's kind (OutgoingMail.kind) and a word of its subject; None: no answer
    answer: tuple[str, str] | None
    raw: bytes = b""
    #: filled by :func:`run`
    got: str = ""
    ok: bool = False

    @property
    def name(self) -> str:
        return f"{self.client}-{self.lang}-{self.written}-quoting-{self.quoted}"


def settings_for(db_url: str) -> Settings:
    return Settings(database_url=db_url, referee_address=REFEREE, referee_name="RoboRally referee", gm_address=GM,
                    gm_secret=GM_SECRET, signing_key="corpus", transport="maildir", answers_per_hour=1000,
                    error_replies_per_hour=1000)


def _text(raw: bytes) -> tuple[str, object]:
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    part = msg.get_body(("plain",))
    return (part.get_content() if part is not None else ""), msg


def _original(row: OutgoingMail) -> Original:
    text, msg = _text(row.raw)
    return Original(text.replace("\r\n", "\n"), str(msg["Message-ID"]), str(msg["Subject"]),  # type: ignore[index]
                    reply_to=str(msg["Reply-To"] or REFEREE))  # type: ignore[index]


def _fill_form(text: str, cards: list[str]) -> str:
    """The turn mail with its form's registers typed in."""
    for i, card in enumerate(cards, start=1):
        text = re.sub(rf"(?m)^{i}:\s*$", f"{i}: {card}", text, count=1)
    return text


def rotation() -> Iterator[tuple[str, str]]:
    """(written, quoted) pairs, every combination in turn, forever."""
    return itertools.cycle(list(itertools.product(WRITTEN, QUOTED)))


class Table:
    """One game per client and language, and the mails of its situations."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store, self.settings = store, settings
        self.n = 0
        self.now = T0

    def deliver(self, raw: bytes) -> None:
        self.now += timedelta(minutes=1)
        with self.store.write() as s:
            record_batch(s, [(None, raw, self.now)], source="maildir", mailbox="maildir:corpus")
        process_pending(self.store, self.settings, now=self.now, gm_handler=referee_gm_handler)

    def game(self) -> str:
        self.n += 1
        code = f"C{self.n:04d}"
        with self.store.write() as s:
            game = g.create_game(s, course="sprint", code=code, seed="corpus", now=self.now, actor="test")
            for robot, user in PLAYERS.items():
                g.add_player(s, game, email=address(user), robot=robot, name=user.title(), actor="test",
                             now=self.now)
            g.start_and_announce(s, self.settings, game, actor="test", now=self.now)
        return code

    def state(self, code: str) -> tuple[list[str], list[str] | None, str, int]:
        """Twonky's hand, the program on file, its key, the outbox's last id."""
        with self.store.read() as s:
            game = g.get_game(s, code)
            turn = g.open_turn(s, game)
            player = g.get_player(s, game, "Twonky")
            order = g.active_orders(s, turn).get(player.id)
            last = s.scalar(select(OutgoingMail.id).order_by(OutgoingMail.id.desc()).limit(1)) or 0
            return list(turn.hands["Twonky"]), (list(order.program) if order else None), player.secret, last

    def latest(self, code: str, kind: str) -> OutgoingMail | None:
        with self.store.read() as s:
            game = g.get_game(s, code)
            player = g.get_player(s, game, "Twonky")
            return s.scalars(select(OutgoingMail).where(OutgoingMail.player_id == player.id,
                                                        OutgoingMail.kind == kind)
                             .order_by(OutgoingMail.id.desc()).limit(1)).first()

    def answers_after(self, last: int) -> list[OutgoingMail]:
        with self.store.read() as s:
            return list(s.scalars(select(OutgoingMail).where(OutgoingMail.id > last,
                                                             OutgoingMail.recipients.is_not(None))
                                  .order_by(OutgoingMail.id)))


def situations_of(table: Table, client: str, lang_code: str, pairs: list[tuple[str, str]]) -> list[Situation]:
    """Play one client and language: a mistake, the first program, then ``pairs``; each judged as it goes."""
    lang = next(x for x in LANGS if x.code == lang_code)
    code = table.game()
    alice = address("alice")
    out: list[Situation] = []
    # a reply with nothing new quoting our answer gets one answer per thread a day (issue 41): the threads
    # of such replies (an answer to one belongs to its thread) and those answered already
    threads: dict[str, str] = {}
    answered: set[str] = set()

    def send(written: str, quoted: str, body: str, expect_program: list[str] | None,
             answer: tuple[str, str] | None, *, original: Original | None = None, sender: str = alice,
             more: list[str] | None = None, to: str | None = None) -> None:
        source = {"turn": "turn_start", "echo": "echo", "error": "rejection", "answer": "answer"}[quoted]
        row = table.latest(code, source) or table.latest(code, "turn_start")
        assert row is not None
        root = threads.get(row.message_id, row.message_id) if written == "thanks" and row.kind != "turn_start" \
            else None
        if root is not None and root in answered:
            answer = None   # the second of its thread today: recorded, not answered
        elif root is not None:
            answered.add(root)
        o = original or _original(row)
        table.n += 1
        raw = build(client, lang, body, o, n=table.n, sender=sender, to=to or o.reply_to, more=more)
        _, _, _, last = table.state(code)
        table.deliver(raw)
        _, program, _, _ = table.state(code)
        mails = [m for m in table.answers_after(last) if alice in m.recipients]
        if root is not None:
            threads.update((m.message_id, root) for m in mails)
        got = ", ".join(f"{m.kind}: {m.subject}" for m in mails) or "no answer"
        ok = program == expect_program and (
            (answer is None and not mails) or
            (answer is not None and len(mails) == 1 and mails[0].kind == answer[0] and answer[1] in mails[0].subject))
        out.append(Situation(client, lang_code, written, quoted, expect_program, answer, raw,
                             got + f"; on file: {program}", ok))

    hand, _, _, _ = table.state(code)
    send("mistake", "turn", "FWD9 999, 2, 3, 4, 5", None, ("rejection", "not accepted"))
    first = hand[:5]
    send("orders", "turn", "1, 2, 3, 4, 5", first, ("echo", "orders accepted"))
    on_file = first
    for written, quoted in pairs:
        if written == "orders-in-form":   # typed into the quoted turn mail, where the client quotes with ">"
            written, quoted = ("orders-in-form", "turn") if client in QUOTING else ("orders", quoted)
        if written == "orders":
            new = [hand[i] for i in (4, 3, 2, 1, 0)] if on_file != [hand[i] for i in (4, 3, 2, 1, 0)] else first
            positions = ", ".join(str(hand.index(c) + 1) for c in new)
            send(written, quoted, positions, new, ("echo", "orders accepted"))
            on_file = new
        elif written == "orders-in-form":
            new = [hand[i] for i in (5, 6, 7, 8, 0)] if on_file != [hand[i] for i in (5, 6, 7, 8, 0)] else first
            row = table.latest(code, "turn_start")
            assert row is not None
            o = _original(row)
            o = Original(_fill_form(o.text, new), o.message_id, o.subject, reply_to=o.reply_to)
            send(written, quoted, "Here you go.", new, ("echo", "orders accepted"), original=o)
            on_file = new
        elif written == "repeat":
            send(written, quoted, "\n".join(f"{i}: {c}" for i, c in enumerate(on_file, start=1)), on_file,
                 ("echo", "already on file"))
        elif written in ("HELP", "STATUS", "PREVIEW", "HINT", "CARDS"):
            send(written, quoted, written.lower() if quoted == "echo" else written, on_file, ("answer", written))
        elif written == "thanks":
            send(written, quoted, {"en": "Thanks!", "de": "Danke!", "fr": "Merci !", "nl": "Bedankt!",
                                   "es": "¡Gracias!", "it": "Grazie!", "pl": "Dzięki!", "sv": "Tack!"}[lang_code],
                 on_file, ("rejection", "not accepted"))
        elif written == "question":
            send(written, quoted, "When is the deadline, please?", on_file, ("rejection", "not accepted"))
        elif written == "mistake":
            send(written, quoted, "1: FWD2 999\n2: 2\n3: 3\n4: 4\n5: 5", on_file, ("rejection", "not accepted"))
        elif written == "option-order":   # Twonky holds no option card: refused by name, nothing changed
            send(written, quoted, "BRAKES 2", on_file, ("rejection", "not accepted"))
        elif written == "gm-command":     # a GM block from a player: not a GM, never answered, nothing changed
            send(written, quoted, f"BEGIN GM {code} key guess\nPAUSE\nEND", on_file, None)
        elif written == "forgery":        # her address, another domain's envelope, no key (the forger has not
            # seen her reply address): refused, and never answered to the address it names (issue 41)
            send(written, quoted, "1, 2, 3, 4, 5" if on_file != first else "5, 4, 3, 2, 1", on_file,
                 None, more=["Return-Path: <bulk@attacker.example>"], to=REFEREE)
    return out


def run(store: Store, settings: Settings, *, per_game: int = 3, clients: list[str] | None = None) -> list[Situation]:
    """Every client in every language, with ``per_game`` situations of the rotation each (plus the two that
    open every game)."""
    turn = rotation()
    table = Table(store, settings)
    out: list[Situation] = []
    for client in clients or CLIENTS:
        for lang in LANGS:
            out.extend(situations_of(table, client, lang.code, [next(turn) for _ in range(per_game)]))
    return out


__all__ = ["QUOTED", "WRITTEN", "IncomingMail", "Situation", "run", "settings_for"]
