"""`referee simulate` with option cards: robots' options and option data, the deck, this turn's orders and
standing orders; a scenario that cannot mean anything is refused with one line."""

import pytest

from referee.boards.scenario import ScenarioError, simulate
from tests.engine.scenarios import bot, scenario

from .helpers import holder


def test_card_names_are_read_in_any_case_and_the_result_gives_the_deck_and_the_decisions():
    doc = simulate(scenario([holder("Twonky", "r3c3", "N", "brakes", "MINI  howitzer")], {"Twonky": ["FWD1 490"]},
                            phases=1, option_deck=["shield"], orders={"Twonky": {"brakes": {"1": True}}}))
    assert doc["robots"][0]["options"] == ["Brakes", "Mini Howitzer"]
    assert doc["option_deck"] == ["Shield"]
    assert doc["decisions"][0] == {"robot": "Twonky", "subject": "brakes", "answer": True, "source": "orders",
                                   "register": 1}


def test_a_classic_scenario_keeps_the_classic_result_keys():
    doc = simulate(scenario([bot("Twonky", "r3c3", "N")], {"Twonky": ["FWD1 490"]}, phases=1))
    assert set(doc) == {"robots", "winner", "events"}


@pytest.mark.parametrize(("change", "message"), [
    ({"robots": [holder("Twonky", "r3c3", "N", "Laser Cannon")]}, "unknown option card 'Laser Cannon'"),
    ({"robots": [holder("Twonky", "r3c3", "N", "Brakes", "brakes")]}, "Brakes appears twice"),
    ({"robots": [holder("Twonky", "r3c3", "N", "Brakes"), holder("Hulk", "r5c5", "N", "Brakes")]},
     "both hold Brakes"),
    ({"option_deck": ["Brakes"]}, "option_deck: Brakes is held by 'Twonky'"),
    ({"orders": {"Twonky": {"warp drive": True}}}, "unknown subject 'warp drive'"),
    ({"orders": {"Zoom": {"brakes": {"1": True}}}}, "orders for unknown robot 'Zoom'"),
    ({"orders": {"Twonky": {"brakes": {"7": True}}}}, "register must be a whole number from 1 to 5"),
    ({"standing": {"Twonky": "brakes"}}, "standing must map robot names"),
    ({"orders": {"Twonky": {"brakes": True}}}, "brakes is given per register"),
    ({"orders": {"Twonky": {"gyroscope": {"1": True}}}}, "gyroscope is given for the turn, not per register"),
    ({"rules": {"dual_processor": "sideways"}}, "house rule dual_processor must be 'move first' or 'turn first'"),
    ({"rules": {"option_shield": "yes"}}, "house rule option_shield must be true or false"),
])
def test_a_scenario_with_options_it_cannot_mean_is_refused(change, message):
    doc = scenario([holder("Twonky", "r3c3", "N", "Brakes")], {"Twonky": ["FWD1 490"]}, phases=1)
    doc.update(change)
    with pytest.raises(ScenarioError, match=message):
        simulate(doc)
