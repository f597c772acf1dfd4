"""Extra Memory: one more program card is dealt each turn (:func:`referee.engine.programs.hand_size`)."""

from __future__ import annotations

from ..hooks import Effect
from ..option_deck import EXTRA_MEMORY

EFFECT = Effect(EXTRA_MEMORY, "one more program card is dealt each turn")
