"""The words for someone who no longer holds a seat (issue 41, :mod:`referee.games.states`): a player who
resigned, whose robot went to another player, or who was ejected. No key, no order form, nothing of the
robot's hand: only what happened, when, and that nothing in the mail was taken."""

from __future__ import annotations

from datetime import datetime

from ..common.deadlines import when_text

#: how each way of leaving is named in the answer's subject
SUBJECTS = {"resigned": "you resigned", "replaced": "your robot went to another player",
            "ejected": "you were taken out of the game"}


def subject(game: str, how: str) -> str:
    return f"{game}: {SUBJECTS[how]}; nothing taken"


def head(game: str, robot: str, how: str, at: datetime) -> str:
    """The answer's first line: ``you resigned from RR-7 on <date>; nothing taken``."""
    when = when_text(at)
    if how == "resigned":
        return f"You resigned from {game} on {when}; nothing taken."
    if how == "replaced":
        return f"{robot} in {game} went to another player on {when}; nothing taken."
    return f"The game master took you out of {game} on {when} ({robot} was ejected); nothing taken."


def gone(game: str, robot: str, how: str, at: datetime) -> str:
    """The whole answer to a mail about a seat its sender no longer holds."""
    why = {
        "resigned": f"Since then the referee takes no orders, commands or press from you for {robot}, and sends "
                    f"you no more mail of {game}.",
        "replaced": f"The game master handed {robot} to a new player: your key no longer works for it, and the "
                    f"referee sends you no more mail of {game}. If you think this is a mistake, write to the game "
                    "master.",
        "ejected": f"{robot} plays no more programs, and the referee sends you no more mail of {game}. If you think "
                   "this is a mistake, write to the game master.",
    }[how]
    return "\n\n".join([head(game, robot, how, at), why,
                        "To play in another game: LIST shows the games open for sign-up, and JOIN asks for a seat."])
