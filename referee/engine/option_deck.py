"""The option deck: the classic 26 option cards (plus Shield by house rule), one copy of each.

The deck is a list of card names, top first. It is shuffled once per game from the game's seed
(:func:`new_option_deck`); a drawn card leaves the top, a lost or used-up card goes back under the
deck (the end of the list). It travels with the turn (:class:`~referee.engine.resolve.TurnResult`
gives the deck as the turn left it), so the same inputs always draw the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .state import Robot, Rules

ABLATIVE_COAT = "Ablative Coat"
ABORT_SWITCH = "Abort Switch"
BRAKES = "Brakes"
CIRCUIT_BREAKER = "Circuit Breaker"
CONDITIONAL_PROGRAM = "Conditional Program"
CRAB_LEGS = "Crab Legs"
DOUBLE_BARRELED_LASER = "Double-Barreled Laser"
DUAL_PROCESSOR = "Dual Processor"
EXTRA_MEMORY = "Extra Memory"
FIRE_CONTROL = "Fire Control"
FLYWHEEL = "Flywheel"
FOURTH_GEAR = "Fourth Gear"
GYROSCOPIC_STABILIZER = "Gyroscopic Stabilizer"
HIGH_POWER_LASER = "High-Power Laser"
MECHANICAL_ARM = "Mechanical Arm"
MINI_HOWITZER = "Mini Howitzer"
POWER_DOWN_SHIELD = "Power-Down Shield"
PRESSOR_BEAM = "Pressor Beam"
RADIO_CONTROL = "Radio Control"
RAMMING_GEAR = "Ramming Gear"
REAR_FIRING_LASER = "Rear-Firing Laser"
RECOMPILE = "Recompile"
REVERSE_GEARS = "Reverse Gears"
SCRAMBLER = "Scrambler"
SUPERIOR_ARCHIVE = "Superior Archive"
TRACTOR_BEAM = "Tractor Beam"
SHIELD = "Shield"

#: the classic deck, in the order of the card list
CLASSIC: tuple[str, ...] = (
    ABLATIVE_COAT, ABORT_SWITCH, BRAKES, CIRCUIT_BREAKER, CONDITIONAL_PROGRAM, CRAB_LEGS,
    DOUBLE_BARRELED_LASER, DUAL_PROCESSOR, EXTRA_MEMORY, FIRE_CONTROL, FLYWHEEL, FOURTH_GEAR,
    GYROSCOPIC_STABILIZER, HIGH_POWER_LASER, MECHANICAL_ARM, MINI_HOWITZER, POWER_DOWN_SHIELD,
    PRESSOR_BEAM, RADIO_CONTROL, RAMMING_GEAR, REAR_FIRING_LASER, RECOMPILE, REVERSE_GEARS, SCRAMBLER,
    SUPERIOR_ARCHIVE, TRACTOR_BEAM,
)
assert len(CLASSIC) == 26
#: every card the engine knows
ALL_CARDS: tuple[str, ...] = (*CLASSIC, SHIELD)
_BY_KEY = {name.lower(): name for name in ALL_CARDS}


def card_name(text: str) -> str | None:
    """The card's proper name for any spelling of it (case and spaces around ignored), or None."""
    return _BY_KEY.get(" ".join(text.split()).lower())


def cards_in_play(rules: Rules) -> tuple[str, ...]:
    """The cards of a game's deck: the classic 26, and Shield when the house rule puts it in."""
    return ALL_CARDS if rules.option_shield else CLASSIC


def new_option_deck(seed: int | str, rules: Rules | None = None, held: Iterable[str] = ()) -> list[str]:
    """A game's shuffled option deck (top first), less the cards robots already hold."""
    deck = list(cards_in_play(rules or Rules()))
    random.Random(f"options:{seed}").shuffle(deck)
    taken = set(held)
    return [name for name in deck if name not in taken]


def held_options(robots: Iterable[Robot]) -> list[str]:
    return [name for r in robots for name in r.options]
