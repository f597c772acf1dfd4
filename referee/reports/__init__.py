"""The mails a turn produces, queued in the outbox in the caller's transaction.

- :func:`enqueue_turn_mails`: after a turn is resolved, the report for every player (with their next hand
  and an order template) and a copy for the GM; held for review when the game says so.
- :func:`enqueue_start_mails`: when a game starts, the robots, the board and every player's first hand.
- :func:`stored_turn_result`: a stored turn as the engine's ``TurnResult`` (what reports are drawn from).

Sending is :mod:`referee.mailer`'s job.
"""

from .headers import Sender, gm_address, mail_headers
from .mails import KIND_GM_COPY, KIND_START, KIND_TURN, enqueue_start_mails, enqueue_turn_mails, order_template
from .stored import report_players, stored_turn_result

__all__ = [
    "KIND_GM_COPY",
    "KIND_START",
    "KIND_TURN",
    "Sender",
    "enqueue_start_mails",
    "enqueue_turn_mails",
    "gm_address",
    "mail_headers",
    "order_template",
    "report_players",
    "stored_turn_result",
]
