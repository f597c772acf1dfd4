"""One notice per GM mail: what the commands of one GM mail changed is told to each player of the game in
one mail, one line per robot or matter changed (a later change of the same robot rewrites its line), then
what the player must do about it (their hand dealt again with its order form, an invitation while the turn
is open). Words: :mod:`referee.messages.bulletin`.

A command adds its lines while it runs (:meth:`News.stage`); they count only once it is done
(:meth:`News.keep`), and the notices are written after every command that added some, so a ``PROCESS``
later in the same mail finds them in the outbox and tells them in its turn mail instead
(:mod:`referee.reports.news`). A notice already gone (or told in a turn mail) is not written again: later
commands of the mail start a new one with what it did not say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..common.deadlines import deadline_text
from ..engine import Robot
from ..engine.geometry import dir_name, square_name
from ..mailer.notices import notice, rewrite
from ..messages import bulletin as words
from ..reports.mails import order_template
from ..store.community import resigned
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player
from ..store.queries import get_game, open_turn
from ..store.records import locked_of, robots_of


@dataclass(frozen=True)
class Line:
    """One change, as the players read it. ``about``: what it is about (a later line about the same thing
    replaces it); ``only``: the one player (id) it is for, None for every player."""
    about: str
    text: str
    subject: str
    only: int | None = None


@dataclass(frozen=True)
class Tail:
    """A paragraph after the lines: what a player (``only``; None: every player) must do about them.
    ``dealt``: the player's hand was dealt again (``new``) or their orders voided with it (``void``): the
    paragraph (the hand, its order form, the deadline) is written from the turn as the mail leaves it."""
    about: str
    text: str
    only: int | None = None
    dealt: str | None = None


@dataclass
class _Game:
    lines: dict[str, Line] = field(default_factory=dict)
    tails: dict[tuple[str, int | None], Tail] = field(default_factory=dict)
    rows: dict[int, int] = field(default_factory=dict)         # player id -> the notice being written
    said: dict[int, set[str]] = field(default_factory=dict)    # player id -> what that notice says
    told: dict[int, set[str]] = field(default_factory=dict)    # player id -> what notices gone said
    generation: dict[int, int] = field(default_factory=dict)


@dataclass
class News:
    """The changes of one GM mail, per game, and the notices they are told in."""
    games: dict[str, _Game] = field(default_factory=dict)
    staged: list[tuple[str, Line | Tail]] = field(default_factory=list)
    #: (game, robot) -> the robot before the mail's first change of it
    origin: dict[tuple[str, str], Robot] = field(default_factory=dict)

    def stage(self, game: str, item: Line | Tail) -> None:
        self.staged.append((game, item))

    def drop(self) -> None:
        """The command failed: what it staged is not told."""
        self.staged.clear()

    def keep(self) -> set[str]:
        """The command is done: what it staged is told; returns the games whose notices must be written."""
        touched = set()
        for code, item in self.staged:
            book = self.games.setdefault(code, _Game())
            if isinstance(item, Line):
                book.lines[item.about] = item   # in place: the order the robots were first changed in
            else:
                book.tails[(item.about, item.only)] = item
            touched.add(code)
        self.staged.clear()
        return touched

    def write(self, s: Session, settings: Settings, code: str, *, key: str, now: datetime) -> None:
        """Write (or write again) the notice of ``code``'s changes to each of its players."""
        book = self.games.get(code)
        if book is None:
            return
        game = get_game(s, code)
        gone = resigned(s, game)
        for p in [p for p in game.players if p.status == "active" and p.id not in gone]:
            row = s.get(OutgoingMail, book.rows[p.id]) if p.id in book.rows else None
            if p.id in book.rows and (row is None or row.status != "pending" or row.attempts):
                # gone, or told in a turn mail: what it said is not said again
                book.told.setdefault(p.id, set()).update(book.said.pop(p.id, set()))
                book.generation[p.id] = book.generation.get(p.id, 0) + 1
                del book.rows[p.id]
                row = None
            told = book.told.get(p.id, set())
            lines = [x for x in book.lines.values() if x.only in (None, p.id) and x.text not in told]
            tails = [t.text if t.dealt is None else _dealt(s, game, p, t.dealt, now)
                     for t in book.tails.values() if t.only in (None, p.id)]
            tails = [t for t in tails if t and t not in told]
            if not lines:
                continue
            said = {*(x.text for x in lines), *tails}
            if said == book.said.get(p.id):
                continue
            subject = words.subject(code, [x.subject for x in lines])
            text = words.body(code, [x.text for x in lines], tails)
            mail_key = f"{key}|{code}|{p.id}|{book.generation.get(p.id, 0)}"
            if row is not None:
                rewrite(s, settings, row, subject=subject, body=text, key=mail_key)
            else:
                row = notice(s, settings, to=p.email, subject=subject, body=text, key=mail_key, kind="announcement",
                             game=game, player=p, turn_number=game.turn_number, now=now)
                if row.kind != "announcement" or row.subject != subject or row.status != "pending":
                    continue   # refused, or joined to another notice: later lines start a mail of their own
                book.rows[p.id] = row.id
            book.said[p.id] = said


def _dealt(s: Session, game: Game, player: Player, kind: str, now: datetime) -> str:
    """The paragraph of a player whose hand a correction dealt again: the hand as it stands now, with the
    order form (``new``), or that orders sent before no longer count (``void``)."""
    turn = open_turn(s, game)
    if turn is None or player.robot not in turn.hands:
        return ""
    deadline = deadline_text(turn.deadline, now, player.timezone) or words.NO_DEADLINE
    if kind == "void":
        return words.orders_void(turn.number, deadline)
    robot = next((r for r in robots_of(turn) if r.name == player.robot), None)
    locked = sorted(locked_of(turn, player.robot).items())
    return words.new_hand(turn.number, list(turn.hands[player.robot]), [(reg, str(c)) for reg, c in locked],
                          deadline, order_template(game, player, turn, robot))


def robot_changes(before: Robot, after: Robot) -> list[str]:
    """What differs between two states of a robot, each as a player reads it (``damage 2 (HP 8)``)."""
    out: list[str] = []
    if after.pos != before.pos:
        out.append(f"at {square_name(after.pos)}" if after.pos else "off the board")
    if after.facing != before.facing:
        out.append(f"facing {dir_name(after.facing)}")
    if after.damage != before.damage:
        out.append(f"damage {after.damage} (HP {after.hp})")
    if after.lives != before.lives:
        out.append(f"lives {after.lives}")
    if after.flags != before.flags:
        out.append(f"flags touched {after.flags}")
    if after.archive != before.archive:
        out.append(f"archive marker on {square_name(after.archive)}" if after.archive else "no archive marker")
    if after.virtual != before.virtual:
        out.append("virtual" if after.virtual else "no longer virtual")
    gained = [o for o in after.options if o not in before.options]
    lost = [o for o in before.options if o not in after.options]
    if gained or lost:
        out.append("option cards " + ", ".join([*(f"+{o}" for o in gained), *(f"-{o}" for o in lost)]))
    on = sorted(set(after.statuses) - set(before.statuses))
    off = sorted(set(before.statuses) - set(after.statuses))
    if on or off:
        out.append("statuses " + ", ".join([*(f"+{x}" for x in on), *(f"-{x}" for x in off)]))
    if after.option_data != before.option_data:
        out.append("card data " + "; ".join(f"{k}: " + ", ".join(f"{f}={v}" for f, v in sorted(d.items()))
                                            for k, d in sorted(after.option_data.items())) if after.option_data
                   else "card data cleared")
    return out
