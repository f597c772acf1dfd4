"""Extra Memory: one more program card is dealt each turn (:func:`referee.engine.programs.hand_size`)."""

from __future__ import annotations

from ..hooks import Effect
from ..option_cards import OptionCard
from ..option_deck import EXTRA_MEMORY

EFFECT = Effect(EXTRA_MEMORY, "one more program card is dealt each turn")
CARD = OptionCard(EFFECT, rank=9, badge="EM")
