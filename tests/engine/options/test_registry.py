"""Every option card declares itself in its own module (effect, deck rank, house rule, badge, order and its
words by mail) and has its own test file; a declaration that cannot work is refused when it registers."""

from pathlib import Path

import pytest

from referee.engine.hooks import EFFECTS, Effect, HookError, register_effect
from referee.engine.option_cards import (
    CARDS,
    FIRST_EDITION,
    CardError,
    MailOrder,
    OptionCard,
    cards,
    register_card,
    weapons,
)
from referee.engine.option_deck import card_name
from referee.engine.option_orders import BY_SUBJECT, OptionOrder, orders

HERE = Path(__file__).parent


def _module(card: str) -> str:
    return card.lower().replace("-", "_").replace(" ", "_")


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_card_has_an_effect_a_module_and_a_test_file_with_three_scenarios(card):
    assert EFFECTS[card].summary and CARDS[card].effect is EFFECTS[card]
    assert (HERE.parents[2] / "referee" / "engine" / "options" / f"{_module(card)}.py").exists()
    tests = (HERE / f"test_{_module(card)}.py").read_text()
    assert tests.count("\ndef test_") >= 3


def test_the_cards_orders_are_the_contracts_and_weapons_carry_a_weapon():
    assert [c.rank for c in cards()] == sorted({c.rank for c in cards()})   # one rank each
    assert sum(1 for c in cards() if c.house_rule is None) >= 26
    assert {o.card for o in orders()} - {"(any)"} == {c.name for c in cards() if c.order is not None}
    assert all(BY_SUBJECT[c.order.subject] is c.order for c in cards() if c.order is not None)
    assert {"Mini Howitzer", "Pressor Beam", "Radio Control", "Scrambler", "Tractor Beam"} <= set(weapons())
    assert all(EFFECTS[w].weapon is not None for w in weapons()) and "Brakes" not in weapons()
    assert card_name("  mini   HOWITZER ") == "Mini Howitzer" and card_name("laser cannon") is None


def _noop(ctx, robot, phase):
    return None


@pytest.mark.parametrize(("card", "says"), [
    (OptionCard(Effect("Jet Pack", "flies"), rank=3, badge="JP", house_rule="option_cards"), "rank 3"),
    (OptionCard(Effect("Jet Pack", "flies"), rank=FIRST_EDITION + 50, badge="JP"), "by house rule"),
    (OptionCard(Effect("Jet Pack", "flies"), rank=99, badge="JP", house_rule="edge"), "not a yes/no rule"),
    (OptionCard(Effect("Jet Pack", "flies"), rank=99, badge="JETP", house_rule="option_cards"), "badge"),
    (OptionCard(Effect("Jet Pack", "flies", weapon=lambda ctx, robot, phase: None), rank=99, badge="JP",
                house_rule="option_cards"), "weapon"),
    (OptionCard(Effect("Jet Pack", "flies"), rank=99, badge="JP", house_rule="option_cards",
                order=OptionOrder("Jet Pack", "jet pack", ("register",), "True", False, "JET 2"),
                mail=MailOrder("hover", ("JET",))), "unknown order shape"),
    (OptionCard(Effect("Jet Pack", "flies"), rank=99, badge="JP", house_rule="option_cards",
                order=OptionOrder("Jet Pack", "jet pack", ("register",), "True", False, "JET 2")),
     "go together"),
    (OptionCard(Effect("Brakes", "again"), rank=99, badge="B2", house_rule="option_cards"), "twice"),
])
def test_a_declaration_that_cannot_work_is_refused_and_nothing_of_it_registers(card, says):
    with pytest.raises(CardError, match=says):
        register_card(card)
    assert "Jet Pack" not in CARDS and "Jet Pack" not in EFFECTS and "jet pack" not in BY_SUBJECT


def test_an_effect_step_handler_must_fit_its_step():
    def at_reveal(ctx, robot, phase):
        return None

    def at_start(ctx, robot):
        return None

    with pytest.raises(HookError, match="takes"):
        register_effect(Effect("wrong arity", steps={"start.options": at_reveal}))
    with pytest.raises(HookError, match="dispatches card hooks"):
        register_effect(Effect("a move step", steps={"move.options": at_start}))
    with pytest.raises(HookError, match="unknown step"):
        register_effect(Effect("no such step", steps={"reveal.nowhere": at_reveal}))
    assert not {"wrong arity", "a move step", "no such step"} & set(EFFECTS)
