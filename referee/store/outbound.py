"""The outbound policy (issue 41): why the referee sends a mail, who gets it, and whether it goes.

Every mail the referee queues passes :func:`decide`, which knows **why** it is sent (its purpose, from the
outbox ``kind``: :data:`PURPOSE_OF_KIND`) and **who** gets it (:func:`recipient_class`: a player of record,
a game master, a confirmed observer, a former player or GM, an address that never asked, or the address a
forged mail names). One table, :data:`RULES`, says for each pair what happens: the mail is **sent**,
**held** into a digest (a later mail that collects such mails), or **refused** and recorded. Budgets are
counted per recipient whatever made the referee write (``intake_marks``), and per sender over all
recipients for what a sender can make the referee mail to others (confirmations, press). Nothing held
back is lost: it is in a digest, or logged and counted (marks of kind :data:`WITHHELD`, and the mail's
outcome says why).

Callers: :meth:`referee.intake.job.Job.send` (every answer to a mail), :func:`referee.mailer.notices.notice`
(every notice, confirmation, relayed press and GM notice) and, for every other mail (turn results, game
over, GM copies, failure notices), :func:`referee.store.mail.enqueue_mails`, which decides itself for a mail
no caller decided. ``docs/security.md`` shows :data:`RULES` as one table (``benchmarks/policy_table.py``
writes it; ``tests/outbound/test_policy_doc.py`` fails when they differ).

The store knows no settings: the front ends put the budgets into the session (:func:`use`); a session
without them uses the documented defaults (:class:`Budgets`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from ..common.config import Settings
from ..mailparse.senders import limit_key
from .community_models import CoMaster, Departure, GameMaster, Observer
from .mail_models import IncomingMail, IntakeMark
from .models import Game, Player

log = logging.getLogger("referee.outbound")

# -- why --------------------------------------------------------------------------------------------------
ANSWER, CONFIRMATION, TURN_RESULTS, NOTICE, PRESS, DIGEST, STRANGER_NOTE, GM_COPY = (
    "answer", "confirmation", "turn results", "notice", "press", "digest", "stranger note", "GM copy")
PURPOSES = (ANSWER, STRANGER_NOTE, CONFIRMATION, PRESS, NOTICE, TURN_RESULTS, GM_COPY, DIGEST)

#: every ``OutgoingMail.kind`` the referee writes, and why such a mail is sent (an unknown kind: a notice)
PURPOSE_OF_KIND: dict[str, str] = {
    "echo": ANSWER, "rejection": ANSWER, "answer": ANSWER, "echo_copy": ANSWER, "gm_answer": ANSWER,
    "community": ANSWER, "gm": NOTICE,
    "stranger": STRANGER_NOTE,
    "confirm": CONFIRMATION,
    "press": PRESS,
    "notice": NOTICE, "announcement": NOTICE, "reminder": NOTICE, "gm_failure": NOTICE,
    "turn_report": TURN_RESULTS, "turn_start": TURN_RESULTS, "observer": TURN_RESULTS, "game_over": TURN_RESULTS,
    "gm_copy": GM_COPY,
    "digest": DIGEST, "gm_digest": DIGEST,
}

# -- who --------------------------------------------------------------------------------------------------
PLAYER, GM, OBSERVER, FORMER, NEVER_ASKED, FORGED = (
    "player of record", "game master", "confirmed observer", "former player or GM", "address that never asked",
    "address a forged mail names")
RECIPIENTS = (PLAYER, GM, OBSERVER, FORMER, NEVER_ASKED, FORGED)

# -- what happens -----------------------------------------------------------------------------------------
SEND, HOLD, REFUSE = "send", "digest", "refuse"


@dataclass(frozen=True)
class Budgets:
    """The budgets of :data:`RULES`, each a setting (``deploy/referee.toml``); the defaults are the settings'
    own (written once, in :class:`referee.common.config.Settings`)."""

    #: mails of any kind to one address that never asked, in 24 hours
    never_asked_per_day: int = Settings.never_asked_per_day
    #: mails to all addresses that never asked together, in an hour
    never_asked_per_hour: int = Settings.never_asked_per_hour
    #: answers of any kind to one address, and for one sender's mails, in an hour
    answers_per_hour: int = Settings.answers_per_hour
    #: notices to one game master in an hour; the others wait in the GM's digest
    gm_notices_per_hour: int = Settings.gm_notices_per_hour
    #: confirmation mails (``SET ADDRESS``, ``OBSERVE``) one sender may make the referee send, in a day
    confirmations_per_day: int = Settings.confirmations_per_day
    #: press messages one player may send, in an hour (each relayed to every robot it names)
    press_per_hour: int = Settings.press_per_hour

    @classmethod
    def of(cls, settings: Any) -> Budgets:
        """The budgets of a :class:`referee.common.config.Settings` (a field it lacks keeps its default)."""
        return cls(**{f.name: getattr(settings, f.name) for f in fields(cls) if hasattr(settings, f.name)})


#: budget -> (counted per, window)
BUDGET_SCOPE: dict[str, tuple[str, timedelta]] = {
    "never_asked_per_day": ("to one address", timedelta(days=1)),
    "never_asked_per_hour": ("to all such addresses together", timedelta(hours=1)),
    "answers_per_hour": ("to one address, and for one sender's mails", timedelta(hours=1)),
    "gm_notices_per_hour": ("to one address", timedelta(hours=1)),
    "confirmations_per_day": ("from one sender", timedelta(days=1)),
    "press_per_hour": ("from one sender", timedelta(hours=1)),
}


@dataclass(frozen=True)
class Rule:
    """What happens to a mail of ``purpose`` to a recipient of class ``to``: ``SEND`` when every budget
    has room (each counted), else ``over``."""

    purpose: str
    to: str
    budgets: tuple[str, ...] = ()
    over: str = REFUSE
    #: the rule's reason in a few words (the table's last column)
    why: str = ""
    #: a budget per sender over all recipients, spent once per command (:func:`take`), not per mail
    per_sender: str = ""


_ANY = "*"
#: the policy, most specific first: (purpose or *, recipient class or *) -> rule
RULES: tuple[Rule, ...] = (
    Rule(_ANY, FORGED, ("never",), REFUSE, "a forged mail is never answered to the address it names"),
    Rule(TURN_RESULTS, _ANY, (), SEND, "goes only to the game's players, GM and observers of record"),
    Rule(GM_COPY, _ANY, (), SEND, "goes only to the game's GM of record"),
    Rule(PRESS, PLAYER, (), SEND, "over the sender's budget the press is NOT DONE: she is told, nothing is kept",
         per_sender="press_per_hour"),
    Rule(PRESS, _ANY, ("never",), REFUSE, "press goes to players of the game only"),
    Rule(CONFIRMATION, _ANY, ("never_asked_per_day", "never_asked_per_hour"), REFUSE,
         "the only mail to a new address until it answers; over a budget the command is NOT DONE, the GM told",
         per_sender="confirmations_per_day"),
    Rule(_ANY, NEVER_ASKED, ("never_asked_per_day", "never_asked_per_hour"), REFUSE,
         "nobody can make the referee mail an address that did not ask"),
    Rule(ANSWER, PLAYER, ("answers_per_hour",), HOLD,
         "her own mail is always answered (over the budget: in her hour's digest); accepted orders always go"),
    Rule(ANSWER, _ANY, ("answers_per_hour",), REFUSE, "a GM's command mail with the right key is always answered"),
    Rule(STRANGER_NOTE, _ANY, ("answers_per_hour",), REFUSE, "one short note a day per address"),
    Rule(NOTICE, GM, ("gm_notices_per_hour",), HOLD, "never dropped: over the budget in the GM's hour's digest"),
    Rule(_ANY, _ANY, (), SEND, "what a player, GM, observer or former player signed up for"),
)


def rule_for(purpose: str, to: str) -> Rule:
    for rule in RULES:
        if rule.purpose in (purpose, _ANY) and rule.to in (to, _ANY):
            return rule
    raise AssertionError("the last rule matches everything")


#: the purposes whose rule is the same for every recipient the referee can tell (a turn's results, the GM's
#: copy): :func:`decide` does not look up who gets such a mail (four queries for the GM's copy of each turn)
_CLASS_FREE = frozenset(p for p in {*PURPOSE_OF_KIND.values(), NOTICE}
                        if len({rule_for(p, c) for c in RECIPIENTS if c != FORGED}) == 1
                        and not any(b.startswith("never_asked") for b in rule_for(p, PLAYER).budgets))


# -- the counters -----------------------------------------------------------------------------------------
#: marks (``intake_marks.kind``) of the budgets, and of every mail held back
MARKS = {"never_asked_per_day": "to:never", "never_asked_per_hour": "to:never", "answers_per_hour": "answer",
         "gm_notices_per_hour": "to:gm", "confirmations_per_day": "by:confirm", "press_per_hour": "by:press"}
ASKED = "asked"
WITHHELD, DIGESTED = "withheld", "digested"
_ALL = "*"


def count(s: Session, kind: str, key: str, now: datetime, window: timedelta) -> int:
    return s.scalar(select(func.count(IntakeMark.id)).where(IntakeMark.kind == kind, IntakeMark.key == key,
                                                            IntakeMark.at > now - window)) or 0


def mark(s: Session, kind: str, key: str, now: datetime, incoming: IncomingMail | None = None) -> None:
    s.add(IntakeMark(kind=kind, key=key[:400], at=now, incoming_mail_id=incoming.id if incoming else None))
    s.flush()


# -- the budgets a session uses ---------------------------------------------------------------------------
_SESSION_KEY = "referee.outbound.budgets"


def use(s: Session, settings: Any) -> None:
    """Let every mail queued in ``s`` be decided with ``settings``' budgets (and its GM address)."""
    s.info[_SESSION_KEY] = Budgets.of(settings)
    s.info[_SESSION_KEY + ".gm"] = str(getattr(settings, "gm_address", "") or "")


def budgets(s: Session) -> Budgets:
    found = s.info.get(_SESSION_KEY)
    return found if isinstance(found, Budgets) else Budgets()


# -- who a recipient is -----------------------------------------------------------------------------------
def recipient_class(s: Session, address: str, *, gm_address: str = "") -> str:
    """What ``address`` is to the referee now (the first that holds of player, GM, observer, former)."""
    addr = address.strip().lower()
    at = {"addr": addr}
    seats = list(s.execute(_SEATS, at))
    gone = set(s.scalars(_GONE, at)) if seats else set()
    if any(p_status == "active" and g_status != "finished" and pid not in gone for pid, p_status, g_status in seats):
        return PLAYER
    if addr == gm_address.strip().lower() or s.scalar(_MASTER, at) or s.scalar(_RUNS, at) or s.scalar(_COMASTER, at):
        return GM
    watching = set(s.scalars(_WATCHING, at))
    if "active" in watching:
        return OBSERVER
    if seats or watching or s.scalar(_RAN, at):
        return FORMER
    return NEVER_ASKED


#: the statements of :func:`recipient_class` (asked for every GM copy of a turn), built once
_ADDR = bindparam("addr")
_SEATS = select(Player.id, Player.status, Game.status).join(Game, Game.id == Player.game_id) \
    .where(Player.email == _ADDR)
_GONE = select(Departure.player_id).where(Departure.address == _ADDR)
_MASTER = select(GameMaster.id).where(GameMaster.address == _ADDR, GameMaster.active.is_(True)).limit(1)
_RUNS = select(Game.id).where(Game.gm_address == _ADDR, Game.status != "finished").limit(1)
_COMASTER = select(CoMaster.id).where(CoMaster.address == _ADDR).limit(1)
_WATCHING = select(Observer.status).where(Observer.address == _ADDR)
_RAN = select(Game.id).where(Game.gm_address == _ADDR).limit(1)


# -- the decision -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Request:
    """A mail about to be queued: its ``kind`` (``OutgoingMail.kind``), its recipient, and what made the
    referee write it."""

    kind: str
    to: str
    #: the sender of the mail that made the referee write (None: the referee's own doing: a tick, a GM command)
    asked_by: str | None = None
    #: the mail that made the referee write is judged forged (:func:`referee.intake.forgery.forged_by`)
    forged: bool = False
    #: the budget of answers does not apply (accepted or stale orders to her keyed mail; a GM's keyed commands)
    exempt: bool = False
    #: the class of the recipient when the caller knows it already (else :func:`recipient_class`)
    recipient: str | None = None
    #: the GM address of the installation (a GM recipient)
    gm_address: str = ""


@dataclass(frozen=True)
class Decision:
    action: str
    purpose: str
    recipient: str
    #: which budget held it back, in words (empty when sent)
    reason: str = ""

    @property
    def sent(self) -> bool:
        return self.action == SEND


def decide(s: Session, request: Request, now: datetime, incoming: IncomingMail | None = None) -> Decision:
    """Send, hold into a digest, or refuse one mail (see :data:`RULES`); a mail sent is counted in its rule's
    budgets, one held back under :data:`WITHHELD` or :data:`DIGESTED` (and logged)."""
    purpose = PURPOSE_OF_KIND.get(request.kind, NOTICE)
    to_key = limit_key(request.to)
    by_key = limit_key(request.asked_by) if request.asked_by else None
    if request.forged and by_key is not None and to_key == by_key:
        who = FORGED
    elif request.recipient is None and purpose in _CLASS_FREE:
        who = _ANY   # (its rule is the same whoever gets it: not looked up)
    else:
        who = request.recipient or recipient_class(
            s, request.to, gm_address=request.gm_address or str(s.info.get(_SESSION_KEY + ".gm", "")))
    rule = rule_for(purpose, who)
    names = [n for n in rule.budgets if not n.startswith("never_asked") or who == NEVER_ASKED]
    full = _full(s, rule, budgets(s), names, request.exempt, to_key, by_key, now)
    if full is None:
        for name in names:
            _count(s, name, to_key, by_key, now, incoming)
        return Decision(SEND, purpose, who)
    mark(s, DIGESTED if rule.over == HOLD else WITHHELD, to_key, now, incoming)
    log.info("outbound policy: %s to %s (%s) %s: %s", purpose, request.to, who,
             "held in a digest" if rule.over == HOLD else "refused", full)
    return Decision(rule.over, purpose, who, full)


def _full(s: Session, rule: Rule, b: Budgets, names: list[str], exempt: bool, to_key: str, by_key: str | None,
          now: datetime) -> str | None:
    """The first budget of ``names`` with no room left, in words; None when the mail may go."""
    for name in names:
        if name == "never":
            return rule.why
        if name == "answers_per_hour" and exempt:
            continue
        cap = getattr(b, name)
        per, window = BUDGET_SCOPE[name]
        kind = MARKS[name]
        if name == "never_asked_per_hour":
            used = count(s, kind, _ALL, now, window)
        elif per.startswith("from"):
            if by_key is None:
                continue
            used = count(s, kind, by_key, now, window)
        else:
            used = count(s, kind, to_key, now, window)
            if name == "answers_per_hour" and by_key is not None:
                used = max(used, count(s, ASKED, by_key, now, window))
        if used >= cap:
            return f"{name} ({cap} {per}) reached"
    return None


def _count(s: Session, name: str, to_key: str, by_key: str | None, now: datetime,
           incoming: IncomingMail | None) -> None:
    if name == "never":
        return
    kind = MARKS[name]
    per, _ = BUDGET_SCOPE[name]
    if name == "never_asked_per_hour":
        mark(s, kind, _ALL, now, incoming)
    elif per.startswith("from"):
        if by_key is not None:
            mark(s, kind, by_key, now, incoming)
    else:
        mark(s, kind, to_key, now, incoming)
        if name == "answers_per_hour" and by_key is not None:
            mark(s, ASKED, by_key, now, incoming)


def take(s: Session, purpose: str, sender: str, now: datetime, incoming: IncomingMail | None = None) -> str | None:
    """Spend one of ``sender``'s per-sender budget for a command of ``purpose`` (a ``SET ADDRESS``, an
    ``OBSERVE``, a press message: :attr:`Rule.per_sender`); why not, when it has no room left (nothing is
    spent then; the caller counts the refusal with :func:`refused` where it outlives the command)."""
    name = next((r.per_sender for r in RULES if r.purpose == purpose and r.per_sender), "")
    if not name:
        return None
    key = limit_key(sender)
    cap = getattr(budgets(s), name)
    per, window = BUDGET_SCOPE[name]
    if count(s, MARKS[name], key, now, window) >= cap:
        log.info("outbound policy: %s from %s refused: %s (%s %s) reached", purpose, sender, name, cap, per)
        return f"{name} ({cap} {per}) reached"
    mark(s, MARKS[name], key, now, incoming)
    return None


def refused(s: Session, sender: str, now: datetime, incoming: IncomingMail | None = None) -> None:
    """Count a command refused by a per-sender budget (under :data:`WITHHELD`, with the sender's key)."""
    mark(s, WITHHELD, limit_key(sender), now, incoming)


def withheld(s: Session, address: str, now: datetime, window: timedelta = timedelta(days=1)) -> int:
    """How many mails to ``address`` the policy held back (refused) in ``window``."""
    return count(s, WITHHELD, limit_key(address), now, window)


# -- the table in docs/security.md ------------------------------------------------------------------------
TABLE_START = ("<!-- the outbound policy: written by `python -m referee.store.outbound docs/security.md`; "
               "do not edit -->")
TABLE_END = "<!-- end of the outbound policy -->"
_OVER = {SEND: "sent", HOLD: "held into a digest", REFUSE: "refused, recorded"}


def _budget_words(name: str, b: Budgets, rule: Rule | None = None) -> str:
    if name == "never":
        return "none: never sent"
    per, window = BUDGET_SCOPE[name]
    when = "24 hours" if window == timedelta(days=1) else "an hour"
    only = " (when it never asked)" if rule is not None and rule.to == _ANY and name.startswith("never_asked") \
        else ""
    return f"`{name}` = {getattr(b, name)} {per} in {when}{only}"


def table(b: Budgets | None = None) -> str:
    """:data:`RULES` as one Markdown table, first match wins (with ``b``'s figures: the defaults)."""
    b = b or Budgets()
    rows = ["| Why it is sent | To whom | Budgets (default) | Over a budget | Per sender | Why |",
            "|---|---|---|---|---|---|"]
    for r in RULES:
        budgets_ = "; ".join(_budget_words(n, b, r) for n in r.budgets) or "none"
        over = _OVER[r.over] if r.budgets else "-"
        sender = _budget_words(r.per_sender, b) + ", else NOT DONE" if r.per_sender else "-"
        rows.append(f"| {'any' if r.purpose == _ANY else r.purpose} | {'anyone' if r.to == _ANY else r.to} | "
                    f"{budgets_} | {over} | {sender} | {r.why} |")
    kinds = ", ".join(f"`{k}` {v}" for k, v in PURPOSE_OF_KIND.items())
    return "\n".join(rows) + f"\n\nThe outbox kinds and why each is sent: {kinds}.\n"


def with_table(doc: str) -> str:
    """``doc`` with the text between :data:`TABLE_START` and :data:`TABLE_END` replaced by :func:`table`."""
    head, start, rest = doc.partition(TABLE_START)
    _, end, tail = rest.partition(TABLE_END)
    if not start or not end:
        raise ValueError("the document has no outbound policy markers")
    return f"{head}{start}\n{table()}{end}{tail}"


if __name__ == "__main__":   # python -m referee.store.outbound docs/security.md
    import sys
    from pathlib import Path

    path = Path(sys.argv[1])
    path.write_text(with_table(path.read_text(encoding="utf-8")), encoding="utf-8")
