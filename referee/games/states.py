"""The lifecycles of seats, turns, games and observers (issue 41): four explicit state machines.

Each machine is one table (:class:`Machine`): for every state and every event, either the state the
event leads to or the words of its refusal. Nothing else decides whether a seat, a turn, a game or a
subscription may change: the use cases call :func:`step` (which raises :class:`IllegalTransition`, a
:class:`~referee.store.errors.GameStateError`, so every front end answers it as a refusal, never as a
crash), and the entry points (orders, a player's requests and own commands, press, GM commands, the
tick) ask :func:`may` what a state allows. The functions at the end read a state from the store
(:func:`seat_state`, :func:`turn_state`, :func:`game_state`, :func:`observer_state`), so a test or an
invariant can ask them too.

A *seat* here is one person's hold of a robot: when a robot goes to a new player the seat's old holder
keeps the state she left in (``resigned``, ``replaced``, ``ejected``; :class:`~referee.store.models.FormerHolder`
remembers her address, when, and a digest of the key she held) and the new holder starts ``playing``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from ..store.community import (
    absent_at,
    former_holders,
    last_holding,
    observe_confirmations,
    observer_row,
    resigned,
)
from ..store.community_models import FormerHolder, SignUp
from ..store.errors import GameStateError
from ..store.mail import notice_keys
from ..store.models import Game, Player, Turn
from ..store.queries import holds_a_seat


class IllegalTransition(GameStateError):
    """An event the machine refuses in the current state: answered as a refusal, nothing changes."""

    def __init__(self, machine: str, state: str, event: str, text: str) -> None:
        super().__init__(text)
        self.machine, self.state, self.event = machine, state, event


@dataclass(frozen=True)
class Machine:
    """One lifecycle: ``table[(state, event)]`` is the next state, or ``Refuse(words)``."""

    name: str
    states: tuple[str, ...]
    events: tuple[str, ...]
    #: where a lifecycle begins
    initial: tuple[str, ...]
    table: Mapping[tuple[str, str], str | Refuse]
    #: what each state allows the entry points to do (asked by :func:`may`)
    allows: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: what each event means, for the documentation
    meaning: Mapping[str, str] = field(default_factory=dict)

    def next(self, state: str, event: str) -> str | Refuse:
        return self.table[(state, event)]

    @property
    def terminal(self) -> tuple[str, ...]:
        """States no event leaves."""
        return tuple(s for s in self.states if all(self.table[(s, e)] in (s,) or isinstance(self.table[(s, e)], Refuse)
                                                   for e in self.events))


    def markdown(self) -> str:
        """The table as the docs show it: one row a state, one column an event (``-``: refused)."""
        head = "| state | " + " | ".join(f"`{e}`" for e in self.events) + " | allows |"
        rule = "|---" * (len(self.events) + 2) + "|"
        rows = [head, rule]
        for state in self.states:
            cells = []
            for event in self.events:
                nxt = self.table[(state, event)]
                cells.append("-" if isinstance(nxt, Refuse) else f"**{nxt}**")
            allowed = ", ".join(sorted(self.allows.get(state, frozenset()))) or "nothing"
            rows.append(f"| {state} | " + " | ".join(cells) + f" | {allowed} |")
        return "\n".join(rows)


@dataclass(frozen=True)
class Refuse:
    """A refused event: its words, with ``{what}`` for the seat, turn, game or address concerned."""

    words: str


def step(machine: Machine, state: str, event: str, what: str = "") -> str:
    """The state ``event`` leads to from ``state``; raises :class:`IllegalTransition` with the refusal's
    words (``what`` names the thing: ``RR-7``, ``Hammer``, ``turn 4 of RR-7``)."""
    if state not in machine.states or event not in machine.events:
        raise IllegalTransition(machine.name, state, event, f"{what or machine.name}: no {event} from {state}")
    nxt = machine.next(state, event)
    if isinstance(nxt, Refuse):
        raise IllegalTransition(machine.name, state, event, nxt.words.format(what=what or machine.name))
    return nxt


def may(machine: Machine, state: str, action: str) -> bool:
    """Whether ``state`` allows ``action`` (``orders``, ``press``, ``own``, ``mail``...)."""
    return action in machine.allows.get(state, frozenset())


def _table(states: tuple[str, ...], events: tuple[str, ...], moves: Mapping[tuple[str, str], str],
           refusals: Mapping[tuple[str, str] | str, str], default: str) -> dict[tuple[str, str], str | Refuse]:
    """Every (state, event) cell: the move, else the refusal given for the cell, for the state, or ``default``."""
    out: dict[tuple[str, str], str | Refuse] = {}
    for state in states:
        for event in events:
            if (state, event) in moves:
                out[(state, event)] = moves[(state, event)]
            else:
                out[(state, event)] = Refuse(refusals.get((state, event), refusals.get(state, default)))
    return out


# -- seats --------------------------------------------------------------------------------------------------
SEAT_STATES = ("pending", "playing", "absent", "resigned", "replaced", "ejected", "eliminated", "finished",
               "refused")
SEAT_EVENTS = ("accept", "refuse", "away", "back", "resign", "replace", "eject", "eliminate", "restore", "finish")
_LIVE = ("playing", "absent")
SEAT = Machine(
    "seat", SEAT_STATES, SEAT_EVENTS, initial=("pending", "playing"),
    table=_table(SEAT_STATES, SEAT_EVENTS, {
        ("pending", "accept"): "playing", ("pending", "refuse"): "refused",
        ("pending", "finish"): "refused",
        ("playing", "away"): "absent", ("absent", "away"): "absent", ("absent", "back"): "playing",
        ("playing", "back"): "playing",
        **{(s, "resign"): "resigned" for s in _LIVE}, **{(s, "replace"): "replaced" for s in _LIVE},
        **{(s, "eject"): "ejected" for s in _LIVE}, **{(s, "eliminate"): "eliminated" for s in _LIVE},
        **{(s, "finish"): "finished" for s in _LIVE},
        ("eliminated", "restore"): "playing", ("eliminated", "finish"): "eliminated",
        ("eliminated", "eject"): "ejected", ("eliminated", "replace"): "replaced",
        ("resigned", "replace"): "resigned",   # the robot goes to a new player; she stays a player who resigned
        ("resigned", "finish"): "resigned", ("replaced", "finish"): "replaced", ("ejected", "finish"): "ejected",
        ("finished", "finish"): "finished",
    }, {
        "pending": "{what} waits for the game master's answer to a sign-up",
        "resigned": "{what}: that player resigned",
        "replaced": "{what}: that robot went to another player",
        "ejected": "{what} was ejected already",
        "eliminated": "{what} is out of the game",
        "finished": "{what}: the game is over",
        "refused": "{what}: that sign-up was refused",
        ("playing", "accept"): "{what} plays already", ("absent", "accept"): "{what} plays already",
        ("playing", "refuse"): "{what} plays already", ("absent", "refuse"): "{what} plays already",
        ("pending", "resign"): "{what} has no seat yet: the sign-up waits for the game master",
    }, "{what}: not possible now"),
    allows={"playing": frozenset({"orders", "requests", "own", "press", "mail", "key"}),
            "absent": frozenset({"orders", "requests", "own", "press", "mail", "key"}),
            "eliminated": frozenset({"requests", "own", "press", "mail", "key"}),
            "finished": frozenset({"requests"})},
    meaning={"accept": "the GM accepts a JOIN", "refuse": "the GM refuses it", "away": "ABSENT dates begin",
             "back": "ABSENT NONE, or the absence ends", "resign": "RESIGN", "replace": "REPLACE, or a JOIN of an "
             "open seat accepted", "eject": "EJECT", "eliminate": "the robot's last life is lost",
             "restore": "a ROLLBACK brings the robot back", "finish": "the game ends"})

#: seat states whose holder no longer holds the seat: answered in words of their own, nothing taken
GONE = ("resigned", "replaced", "ejected")


# -- turns --------------------------------------------------------------------------------------------------
TURN_STATES = ("open", "extended", "resolved")
TURN_EVENTS = ("orders", "extend", "outage", "resolve", "rerun", "publish", "rollback")
TURN = Machine(
    "turn", TURN_STATES, TURN_EVENTS, initial=("open",),
    table=_table(TURN_STATES, TURN_EVENTS, {
        ("open", "orders"): "open", ("extended", "orders"): "extended",
        ("open", "extend"): "extended", ("extended", "extend"): "extended",
        ("open", "outage"): "extended", ("extended", "outage"): "extended",   # once per outage: outage_extended()
        ("open", "resolve"): "resolved", ("extended", "resolve"): "resolved",
        ("resolved", "rerun"): "resolved", ("resolved", "publish"): "resolved",
        ("resolved", "rollback"): "open", ("open", "rollback"): "open", ("extended", "rollback"): "open",
    }, {
        ("resolved", "orders"): "{what} is resolved: orders for it are no longer taken",
        ("resolved", "extend"): "{what} is resolved: it has no deadline any more",
        ("resolved", "outage"): "{what} is resolved: it has no deadline any more",
        ("resolved", "resolve"): "{what} is already resolved",
        "open": "{what} is not resolved yet", "extended": "{what} is not resolved yet",
    }, "{what}: not possible now"),
    allows={"open": frozenset({"orders", "remind"}), "extended": frozenset({"orders", "remind"}),
            "resolved": frozenset({"report"})},
    meaning={"orders": "a program is taken", "extend": "the GM's EXTEND, SET DEADLINE or RESUME moves the deadline",
             "outage": "the tick moves the deadline on after an outage (once per outage)",
             "resolve": "the turn is resolved", "rerun": "RERUN", "publish": "PUBLISH", "rollback": "ROLLBACK"})


# -- games --------------------------------------------------------------------------------------------------
GAME_STATES = ("forming", "running", "paused", "finished")
GAME_EVENTS = ("join", "start", "pause", "resume", "resolve", "win", "end", "rollback")
GAME = Machine(
    "game", GAME_STATES, GAME_EVENTS, initial=("forming",),
    table=_table(GAME_STATES, GAME_EVENTS, {
        ("forming", "join"): "forming", ("running", "join"): "running", ("paused", "join"): "paused",
        ("forming", "start"): "running",
        ("running", "pause"): "paused", ("paused", "resume"): "running",
        ("running", "resolve"): "running", ("paused", "resolve"): "paused",
        ("running", "win"): "finished", ("paused", "win"): "finished",
        ("forming", "end"): "finished", ("running", "end"): "finished", ("paused", "end"): "finished",
        ("running", "rollback"): "running", ("paused", "rollback"): "paused", ("finished", "rollback"): "running",
    }, {
        ("running", "start"): "{what} is already running", ("paused", "start"): "{what} is already paused",
        ("finished", "start"): "{what} is finished",
        ("forming", "pause"): "{what} is forming: only a running game can be paused",
        ("paused", "pause"): "{what} is paused: only a running game can be paused",
        ("finished", "pause"): "{what} is finished: only a running game can be paused",
        ("forming", "resume"): "{what} is forming, not paused", ("running", "resume"): "{what} is running, not paused",
        ("finished", "resume"): "{what} is finished, not paused",
        ("forming", "resolve"): "{what} has not started", ("finished", "resolve"): "{what} is over",
        ("forming", "win"): "{what} has not started", ("finished", "win"): "{what} is over",
        ("finished", "end"): "{what} is finished already",
        ("forming", "rollback"): "{what} has not started",
        ("finished", "join"): "{what} is over",
    }, "{what}: not possible now"),
    allows={"forming": frozenset({"join", "seat", "press"}),
            "running": frozenset({"join", "orders", "press", "deadline", "remind"}),
            "paused": frozenset({"join", "orders", "press"}),
            "finished": frozenset()},
    meaning={"join": "a JOIN (a new seat while forming, an open seat later)", "start": "START",
             "pause": "PAUSE", "resume": "RESUME", "resolve": "a turn is resolved", "win": "a robot wins, or no "
             "robot is left", "end": "END GAME", "rollback": "ROLLBACK (of a finished game: it runs again)"})


# -- observers ------------------------------------------------------------------------------------------------
OBSERVER_STATES = ("none", "pending", "confirmed", "unsubscribed")
OBSERVER_EVENTS = ("observe", "confirm", "expire", "unsubscribe")
OBSERVER = Machine(
    "observer", OBSERVER_STATES, OBSERVER_EVENTS, initial=("none",),
    table=_table(OBSERVER_STATES, OBSERVER_EVENTS, {
        ("none", "observe"): "pending", ("unsubscribed", "observe"): "pending", ("pending", "observe"): "pending",
        ("pending", "confirm"): "confirmed", ("pending", "expire"): "unsubscribed",
        ("pending", "unsubscribe"): "unsubscribed", ("confirmed", "unsubscribe"): "unsubscribed",
    }, {
        ("confirmed", "observe"): "you observe {what} already",
        ("none", "confirm"): "this confirmation is not known", ("unsubscribed", "confirm"): "this confirmation "
        "has expired: send the command again", ("confirmed", "confirm"): "this was confirmed already",
        ("none", "unsubscribe"): "you do not observe {what}",
        ("unsubscribed", "unsubscribe"): "you do not observe {what}",
        "none": "{what}: nothing to do", "confirmed": "{what}: nothing to do", "unsubscribed": "{what}: nothing to do",
    }, "{what}: not possible now"),
    allows={"pending": frozenset({"confirmation"}), "confirmed": frozenset({"results", "final"})},
    meaning={"observe": "OBSERVE (a confirmation goes out)", "confirm": "the confirmation is answered from the "
             "address", "expire": "7 days pass unanswered", "unsubscribe": "UNOBSERVE, or the List-Unsubscribe mail"})

MACHINES = (SEAT, TURN, GAME, OBSERVER)


def docs_tables() -> str:
    """Every machine's block, as the docs show them."""
    return "\n\n".join(doc_table(m) for m in MACHINES)


def doc_table(machine: Machine) -> str:
    """The block the docs show for ``machine``, between ``<!-- lifecycle:NAME -->`` markers (a test checks that
    every such block in ``docs/`` is this text): the table, then what each event is."""
    events = "\n".join(f"- `{e}`: {machine.meaning.get(e, e)}" for e in machine.events)
    return (f"<!-- lifecycle:{machine.name} (generated from referee/games/states.py) -->\n{machine.markdown()}\n\n"
            f"{events}\n<!-- /lifecycle:{machine.name} -->")


# -- the states as the store holds them ------------------------------------------------------------------------
def key_digest(key: str) -> str:
    """What is kept of a key a former holder held: enough to know it again, never to use it."""
    return hashlib.sha256(key.strip().lower().encode()).hexdigest()


def game_state(game: Game) -> str:
    return game.status


def seat_state(s: Session, player: Player, *, now: datetime | None = None) -> str:
    """The state of ``player``'s seat as held by its player of record."""
    game = player.game
    if player.status == "ejected":
        return "ejected"
    if player.id in resigned(s, game):
        return "resigned"
    if player.status == "out":
        return "eliminated"
    if game.status == "finished":
        return "finished"
    if now is not None and absent_at(s, player, now):
        return "absent"
    return "playing"


def signup_state(signup: SignUp) -> str:
    return {"pending": "pending", "accepted": "playing", "refused": "refused"}[signup.status]


def former_holder(s: Session, player: Player, *, address: str | None = None, key: str | None = None
                  ) -> FormerHolder | None:
    """The latest former holder of ``player``'s robot who wrote from ``address`` or gave ``key`` (the key
    she held), or None. The player of record is never her own former holder while she holds the seat."""
    rows = former_holders(s, player)
    digest = key_digest(key) if key else None
    for row in rows:
        by_address = address is not None and row.address == address.lower()
        if by_address or (digest is not None and row.key_digest == digest):
            if row.address == player.email and seat_state(s, player) not in GONE:
                continue   # she holds the seat again (handed back to her)
            return row
    return None


def last_left(s: Session, address: str) -> tuple[FormerHolder, Game] | None:
    """The seat ``address`` left last, with its game, when she holds no seat in a game not over; else None."""
    address = address.lower()
    if holds_a_seat(s, address):
        return None
    row = last_holding(s, address)
    game = s.get(Game, row.game_id) if row is not None else None
    return (row, game) if row is not None and game is not None else None


def leave_seat(s: Session, player: Player, how: str, *, now: datetime) -> FormerHolder:
    """Record that ``player``'s holder leaves the seat (``resigned``, ``replaced``, ``ejected``), by the
    seat machine, before her address or key change."""
    state = seat_state(s, player, now=now)
    event = {"resigned": "resign", "replaced": "replace", "ejected": "eject"}[how]
    step(SEAT, state, event, player.robot)
    row = FormerHolder(player_id=player.id, game_id=player.game_id, robot=player.robot, address=player.email,
                       how=how, key_digest=key_digest(player.secret), at=now)
    s.add(row)
    s.flush()
    return row


def turn_state(s: Session, turn: Turn) -> str:
    """``resolved``; ``extended`` once its deadline was moved on (by the GM or after an outage); else ``open``."""
    if turn.status == "resolved":
        return "resolved"
    return "extended" if notice_keys(s, turn, OUTAGE_NOTICE, EXTENDED_NOTICE) else "open"


#: the turn notice recording one outage's extension (its ``player_key``: the outage's start)
OUTAGE_NOTICE = "outage"
#: the turn notice recording a GM's move of the deadline
EXTENDED_NOTICE = "extended"


def observer_state(s: Session, game: Game, address: str, *, now: datetime | None = None) -> str:
    """``confirmed`` (gets the results), ``pending`` (a confirmation waits), ``unsubscribed`` (left, or the
    confirmation expired), ``none``."""
    address = address.lower()
    row = observer_row(s, game, address)
    if row is not None and row.status == "active":
        return "confirmed"
    asked = next(iter(observe_confirmations(s, address, game=game)), None)
    if asked is not None and (now is None or now < asked.expires_at):
        return "pending"
    return "unsubscribed" if row is not None or asked is not None else "none"

