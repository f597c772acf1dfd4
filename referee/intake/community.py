"""The intake's side of the community (issue 31): sign-up, a player's own commands, press and observers.

:func:`commands` is called for every mail that is neither robot mail nor a GM block, once its sender and
robot are known (:mod:`.routing`). A mail whose first own line is a command of
:mod:`referee.orders.community` (``LIST``, ``JOIN``, ``RESIGN``, ``PRESS TO ALL``...) is handled here and
answered once, to its sender (a player's keyed mail from elsewhere: to her address of record); any other
mail goes on to the orders as before. A reply to a confirmation mail (its subject carries ``[confirm ...]``)
confirms it. :func:`unsubscribed` takes an observer's unsubscribe mail (``[unobserve ...]``), even one an
automatic client sent, and answers nothing; an observer's short mail in words ("unsubscribe", "stop sending
me these", "abmelden", "désabonner"...) ends her subscriptions with one answer. A value out of its range
(:mod:`referee.orders.community_ranges`) is answered NOT DONE with the range.

Nothing here mails an address that did not ask: a new address of record and an observer are mailed a
confirmation (at most :data:`CONFIRMS_PER_DAY` a day to one address) and nothing else until it is answered;
press goes only to players of the game. Every mail (answers, confirmations, press, the GM's notices) passes
the outbound policy (:mod:`referee.store.outbound`): at most ``never_asked_per_day`` mails a day to an
address that never asked; ``confirmations_per_day`` confirmations and ``press_per_hour`` press messages per
sender (over them the command is NOT DONE and says why; the GM hears of the confirmations once a day); the
GM's notices over ``gm_notices_per_hour`` wait in the GM's digest, so strangers' JOINs cannot crowd out a
player's RESIGN. A mail judged forged (:func:`referee.intake.forgery.forged_by`: the trusted
Authentication-Results when configured, else the envelope sender) is not answered by the commands anyone
may send.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from ..common.keys import same_key
from ..games import get_game, get_player, observers, own, press, signup
from ..games.states import SEAT, may, seat_state
from ..mailer.notices import notice
from ..mailparse.senders import limit_key
from ..messages import community as words
from ..orders.community import OPEN_TO_ALL, Begin, CommandMail, PlayerCommand, read_commands, split_begin, subject_token
from ..orders.community_phrases import asks_to_stop
from ..orders.extract import Extracted
from ..store import outbound
from ..store.errors import NotFound, StoreError
from ..store.models import Game, Player
from . import forgery, limits
from .former import former_commands
from .routing import Who, known

if TYPE_CHECKING:
    from .job import Job

#: ``OutgoingMail.kind`` of this module's answers, confirmations and relayed press
KIND_ANSWER, KIND_CONFIRM, KIND_PRESS = "community", "confirm", "press"
#: at most this many confirmation mails a day to one address
CONFIRMS_PER_DAY = 3
CONFIRM_MARK = "confirm"


def unsubscribed(job: Job) -> str | None:
    """An observer's unsubscribe mail (its subject carries a good ``[unobserve ...]`` token): the
    subscription ends; nothing is answered. Returns the reason to record, or None."""
    found = subject_token(job.mail.subject)
    if found is None or found[0] != "unobserve":
        return None
    watcher = observers.unsubscribe(job.s, job.settings, found[1], now=job.now)
    if watcher is None:
        return None
    return f"unsubscribe: {watcher.address} no longer observes game {watcher.game_id}"


def commands(job: Job, sender: str, found: Extracted, who: Who) -> str | None:
    """Handle a command mail (see the module docstring) and return its outcome, or None: not one."""
    token = subject_token(job.mail.subject)
    if token is not None and token[0] == "unobserve":
        reason = unsubscribed(job)
        if reason is not None:
            _answer(job, sender, [words.done("UNOBSERVE", "you are unsubscribed")], [], player=None)
            return job.finish("accepted", reason)
    begin, lines = split_begin(found.lines) if found.header is None else (None, found.lines)
    mail = read_commands(lines)
    if mail is None and token is not None and token[0] == "confirm":
        mail = CommandMail([PlayerCommand("confirm", {"token": token[1]}, 0, "CONFIRM")])
    if mail is None:
        return _stop_in_words(job, sender, found, who)
    player = _keyed(job, sender, found, who) if begin is None else _begin_player(job, begin)
    if player is None and not mail.open_to_all:   # from someone who left the seat: words of their own
        key = begin.key if begin is not None else (found.header.key if found.header is not None else None)
        gone = former_commands(job, sender, who, key, begin.game if begin else None, begin.robot if begin else None)
        if gone is not None:
            return gone
    if player is None and not mail.open_to_all and not known(job.s, job.settings, sender) and \
            not any(c.name in ("confirm",) for c in mail.commands):
        return job.ignore(f"unknown sender {sender}: player commands without a key")
    if player is None and (by := forgery.forged_by(job.settings, job.mail, sender)) is not None:
        job.forged = True
        return job.ignore(f"commands from {sender}; not answered: judged forged by the envelope sender or the "
                          f"checks ({by})")
    # her own keyed mail: every answer to it goes, over the budgets in her hour's digest (issue 41)
    job.genuine = player is not None and sender == player.email
    lines: list[str] = []
    failed = 0
    game: Game | None = None
    for command in mail.commands:
        try:
            with job.s.begin_nested():
                said, game = _run(job, sender, player, command)
            lines.append(words.done(command.text, said))
        except (StoreError, signup.SignUpRefused, press.PressRefused, own.NotConfirmed, _Refused) as exc:
            failed += 1
            lines.append(words.not_done(command.text, str(exc)))
            if isinstance(exc, _Refused) and exc.after is not None:
                exc.after()   # what a refusal leaves (a count, the GM told) outlives the command's savepoint
    to = player.email if player is not None else sender
    if player is not None and (job.s.get(Player, player.id) is None
                               or not may(SEAT, seat_state(job.s, player, now=job.now), "key")):
        player = None   # she left that seat (the seat machine): the answer carries no reply address of it
    _answer(job, to, lines, mail.errors, player=player, game=game, skipped=mail.skipped)
    outcome = "accepted" if not failed and not mail.errors else "rejected"
    reason = f"commands: {len(mail.commands) - failed} done, {failed} not done, {len(mail.errors)} not read"
    return job.finish(outcome, reason, game=game, player=player)


class _Refused(Exception):
    def __init__(self, message: str, after: Callable[[], None] | None = None) -> None:
        super().__init__(message)
        #: done after the command's savepoint is rolled back (a budget's refusal counted, the GM told)
        self.after = after


def _keyed(job: Job, sender: str, found: Extracted, who: Who) -> Player | None:
    """The player whose key the mail carries (BEGIN line or reply token), or None."""
    if who.player is None:
        return None
    key = found.header.key if found.header is not None else None
    if same_key(key, who.player.secret, ignore_case=True) or (who.token and key is None):
        return who.player
    return None


def _begin_player(job: Job, begin: Begin) -> Player | None:
    """The player a BEGIN line without a turn names, when its key is hers."""
    try:
        game = get_game(job.s, begin.game)
        player = get_player(job.s, game, begin.robot)
    except NotFound:
        return None
    return player if same_key(begin.key, player.secret, ignore_case=True) else None


def _answer(job: Job, to: str, lines: list[str], errors: list[str], *, player: Player | None,
            game: Game | None = None, skipped: list[str] | None = None) -> None:
    subject = f"{game.code}: {words.SUBJECT.lower()}" if game is not None else words.SUBJECT
    job.send(KIND_ANSWER, to, subject, words.answer(lines, errors, skipped or []),
             game=player.game if player else None, player=player)


def _stop_in_words(job: Job, sender: str, found: Extracted, who: Who) -> str | None:
    """An observer's "unsubscribe", "stop sending me these", "bitte abmelden"... (not a player's mail): every
    game she observes is left, with one answer that says so. None: not such a mail."""
    if who.player is not None or not observers.observes(job.s, sender, now=job.now):
        return None
    if not asks_to_stop([t for _, t in found.lines], job.mail.subject or ""):
        return None
    if limits.looks_forged(sender, job.mail.loop_headers.get("return-path", ())) is not None:
        return job.ignore(f"an unsubscribe in words from {sender}; not done: the envelope sender is of another "
                          "domain")
    left = observers.stop_all(job.s, sender, now=job.now)
    _answer(job, sender, [words.done("UNSUBSCRIBE", words.unsubscribed(left))], [], player=None)
    return job.finish("accepted", f"unsubscribe in words: {sender} no longer observes {', '.join(left)}")


def _key(job: Job, what: str) -> str:
    raw = f"{job.incoming.id}|{job.incoming.attempts}|{what}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def _tell(job: Job, to: str, subject: str, body: str, *, kind: str, game: Game | None = None,
          player: Player | None = None, what: str = "") -> bool:
    """A mail of its own (no quote of the sender's mail, no In-Reply-To), as the outbound policy decides;
    whether it was queued (a GM's notice held in the GM's digest counts as queued)."""
    row = notice(job.s, job.settings, to=to, subject=subject, body=body, key=_key(job, f"{kind}|{to}|{what}"),
                 kind=kind, game=game, player=player, turn_number=game.turn_number if game else None, now=job.now,
                 asked_by=job.mail.sender)
    return row.status != "cancelled"


def _tell_masters(job: Job, game: Game, subject: str, body: str) -> None:
    for gm in signup.masters(job.s, job.settings, game):
        _tell(job, gm, subject, body, kind="gm", game=game, what=subject)


def _confirmation(job: Job, to: str, subject: str, body: str) -> None:
    """Mail a confirmation to ``to``: at most :data:`CONFIRMS_PER_DAY` a day to one address, within the
    sender's ``confirmations_per_day`` (over it the GM hears once a day) and the outbound policy."""
    key = limit_key(to)
    if limits.count(job.s, CONFIRM_MARK, key, job.now, timedelta(days=1)) >= CONFIRMS_PER_DAY:
        raise _Refused(f"{to} has had {CONFIRMS_PER_DAY} confirmation mails today; try again tomorrow")
    sender = job.mail.sender or ""
    if outbound.take(job.s, outbound.CONFIRMATION, sender, job.now, job.incoming) is not None:
        cap = outbound.budgets(job.s).confirmations_per_day

        def after() -> None:
            outbound.refused(job.s, sender, job.now, job.incoming)
            _tell_gm_once(job, f"{sender} asked for more than {cap} confirmation mails today",
                          f"{sender} asked the referee to mail confirmations to more than {cap} addresses within "
                          "a day; the others were refused (the confirmations_per_day setting).\n")
        raise _Refused(f"you have asked for {cap} confirmation mails today; try again tomorrow", after)
    if not _tell(job, to, subject, body, kind=KIND_CONFIRM, what=subject):
        raise _Refused(f"no more mail to {to} today (it never asked the referee for any); try again tomorrow")
    limits.mark(job.s, CONFIRM_MARK, key, job.now, job.incoming)


def _tell_gm_once(job: Job, subject: str, body: str) -> None:
    """Tell the installation's GM, once a day per sender, that a sender reached a budget."""
    gm = job.settings.gm_address
    key = f"budget:{limit_key(job.mail.sender or '')}"
    if not gm or limits.count(job.s, limits.NOTICE, key, job.now, timedelta(days=1)):
        return
    limits.mark(job.s, limits.NOTICE, key, job.now, job.incoming)
    _tell(job, gm, f"[GM] {subject}", body, kind="gm", what=subject)


def _own(player: Player | None) -> Player:
    if player is None:
        raise _Refused(words.NEEDS_KEY)
    return player


def _run(job: Job, sender: str, player: Player | None, command: PlayerCommand) -> tuple[str, Game | None]:
    """Carry out one command; returns what to say and the game it was about."""
    s, settings, now, a = job.s, job.settings, job.now, command.args
    name = command.name
    if "problem" in a:   # written right, a value out of its range (orders.community_ranges)
        if name not in OPEN_TO_ALL:
            _own(player)
        raise _Refused(a["problem"])
    if name == "list":
        rows = [(r.code, r.course, r.state, r.players, r.seats, r.deadline, r.masters, r.open_seats)
                for r in signup.open_games(s, settings, now)]
        return "\n" + words.listing(rows, now), None
    if name == "whois":
        public = {r.code for r in signup.open_games(s, settings, now)}   # a game LIST does not show is not told of
        seats = [x for x in signup.whois(s, robot=a["robot"], address=a["address"]) if x.game in public]
        return "\n" + words.whois(a["robot"] or a["address"], [(x.game, x.robot, x.status, x.address)
                                                             for x in seats]), None
    if name == "join":
        address = player.email if player is not None else sender
        up = signup.join(s, a["game"], address, a["robot"], now=now)
        game = s.get(Game, up.game_id)
        assert game is not None
        seat = s.get(Player, up.seat_of) if up.seat_of else None
        _tell_masters(job, game, words.gm_join_subject(game.code, up.robot),
                      words.gm_join(game.code, up.robot, up.address, seat.robot if seat else None))
        return words.joined(game.code, up.robot, a["robot"] is None or seat is not None), game
    if name == "observe":
        row = observers.ask_observe(s, a["game"], sender, now=now,
                                    public={r.code for r in signup.open_games(s, settings, now)})
        token = own.confirmation_token(settings, row)
        _confirmation(job, sender, f"{a['game']}: {words.CONFIRM_SUBJECT} [confirm {token}]",
                      words.confirm_observe(a["game"], sender, token))
        return words.observe_asked(a["game"], sender), None
    if name == "unobserve":
        address = player.email if player is not None else sender
        observers.stop_observing(s, a["game"], address, now=now)
        return words.unobserved(a["game"]), None
    if name == "confirm":
        done = own.confirm(s, settings, a["token"], sender, now=now)
        if done.kind == "observe" and done.observer is not None:
            game = s.get(Game, done.observer.game_id)
            return words.observing(game.code if game else "the game"), None
        for p in done.players:
            _tell_masters(job, p.game, f"{p.game.code}: {p.robot} has a new address",
                          words.address_changed_gm(p.robot, p.game.code, done.old_address or "", done.address))
        return words.address_changed([f"{p.robot} in {p.game.code}" for p in done.players], done.address), None
    me = _own(player)
    if name == "resign":
        target = next((p for p in own.seats_of(s, me.email) if p.game.code == a["game"]), None)
        if target is None:
            raise _Refused(f"you play in no game {a['game']}")
        game = target.game
        out = own.resign(s, target, now=now)
        _tell_masters(job, game, words.gm_resigned_subject(game.code, out.robot),
                      words.gm_resigned(game.code, out.robot, out.outcome))
        return words.resigned(game.code, out.robot, out.outcome), game
    if name == "set_address":
        row = own.ask_address(s, settings, me.email, a["address"], now=now)
        token = own.confirmation_token(settings, row)
        _confirmation(job, a["address"], f"RoboRally referee: {words.CONFIRM_SUBJECT} [confirm {token}]",
                      words.confirm_address(me.email, a["address"], token))
        return words.address_asked(a["address"]), None
    if name == "set_whois":
        signup.set_shown(s, me.email, a["show"])
        return words.whois_set(a["show"]), None
    if name == "set_pictures":
        own.set_pictures(s, me, a["pictures"], now=now)
        return words.pictures_set(a["pictures"], me.robot, me.game.code), me.game
    if name == "absent":
        players = own.set_absence(s, me.email, a["starts"], a["ends"], now=now)
        for p in players:
            policy = signup.settings_view(s, p.game).on_absence
            _tell_masters(job, p.game, words.gm_absent_subject(p.game.code, p.robot),
                          words.gm_absent(p.game.code, p.robot, a["starts"], a["ends"], policy))
        return words.absent([f"{p.robot} in {p.game.code}" for p in players], a["starts"], a["ends"]), None
    if name == "games":
        rows = [(g.code, g.status, g.robot, g.turn, g.deadline, g.due, g.away) for g in own.my_games(s, me.email)]
        return "\n" + words.my_games(rows, now), None
    if name == "press":
        if outbound.take(s, outbound.PRESS, me.email, now, job.incoming) is not None:
            cap = outbound.budgets(s).press_per_hour
            raise _Refused(f"you have sent {cap} press messages this hour (the game's limit); this one is not "
                           "sent: send it again later", lambda: outbound.refused(s, me.email, now, job.incoming))
        relayed = press.send_press(s, me, a["to"], a["message"], now=now, incoming=job.incoming)
        sent, withheld = [], 0
        for p in relayed.recipients:
            if _tell(job, p.email, words.press_subject(relayed.game.code, relayed.signed_by, relayed.to_all),
                     words.press(relayed.game.code, relayed.signed_by, relayed.to_all, relayed.message),
                     kind=KIND_PRESS, game=relayed.game, player=p, what=p.robot):
                sent.append(p.robot)
            else:
                withheld += 1
        return words.press_sent(sent, withheld), relayed.game
    raise _Refused(f"unknown command {command.text}")
