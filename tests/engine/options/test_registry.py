"""Every option card is a registered effect with its own test file; an effect acting in a step it cannot
act in is refused when it registers."""

from pathlib import Path

import pytest

from referee.engine.hooks import EFFECTS, Effect, HookError, register_effect
from referee.engine.option_deck import ALL_CARDS, CLASSIC, card_name
from referee.engine.option_orders import ORDERS, WEAPONS

HERE = Path(__file__).parent


def _module(card: str) -> str:
    return card.lower().replace("-", "_").replace(" ", "_")


@pytest.mark.parametrize("card", ALL_CARDS)
def test_each_card_has_an_effect_a_module_and_a_test_file_with_three_scenarios(card):
    assert EFFECTS[card].summary
    assert (HERE.parents[2] / "referee" / "engine" / "options" / f"{_module(card)}.py").exists()
    tests = (HERE / f"test_{_module(card)}.py").read_text()
    assert tests.count("\ndef test_") >= 3


def test_the_contracts_cards_are_the_decks_and_weapons_carry_a_weapon():
    assert len(CLASSIC) == 26 and len(ALL_CARDS) == 27
    assert {o.card for o in ORDERS} - {"(any)"} <= set(ALL_CARDS)
    assert all(EFFECTS[w].weapon is not None for w in WEAPONS)
    assert card_name("  mini   HOWITZER ") == "Mini Howitzer" and card_name("laser cannon") is None


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
