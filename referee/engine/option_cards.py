"""What an option card is: one declaration in its own module, registered by one line.

A card's module (``engine/options/<card>.py``) ends with ``CARD = OptionCard(...)``: its effect (the
hooks, guard, weapon... of :class:`~referee.engine.hooks.Effect`), its place in the deck, whether the
deck holds it by default or only under a house rule, its badge in the pictures, the engine's side of
its order (:class:`~referee.engine.option_orders.OptionOrder`: the decision subject and the answer's
shape) and the words a player writes it with (:class:`MailOrder`, plain data the order language
reads: the engine never parses mail). ``options/__init__.py`` registers it with
``register_card(NAME.CARD)``; everything else (the deck, the GM's ``SET``, the order language, the
order form, HELP's usage lines) reads :data:`CARDS`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .hooks import Effect, register_effect
from .option_orders import OptionOrder, register_order
from .state import OPTION_CARDS, Rules

#: the answer shapes the order language reads (see docs/engine.md, "Recipe: an option card")
SHAPES = frozenset({
    "registers",          # BRAKES 2, 4                       -> {"2": True, "4": True}
    "choice",             # CRAB 2: LEFT, 5: RIGHT            -> {"2": "left", "5": "right"} (or one standing answer)
    "register card",      # DUAL 3: RT90 80                   -> {"3": "RT90 80"}
    "register card if",   # CONDITIONAL 4: U 50 IF ROBOT AHEAD -> {"4": {"card": ..., "if": ...}}
    "card",               # FLYWHEEL: M2 490                  -> "FWD2 490"
    "switch",             # GYRO ON                           -> True
    "register or never",  # ABORT 3 | ABORT NEVER             -> 3 | 0
    "flag",               # RECOMPILE                         -> True
    "weapon",             # FIRE 3: PRESSOR BEAM, PRESSOR BEAM 3 (the FIRE orders)
})
#: how long a turn-wide answer lasts when the player says nothing: this turn only, until changed (a
#: turn's "THIS TURN" overrides), or always until changed (no scope words)
KEEPS = frozenset({"turn", "standing", "always standing"})
#: the deck as first shipped (the classic 26 and Shield): a card ranked after it joins a game's deck only
#: by a house rule, so adding a card never changes the shuffle of a game that does not ask for it
FIRST_EDITION = 27
#: the house rule that names extra cards for a game's deck (``option_cards = ["Rocket Boots"]``)
EXTRA_CARDS = "option_cards"


@dataclass(frozen=True, slots=True)
class MailOrder:
    """How a player writes a card's order by mail. Plain words; :mod:`referee.orders.options` reads them."""

    #: the answer's shape, one of :data:`SHAPES`
    shape: str
    #: the words a line of the order starts with: the one the referee writes first, then aliases
    #: (spaces match spaces, hyphens or nothing: ``FOURTH GEAR`` also reads ``FOURTH-GEAR``)
    words: tuple[str, ...]
    #: the moves of the cards the order acts on in its registers (1: Move 1, -1: Back Up; a Dual
    #: Processor's 2 and 3): an order for a register holding another card is refused in the same mail
    acts_on: tuple[int, ...] = ()
    #: what ``acts_on`` means, for that refusal ("Brakes acts on a Move 1")
    rule: str = ""
    #: "choice" shape: (answer, the words that give it), e.g. ("left", ("LEFT", "L"))
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: turn-wide answers: see :data:`KEEPS`
    keeps: str = "turn"
    #: "register card": the card must be a turn card ("turn") or may be any card ("any")
    card_kind: str = "any"
    #: how the order is written, one pattern per line (``BRAKES <registers>``); the first example is
    #: :attr:`OptionOrder.clause`'s (``BRAKES 2 | BRAKES 2, 4``)
    usage: tuple[str, ...] = ()
    #: a weapon's registers where it can never act (Scrambler and Radio Control in register 5: no register
    #: follows): a FIRE order for them is taken, and the echo says the main laser fires there instead
    idle_in: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionCard:
    """One option card, all of it: see the module docstring."""

    effect: Effect
    #: the card's place in the deck before it is shuffled: explicit and never reused, so the shuffle of a
    #: game's deck depends only on the cards in it (1-26 the classic card list, 27 Shield)
    rank: int
    #: one to three letters marking the card in pictures and tables ("BR" for Brakes)
    badge: str
    #: None: in every game's deck; else only under a house rule: a boolean rule of :class:`Rules` that
    #: puts it in (Shield: ``option_shield``), or :data:`EXTRA_CARDS` (the game lists the card by name)
    house_rule: str | None = None
    #: the engine's side of its order (None: the card needs no choice, or is a weapon fired by FIRE)
    order: OptionOrder | None = None
    #: how its order is written by mail (None: no order)
    mail: MailOrder | None = None
    #: statuses the card puts on robots (Radio Control's ``radio controlled``), registered with it
    statuses: tuple[Effect, ...] = ()

    @property
    def name(self) -> str:
        return self.effect.name

    @property
    def summary(self) -> str:
        return self.effect.summary

    @property
    def weapon(self) -> bool:
        """Fired instead of the main laser, in the registers the FIRE orders name it for."""
        return self.effect.weapon is not None

    def in_deck(self, rules: Rules) -> bool:
        """Whether a game with these house rules has the card in its deck."""
        if self.house_rule is None:
            return True
        if self.name in rules.option_cards:
            return True
        return self.house_rule != EXTRA_CARDS and getattr(rules, self.house_rule) is True


#: name -> card, in registration order
CARDS: dict[str, OptionCard] = {}


class CardError(ValueError):
    """A card declaration that cannot work."""


def register_card(card: OptionCard) -> OptionCard:
    """Register a card: its effect (and statuses), its order; refuse a declaration that cannot work."""
    name = card.name
    if name in CARDS:
        raise CardError(f"option card {name!r} registered twice")
    if not card.summary:
        raise CardError(f"option card {name!r}: the effect needs a one-line summary")
    if not isinstance(card.rank, int) or card.rank < 1 or any(c.rank == card.rank for c in CARDS.values()):
        raise CardError(f"option card {name!r}: rank {card.rank!r} must be a positive number no other card has")
    if card.rank > FIRST_EDITION and card.house_rule is None:
        raise CardError(f"option card {name!r}: a card added after the first edition joins the deck by house rule "
                        f"(house_rule={EXTRA_CARDS!r}), so the shuffle of existing games stays the same")
    rule_names = {f.name for f in fields(Rules)}
    if card.house_rule is not None and (card.house_rule not in rule_names or
                                        (card.house_rule != EXTRA_CARDS
                                         and not isinstance(getattr(Rules(), card.house_rule), bool))):
        raise CardError(f"option card {name!r}: house rule {card.house_rule!r} is not a yes/no rule of Rules "
                        f"nor {EXTRA_CARDS!r}")
    if not 1 <= len(card.badge) <= 3:
        raise CardError(f"option card {name!r}: a badge is one to three letters")
    _check_mail(card)
    register_effect(card.effect)
    for status in card.statuses:  # order-free: a tuple, in the order declared
        register_effect(status)
    if card.order is not None:
        register_order(card.order)
    CARDS[name] = card
    OPTION_CARDS.add(name)
    return card


def _check_mail(card: OptionCard) -> None:
    mail, order, name = card.mail, card.order, card.name
    if card.weapon != (mail is not None and mail.shape == "weapon"):
        raise CardError(f"option card {name!r}: a weapon (and only a weapon) has a mail order of shape 'weapon'")
    if order is not None and order.card != name:
        raise CardError(f"option card {name!r}: its order names the card {order.card!r}")
    if (order is None) != (mail is None or mail.shape == "weapon"):
        raise CardError(f"option card {name!r}: an order and its mail words go together")
    if mail is None:
        return
    if mail.shape not in SHAPES:
        raise CardError(f"option card {name!r}: unknown order shape {mail.shape!r} "
                        f"(shapes: {', '.join(sorted(SHAPES))})")
    if mail.keeps not in KEEPS or not mail.words or any(w != w.upper() for w in mail.words):
        raise CardError(f"option card {name!r}: mail words are upper case, and keeps is one of {sorted(KEEPS)}")
    if mail.shape == "choice" and not mail.choices:
        raise CardError(f"option card {name!r}: a choice order lists its choices")
    if mail.acts_on and not mail.rule:
        raise CardError(f"option card {name!r}: say what the card acts on (rule=...)")


def cards() -> list[OptionCard]:
    """Every registered card, in deck order."""
    return sorted(CARDS.values(), key=lambda c: c.rank)


def card_of(name: str) -> OptionCard | None:
    """The card a robot carries by ``name`` (the card's proper name, any case and spacing)."""
    key = " ".join(name.split()).lower()
    return next((c for c in CARDS.values() if c.name.lower() == key), None)


def weapons() -> tuple[str, ...]:
    """The weapon cards (fired instead of the main laser by FIRE orders), in deck order."""
    return tuple(c.name for c in cards() if c.weapon)
