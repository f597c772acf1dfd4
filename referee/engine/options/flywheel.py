"""Flywheel: after programming, one unused card may be kept on the option and played in a later turn.

The kept card is written in ``option_data["Flywheel"]["card"]``; the dealer adds it to the robot's
hand each turn (:func:`referee.engine.dealing.deal_turn`). At the end of the turn the card the
FLYWHEEL order names is kept; with no order, the card already kept stays unless it was played.
"""

from __future__ import annotations

from .. import shown
from ..cards import CardError, parse_card
from ..context import TurnContext
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_deck import FLYWHEEL
from ..option_orders import FLYWHEEL as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

shown.untold("card kept", "a card for the next turn; the stage tables show it")


def keep(ctx: TurnContext, robot: Robot) -> None:
    played = {str(c) for c in ctx.programs.get(robot.name) or [] if c is not None}
    data = robot.option_data.setdefault(FLYWHEEL, {})
    answer = ctx.decide(robot, order_key(SUBJECT), None)
    if answer is not None:
        try:
            card = str(parse_card(answer))
        except CardError:
            card = None
        if card is not None and card not in played:
            if data.get("card") != card:
                ctx.emit(robot, "card kept", {"card": card}, option=FLYWHEEL)
            data["card"] = card
            return
    if data.get("card") in played:
        data.pop("card")
    if not data:
        robot.option_data.pop(FLYWHEEL, None)


EFFECT = Effect(FLYWHEEL, "an unused card is kept for a later turn", steps={"end.flywheel": keep})
ORDER = OptionOrder(FLYWHEEL, SUBJECT, ("turn",),
                    "str(Card): an unused card kept on the option, offered in the hand of later turns", None,
                    "FLYWHEEL: M2 490")
CARD = OptionCard(EFFECT, rank=11, badge="FW", order=ORDER, mail=MailOrder("card", ("FLYWHEEL", "FLY WHEEL")))
