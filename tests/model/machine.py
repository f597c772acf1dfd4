"""The whole service as a Hypothesis state machine (issue 41): players, strangers, an observer, the GM and a
forger write mails of many shapes; the clock jumps; ticks run; the GM gives commands. After every step the
promises of docs/players.md, docs/gm.md and docs/security.md must hold (see :meth:`ServiceMachine.promises`).

The machine is driven by ``tests/model/test_service_model.py`` (CI: derandomized, a few dozen examples) and by
``benchmarks/model_service.py`` (long runs). Its database comes from :attr:`ServiceMachine.databases`, set by
the driver: a fresh database URL and a function that drops it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from statistics import median

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import select

from referee import games as g
from referee.games.resolving import replay_turn
from referee.store.community_models import Departure
from referee.store.mail_models import IncomingMail, OutgoingMail

from .service import (
    GAME,
    GM,
    GM_SECRET,
    PLAYERS,
    ROBOTS,
    STRANGERS,
    TICK_INTERVAL,
    VICTIMS,
    Sent,
    World,
    message_of,
    tags_in,
    text_of,
)

#: a gap between ticks this long or shorter may be a slow cron, not an outage, unless it is well above the cadence
#: of the ticks before it (see :meth:`ServiceMachine._outages`: a 30-minute gap in a run of 5-minute ticks is an
#: outage, a 30-minute cron is not; deploy/README.md, referee/cron/cadence.py)
SLOW_CRON = timedelta(minutes=35)
OUTAGE_TIMES = 3
#: an address that never wrote gets at most this many mails in any DAY
NEVER_ASKED_BUDGET = 3
DAY = timedelta(days=1)

ROBOT = st.sampled_from(ROBOTS)
PLAYER_COMMANDS = st.sampled_from(["GAMES", "HELP", "PRESS TO ALL\nShall we race to the flag?", "RESIGN",
                                   "SET ADDRESS victim", "ABSENT NONE", "SET WHOIS ON", "SET PICTURES NONE",
                                   "SET PICTURES STAGES", "WHAT IS THIS"])
STRANGER_SHAPES = st.sampled_from(["LIST", f"JOIN {GAME}", f"OBSERVE {GAME}", "HELP", "I want to join",
                                   "unsubscribe", "WHOIS Twonky", "hello?"])
FORGED_SHAPES = st.sampled_from(["HELP", "LIST", f"JOIN {GAME}", f"OBSERVE {GAME}", "WHOIS Twonky", "GAMES",
                                 "1: Move 1\n2: Move 1\n3: Move 1\n4: Move 1\n5: Move 1", "RESIGN " + GAME])
GM_COMMANDS = st.sampled_from(["STATUS", "EXTEND 6h", "PAUSE", "RESUME", "SET DEADLINE +1d", "PROCESS"])
JUMPS = st.one_of(st.integers(1, 35).map(lambda m: timedelta(minutes=m)),
                  st.integers(1, 23).map(lambda h: timedelta(hours=h)),
                  st.integers(1, 3).map(lambda d: timedelta(days=d)))


class ServiceMachine(RuleBasedStateMachine):
    """One referee, its clock and its correspondents (see the module docstring)."""

    #: set by the driver: makes a fresh database and returns its URL and how to drop it
    databases: Callable[[], tuple[str, Callable[[], None]]]
    #: set by a long run that wants every broken promise rather than the first: promise -> [examples that
    #: broke it, the first message with the mails of its example]; None (the test): a broken promise fails
    broken: dict[str, list[object]] | None = None

    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory(prefix="referee-model-")
        self.db_url, self.drop = type(self).databases()
        self.world: World | None = None
        #: after a tick and before anything new was written or the clock moved
        self.settled = False
        #: every key each robot's seat ever had, oldest first
        self.keys: dict[str, list[str]] = {robot: [] for robot in ROBOTS}
        self.replayed: set[tuple[int, int]] = set()
        #: promises broken in this example (a long run counts each once per example), and the mails written
        self.broken_here: set[str] = set()

    def teardown(self) -> None:
        if self.world is not None:
            self.world.close()
        self.drop()
        self.tmp.cleanup()

    @initialize()
    def start(self) -> None:
        self.world = World.start(self.db_url, Path(self.tmp.name))
        self.settled = True
        self._remember_keys()

    @property
    def w(self) -> World:
        assert self.world is not None
        return self.world

    # -- the people --------------------------------------------------------------------------------------
    def _key_block(self, robot: str, lines: list[str], *, key: str | None = None) -> str:
        if key is None:
            key = self.w.read(lambda s: self.w.player(s, robot).secret)
        return "\n".join([f"BEGIN {GAME} {robot} key {key}", *lines, "END"]) + "\n"

    def _wrote(self) -> None:
        self.settled = False

    @rule(robot=ROBOT, old_key=st.booleans())
    def player_sends_orders(self, robot: str, old_key: bool) -> None:
        """Five cards of her hand, in a BEGIN block with her key (or with the first key she was given)."""
        def cards(s: object) -> list[str]:
            turn = g.open_turn(s, self.w.game(s))  # type: ignore[arg-type]
            if turn is None:
                return ["Move 1"] * 5
            locked = turn.locked.get(robot, {})
            hand = list(turn.hands.get(robot, []))
            return [str(locked.get(str(r)) or (hand.pop(0) if hand else "Move 1")) for r in range(1, 6)]
        lines = [f"{i}: {c}" for i, c in enumerate(self.w.read(cards), start=1)]
        key = self.keys[robot][0] if old_key and self.keys[robot] else None
        self.w.write(PLAYERS[robot], "orders", self._key_block(robot, lines, key=key), shape="orders")
        self._wrote()

    @rule(robot=ROBOT)
    def player_sends_bad_orders(self, robot: str) -> None:
        self.w.write(PLAYERS[robot], "orders", self._key_block(robot, ["1: fly to the flag", "2: Move 9"]),
                     shape="bad orders")
        self._wrote()

    @rule(robot=ROBOT, command=PLAYER_COMMANDS)
    def player_sends_a_command(self, robot: str, command: str) -> None:
        if command == "RESIGN":
            command = f"RESIGN {GAME}"
        if command == "SET ADDRESS victim":
            command = f"SET ADDRESS {VICTIMS[ROBOTS.index(robot)]}"
        self.w.write(PLAYERS[robot], "commands", self._key_block(robot, command.splitlines()), shape=command)
        self._wrote()

    @rule(who=st.sampled_from([*ROBOTS, "GM", *STRANGERS]), ticket=st.booleans())
    def someone_replies_to_our_last_mail_with_nothing_new(self, who: str, ticket: bool) -> None:
        """A reply quoting the referee's last mail to her with no text of its own (or a ticket system's line)."""
        address = PLAYERS.get(who) or (GM if who == "GM" else who)
        last = next((message_of(o.raw) for o in reversed(self.w.outgoing())
                     if o.status == "sent" and address in [a.lower() for a in o.recipients]), None)
        if last is None:
            return
        body = last.get_body(("plain",))
        quoted = "\n".join("> " + line for line in (body.get_content() if body else "").splitlines()[:60])
        head = "Your request #4711 has been received and will be handled shortly.\n\n" if ticket else ""
        self.w.write(address, f"Re: {last['Subject']}", f"{head}On Monday, the referee wrote:\n{quoted}\n",
                     shape="ticket reply" if ticket else "content-free reply", content_free=True,
                     in_reply_to=str(last["Message-ID"]))
        self._wrote()

    @rule(stranger=st.sampled_from(STRANGERS), shape=STRANGER_SHAPES)
    def a_stranger_writes(self, stranger: str, shape: str) -> None:
        self.w.write(stranger, "hello", shape + "\n", shape=f"stranger: {shape}")
        self._wrote()

    @rule(victim=st.sampled_from([*VICTIMS, *PLAYERS.values()]), shape=FORGED_SHAPES)
    def a_forger_writes_in_someone_elses_name(self, victim: str, shape: str) -> None:
        self.w.write(victim, "hello", shape + "\n", shape=f"forged: {shape}", forged=True)
        self._wrote()

    @rule(command=GM_COMMANDS)
    def the_gm_gives_a_command(self, command: str) -> None:
        block = f"BEGIN GM {GAME} key {GM_SECRET}\n{command}\nEND\n"
        self.w.write(GM, "commands", block, shape=f"gm: {command}")
        self._wrote()

    # -- time ------------------------------------------------------------------------------------------
    @rule(delta=JUMPS)
    def time_passes_then_the_cron_ticks(self, delta: timedelta) -> None:
        self.w.jump(delta)
        self.w.run_tick()
        self.settled = True
        self._remember_keys()

    @rule()
    def a_tick_runs(self) -> None:
        self.w.run_tick()
        self.settled = True
        self._remember_keys()

    @rule(every=st.integers(15, 35), ticks=st.integers(2, 6))
    def a_slow_cron_runs(self, every: int, ticks: int) -> None:
        for _ in range(ticks):
            self.w.jump(timedelta(minutes=every))
            self.w.run_tick()
            self._remember_keys()
        self.settled = True

    @precondition(lambda self: self.world is not None and len(self.w.sent) > 0)
    @rule(outage=st.integers(2, 48))
    def an_outage_then_ticks(self, outage: int) -> None:
        """No tick for hours, then the cron comes back."""
        self.w.jump(timedelta(hours=outage))
        for _ in range(2):
            self.w.run_tick()
            self._remember_keys()
            self.w.jump(timedelta(minutes=5))
        self.settled = False

    def _remember_keys(self) -> None:
        for robot in ROBOTS:
            key = self.w.read(lambda s, r=robot: self.w.player(s, r).secret)
            if key not in self.keys[robot]:
                self.keys[robot].append(key)

    # -- the promises ------------------------------------------------------------------------------------
    @invariant()
    def promises(self) -> None:
        if self.world is None:
            return
        w = self.w
        incoming = {m.message_id: m for m in w.incoming()}
        outgoing = w.outgoing()
        texts = {o.id: text_of(o.raw) for o in outgoing}
        checks: list[tuple[str, Callable[[], None]]] = [
            ("no mail lost", lambda: self._no_mail_lost(incoming)),
            ("genuine mail answered once", lambda: self._genuine_mail_answered_once(incoming, outgoing, texts)),
            ("forged mail never answered", lambda: self._forged_mail_never_answered(incoming, outgoing, texts)),
            ("never-asked budget", lambda: self._never_asked_budget(outgoing)),
            ("resigned seats", lambda: self._resigned_seats(outgoing, texts)),
            ("outages", self._outages),
            ("turns replay", self._turns_replay),
        ]
        if self.settled:
            checks += [("turns on time", self._turns_on_time),
                       ("promised mail sent", lambda: self._promised_mail_sent(outgoing))]
        for name, check in checks:
            if self.broken is None:
                try:
                    check()
                except AssertionError as exc:
                    raise AssertionError(f"broken promise, {name}: {exc}\n  after: {'; '.join(w.log)}") from None
                continue
            try:
                check()
            except Exception as exc:   # a long run counts a check that cannot even be made as broken too
                if name not in self.broken_here:
                    self.broken_here.add(name)
                    seen = self.broken.setdefault(name, [0, f"{exc}\n  after: {'; '.join(self.w.log)}"])
                    seen[0] = int(str(seen[0])) + 1

    def _no_mail_lost(self, incoming: dict[str | None, IncomingMail]) -> None:
        for sent in self.w.sent:
            row = incoming.get(sent.message_id)
            if row is None:
                assert not self.settled, f"mail [m{sent.tag}] ({sent.shape}) was never stored"
                continue
            assert row.outcome != "error", f"mail [m{sent.tag}] ({sent.shape}) ended in error: {row.reason}"
            if self.settled:
                assert row.outcome != "new", f"mail [m{sent.tag}] ({sent.shape}) was never processed"
            if row.outcome != "new":
                assert row.reason or row.outcome == "accepted", \
                    f"mail [m{sent.tag}] ({sent.shape}) is {row.outcome} with no reason logged"

    def _answers(self, sent: Sent, row: IncomingMail, outgoing: list[OutgoingMail], texts: dict[int, str]
                 ) -> list[OutgoingMail]:
        """The mails to its sender that answer ``sent``: alone, or as a section of a digest."""
        return [o for o in outgoing if o.status != "cancelled" and sent.sender in [a.lower() for a in o.recipients]
                and ((o.in_reply_to_id == row.id and o.kind != "digest")
                     or (o.kind == "digest" and sent.tag in tags_in(texts[o.id].split("\n", 1)[1])))]

    def _genuine_mail_answered_once(self, incoming: dict[str | None, IncomingMail], outgoing: list[OutgoingMail],
                                    texts: dict[int, str]) -> None:
        of_record = {*PLAYERS.values(), GM}
        left = self._departures()
        for sent in self.w.sent:
            row = incoming.get(sent.message_id)
            if sent.forged or sent.sender not in of_record or row is None or row.outcome == "new":
                continue
            answers = self._answers(sent, row, outgoing, texts)
            what = f"mail [m{sent.tag}] from {sent.sender} ({sent.shape}, {row.outcome}: {row.reason})"
            assert len(answers) <= 1, f"{what} answered {len(answers)} times: {[o.kind for o in answers]}"
            if sent.content_free or answers:
                continue
            # a player who resigned is a former player, no longer of record (docs/security.md): her mail is
            # answered in words of its own, but over the hour's error answers it is refused and recorded
            gone = left.get(sent.sender)
            former = gone is not None and row.processed_at is not None and row.processed_at >= gone
            assert former and "not answered: too many error answers" in (row.reason or ""), \
                f"{what} was never answered"

    def _departures(self) -> dict[str, datetime]:
        """Each address that left a seat (RESIGN), with when it first did."""
        def read(s: object) -> dict[str, datetime]:
            out: dict[str, datetime] = {}
            for d in s.scalars(select(Departure).order_by(Departure.at)):  # type: ignore[attr-defined]
                out.setdefault(d.address.lower(), d.at)
            return out
        return self.w.read(read)

    def _forged_mail_never_answered(self, incoming: dict[str | None, IncomingMail], outgoing: list[OutgoingMail],
                                    texts: dict[int, str]) -> None:
        for sent in self.w.sent:
            row = incoming.get(sent.message_id)
            if not sent.forged or row is None:
                continue
            answers = self._answers(sent, row, outgoing, texts)
            assert not answers, (f"forged mail [m{sent.tag}] ({sent.shape}) in the name of {sent.sender} was "
                                 f"answered to {sent.sender}: {[o.kind for o in answers]}")

    def _never_asked_budget(self, outgoing: list[OutgoingMail]) -> None:
        for address in VICTIMS:
            if address in self.w.asked:
                continue
            times = sorted(o.created_at for o in outgoing
                           if o.status != "cancelled" and address in [a.lower() for a in o.recipients])
            for i in range(len(times) - NEVER_ASKED_BUDGET):
                window = times[i + NEVER_ASKED_BUDGET] - times[i]
                assert window >= DAY, (f"{address} never wrote, yet got {NEVER_ASKED_BUDGET + 1} mails within "
                                       f"{window} (from {times[i]:%Y-%m-%d %H:%M})")

    def _resigned_seats(self, outgoing: list[OutgoingMail], texts: dict[int, str]) -> None:
        def departures(s: object) -> list[tuple[int, str, str, datetime]]:
            rows = s.scalars(select(Departure).order_by(Departure.id))  # type: ignore[attr-defined]
            return [(d.player_id, d.robot, d.address.lower(), d.at) for d in rows]
        orders = self.w.orders()
        incoming_by_id = {m.id: m for m in self.w.incoming()}
        for player_id, robot, address, at in self.w.read(departures):
            for order in orders:
                mail = incoming_by_id.get(order.incoming_mail_id) if order.incoming_mail_id else None
                if order.player_id == player_id and mail is not None and mail.from_addr == address and \
                        order.submitted_at > at:
                    raise AssertionError(f"{robot}'s player resigned at {at:%Y-%m-%d %H:%M}, yet her orders of "
                                         f"mail {mail.message_id} were taken")
            for o in outgoing:
                if o.created_at > at and address in [a.lower() for a in o.recipients]:
                    leaked = [k for k in self.keys[robot] if k in texts[o.id] or k.encode() in o.raw]
                    assert not leaked, (f"{robot}'s player resigned at {at:%Y-%m-%d %H:%M}, yet a {o.kind} mail "
                                        f"of {o.created_at:%Y-%m-%d %H:%M} gave her the seat's key")

    def _outages(self) -> None:
        """A gap no longer than OUTAGE_TIMES times the cadence of the ticks before it, or than OUTAGE_TIMES times
        the gap just before it, is the cron's cadence (a slow crontab, or one just changed), never an outage; a
        deadline is moved on at most once per gap that may be an outage."""
        previous: datetime | None = None
        extended: dict[str, int] = {}
        outages = 0
        seen: list[timedelta] = []   # the gaps between the recent ticks (the cadence the referee has seen)
        for at, summary in self.w.ticks:
            gap = at - previous if previous is not None else timedelta(0)
            cadence = median(seen[-20:]) if seen else timedelta(seconds=TICK_INTERVAL)
            may_be = gap > SLOW_CRON or (gap > OUTAGE_TIMES * cadence and (not seen or gap > OUTAGE_TIMES * seen[-1]))
            outages += may_be
            for turn in summary.extended:
                assert may_be, (f"{turn}'s deadline was extended at {at:%Y-%m-%d %H:%M} after a gap of {gap} since "
                                f"the last tick, with ticks every {cadence} before: the cron's cadence, not an outage")
                extended[turn] = extended.get(turn, 0) + 1
            if gap > timedelta(0):
                seen.append(gap)
            previous = at
        for turn, times in extended.items():
            assert times <= outages, f"{turn} was extended {times} times for {outages} outages"

    def _turns_on_time(self) -> None:
        now = self.w.now

        def late(s: object) -> str | None:
            game = self.w.game(s)
            turn = g.open_turn(s, game)  # type: ignore[arg-type]
            if game.status != "running" or turn is None or turn.deadline is None:
                return None
            deadline = turn.deadline if turn.deadline.tzinfo else turn.deadline.replace(tzinfo=now.tzinfo)
            return f"turn {turn.number} (deadline {deadline:%Y-%m-%d %H:%M})" if deadline <= now else None
        overdue = self.w.read(late)
        assert overdue is None, f"{overdue} is still open after the tick at {now:%Y-%m-%d %H:%M}"

    def _promised_mail_sent(self, outgoing: list[OutgoingMail]) -> None:
        now = self.w.now
        due = [o for o in outgoing if o.status in ("pending", "sending", "failed") and
               (o.next_attempt_at if o.next_attempt_at.tzinfo else o.next_attempt_at.replace(tzinfo=now.tzinfo))
               <= now]
        assert not due, f"{len(due)} mails due by {now:%Y-%m-%d %H:%M} not sent: {[o.kind for o in due][:5]}"
        delivered = {str(m["Message-ID"]) for m in self.w.delivered()}
        missing = [o.kind for o in outgoing if o.status == "sent" and o.message_id not in delivered]
        assert not missing, f"{len(missing)} mails marked sent are not in the outbox Maildir: {missing[:5]}"

    def _turns_replay(self) -> None:
        def check(s: object) -> list[str]:
            game = self.w.game(s)
            differ = []
            for turn in game.turns:
                if turn.status != "resolved" or (game.id, turn.number) in self.replayed:
                    continue
                if not replay_turn(s, game, turn.number)[1]:  # type: ignore[arg-type]
                    differ.append(f"turn {turn.number}")
                self.replayed.add((game.id, turn.number))
            return differ
        differ = self.w.read(check)
        assert not differ, f"{differ} replay differently from what was stored"

