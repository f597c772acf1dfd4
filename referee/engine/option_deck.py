"""The option deck: one copy of each card a game's house rules put in it (the classic 26 by default).

The deck is a list of card names, top first. It is shuffled once per game from the game's seed
(:func:`new_option_deck`); a drawn card leaves the top, a lost or used-up card goes back under the
deck (the end of the list). It travels with the turn (:class:`~referee.engine.resolve.TurnResult`
gives the deck as the turn left it), so the same inputs always draw the same cards.

Which cards exist is :data:`referee.engine.option_cards.CARDS` (each card's module declares itself);
their order before the shuffle is each card's declared ``rank``, so a card added later (which joins a
deck only by house rule) leaves the shuffle of every other game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .option_cards import CARDS, cards
from .state import Robot, Rules

# The cards the core rules name (hand size, dealing, the program rules); every card's module names itself.
CONDITIONAL_PROGRAM = "Conditional Program"
DUAL_PROCESSOR = "Dual Processor"
EXTRA_MEMORY = "Extra Memory"
FLYWHEEL = "Flywheel"


def card_name(text: str) -> str | None:
    """The card's proper name for any spelling of it (case and spaces around ignored), or None."""
    key = " ".join(text.split()).lower()
    return next((name for name in CARDS if name.lower() == key), None)


def cards_in_play(rules: Rules) -> tuple[str, ...]:
    """The cards of a game's deck, in deck order: those in every deck, and those its house rules add."""
    return tuple(c.name for c in cards() if c.in_deck(rules))


def new_option_deck(seed: int | str, rules: Rules | None = None, held: Iterable[str] = ()) -> list[str]:
    """A game's shuffled option deck (top first), less the cards robots already hold."""
    deck = list(cards_in_play(rules or Rules()))
    random.Random(f"options:{seed}").shuffle(deck)
    taken = set(held)
    return [name for name in deck if name not in taken]


def held_options(robots: Iterable[Robot]) -> list[str]:
    return [name for r in robots for name in r.options]
