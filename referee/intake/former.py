"""Mail about a robot from someone who no longer holds its seat (issue 41): a player who resigned, whose
robot went to another player, or who was ejected. Known by the address she held it from, the key she held
(on a BEGIN line, even quoted), or the mail of ours she replies to; from any address. She is answered once,
at the address she held the seat from, in words of their own (:mod:`referee.messages.seats`): no key, no
form, no reply address of the seat. Nothing in the mail is taken."""

from __future__ import annotations

from ..common.keys import same_key
from ..games import get_game, get_player
from ..games.states import GONE, former_holder, last_left, seat_state
from ..messages import seats as words
from ..store.community_models import FormerHolder
from ..store.errors import NotFound
from ..store.models import Game
from . import answers, forgery
from .job import Job
from .routing import Who


def holder_of(job: Job, sender: str, who: Who, key: str | None) -> FormerHolder | None:
    """The former holder who sent this mail about ``who.player``'s robot, or None (the player of record, or
    someone else)."""
    player = who.player
    assert player is not None
    if sender == player.email:
        if seat_state(job.s, player, now=job.now) not in GONE:
            return None
        return former_holder(job.s, player, address=sender)
    if same_key(key, player.secret, ignore_case=True) or (who.token and key is None):
        return None   # the seat's key, from elsewhere: the player of record's business
    return (former_holder(job.s, player, address=sender, key=key)
            or (former_holder(job.s, player, address=who.thread_to) if who.thread_to else None))


def answer_former(job: Job, sender: str, who: Who, key: str | None) -> str | None:
    """Answer a former holder's mail (``key``: the key it gives, if any; see the module docstring) and return
    its outcome; None: not hers."""
    row = holder_of(job, sender, who, key)
    if row is None or who.game is None:
        return None
    if forgery.forged_by(job.settings, job.mail, sender) is not None:
        job.forged = True   # in her name, from elsewhere: never answered to the address it names (the policy)
    return _tell(job, row, who.game)


def former_commands(job: Job, sender: str, who: Who, key: str | None, game: str | None, robot: str | None
                    ) -> str | None:
    """A command mail (PRESS, RESIGN, GAMES...) from someone who no longer holds the seat it names (by a BEGIN
    line with her old key, or the mail of ours it replies to): answered as :func:`answer_former` does, none of
    its commands done; None: not such a mail."""
    if who.player is None and game and robot:
        try:
            seat = get_player(job.s, get_game(job.s, game), robot)
        except NotFound:
            return None
        who = Who(seat, seat.game, "begin")
    if who.player is None:
        return None
    return answer_former(job, sender, who, key)


def gone_by_address(job: Job, sender: str) -> str | None:
    """A mail naming no robot from an address that held a seat and left it (and holds none now): answered
    as :func:`answer_former` does, for the seat she left last; None: not such an address."""
    found = last_left(job.s, sender)
    return _tell(job, *found) if found is not None else None


def _tell(job: Job, row: FormerHolder, game: Game) -> str:
    reason = f"{row.robot} in {game.code}: {row.address} {row.how} on {row.at:%Y-%m-%d}; nothing taken"
    if not job.may_answer_error(row.address, game=game):
        return job.held_back(reason, row.address, game=game)
    job.send(answers.KIND_REJECTION, row.address, words.subject(game.code, row.how),
             words.gone(game.code, row.robot, row.how, row.at), game=game)   # no player: no reply address
    return job.finish("rejected", reason, game=game)
