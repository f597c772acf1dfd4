"""Dealing a turn's hands: 9 - damage cards each (one more with Extra Memory), locked cards stay out
of the deck, a card kept on a Flywheel comes back in its robot's hand, and a reset site's choice
(a card in place of a dealt one, or five random cards for the program) is dealt."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import DECK, Card, CardError, deal, locked_registers, parse_card
from .option_deck import FLYWHEEL
from .programs import hand_size
from .state import GASSED, HELD, RESET_CHOICE, TAMAGOTCHI, Robot


@dataclass
class Deal:
    hands: dict[str, list[Card]]
    #: register -> card for every fused register (cards held over, or drawn for empty ones)
    locked: dict[str, dict[int, Card]]
    #: cards in nobody's hand or register this turn
    undealt: list[Card]


def needs_program(robot: Robot) -> bool:
    """Whether a player owes a program for this robot this turn (a tamagotchi plays its robot's cards)."""
    return robot.pos is not None and not robot.powered_down and TAMAGOTCHI not in robot.statuses


def deal_turn(robots: list[Robot], seed: int | str) -> Deal:
    """Deal the hands of one turn, deterministically from ``seed``.

    Robots off the board or powered down get no cards. A fused register that holds no card (it was
    fused while its robot was powered down) is given one at random from the shuffled deck.
    """
    locked: dict[str, dict[int, Card]] = {}
    held: set[Card] = set()
    for r in robots:
        if r.pos is None or r.powered_down:  # powering down repairs everything and frees the registers
            continue
        kept_on = r.option_data.get(HELD, {})  # registers a board element holds locked (melting beams)
        locked[r.name] = {reg: card for reg, card in r.locked.items()
                          if reg in locked_registers(r.damage) or str(reg) in kept_on}
        held.update(locked[r.name].values())
    for r in robots:  # cards a sleeping robot keeps for when it wakes (soporific gas) are nobody else's
        held.update(parse_card(c) for c in r.option_data.get(GASSED, {}).get("cards", {}).values())
    sizes = {r.name: hand_size(r) for r in robots if needs_program(r)}
    kept: dict[str, Card] = {}
    for r in robots:
        card = flywheel_card(r)
        if card is not None and card not in held and r.name in sizes:
            kept[r.name] = card
            held.add(card)
    chosen = reset_cards(robots, sizes, held)
    # empty fused registers are filled first, from a generator of their own
    rng = random.Random(f"fill:{seed}")
    spare = [c for c in DECK if c not in held]
    rng.shuffle(spare)
    for r in robots:
        if r.name not in locked or r.powered_down:
            continue
        for reg in locked_registers(r.damage):
            if reg not in locked[r.name]:
                card = spare.pop()
                locked[r.name][reg] = card
                held.add(card)
    reset_random(robots, sizes, locked, held, seed)
    hands = deal(sizes, seed, frozenset(held))
    for name, card in [*kept.items(), *chosen.items()]:
        hands[name].append(card)
    dealt = {c for hand in hands.values() for c in hand} | held
    return Deal(hands=hands, locked=locked, undealt=[c for c in DECK if c not in dealt])


def flywheel_card(robot: Robot) -> Card | None:
    """The card a robot keeps on its Flywheel, if any."""
    if FLYWHEEL not in robot.options:
        return None
    text = robot.option_data.get(FLYWHEEL, {}).get("card")
    try:
        return parse_card(text) if text else None
    except CardError:
        return None


def reset_cards(robots: list[Robot], sizes: dict[str, int], held: set[Card]) -> dict[str, Card]:
    """The cards chosen on reset sites: each replaces one dealt card of its robot's hand. A card someone
    else holds, or chose first (robot order), is not given: that robot gets an ordinary hand."""
    chosen: dict[str, Card] = {}
    for r in robots:
        text = r.option_data.get(RESET_CHOICE, {}).get("card")
        try:
            card = parse_card(text) if text else None
        except CardError:
            card = None
        if card is not None and card not in held and sizes.get(r.name, 0) > 0:
            chosen[r.name] = card
            held.add(card)
            sizes[r.name] -= 1
    return chosen


def reset_random(robots: list[Robot], sizes: dict[str, int], locked: dict[str, dict[int, Card]],
                 held: set[Card], seed: int | str) -> None:
    """Five random cards for the whole turn (a reset site's ``random``): every register not fused gets a
    card at random, as a fused one is (so the player owes no program), and the robot gets no hand."""
    rng = random.Random(f"reset:{seed}")
    spare = [c for c in DECK if c not in held]
    rng.shuffle(spare)
    for r in robots:
        if not r.option_data.get(RESET_CHOICE, {}).get("random") or r.name not in sizes:
            continue
        regs = locked.setdefault(r.name, {})
        for reg in range(1, 6):
            if reg not in regs:
                card = spare.pop()
                regs[reg] = card
                held.add(card)
        sizes[r.name] = 0
