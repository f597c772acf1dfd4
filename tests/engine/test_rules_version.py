"""Rules version 3 (issue 33) follows the rule texts where rulings chose otherwise; a turn stored under
version 2 replays exactly: ``Rules.for_version(2)`` plays the old readings (which any game may also keep as
house rules) and the old order-dependent ways."""

import pytest

from referee.engine import RULES_VERSION, Robot, Rules, parse_card, parse_square, resolve_turn
from referee.engine.state import LEGACY_RULES
from referee.games.engine_io import REPLAYABLE, turn_rules
from referee.store.models import Turn

from .scenarios import element, engine_board


def test_version_2_turns_replay_exactly():
    assert RULES_VERSION >= 3 and {2, 3} <= REPLAYABLE
    old = Rules().for_version(2)
    assert all(getattr(old, name) for name in LEGACY_RULES) and not old.order_free
    assert Rules().order_free and not any(getattr(Rules(), name) for name in LEGACY_RULES)


def test_the_old_readings_are_house_rules_written_only_when_set():
    assert not set(Rules().to_dict()) & LEGACY_RULES
    assert Rules.from_dict({"repeat_at_once": True}).to_dict()["repeat_at_once"] is True
    with pytest.raises(ValueError, match="version"):
        Rules.from_dict({"version": 2})  # the rules version is not a house rule
    with pytest.raises(ValueError, match="true or false"):
        Rules.from_dict({"deep_water_start_only": "yes"})


@pytest.mark.parametrize(("version", "status", "legacy"), [
    (2, "resolved", True), (3, "resolved", False), (None, "open", False), (None, "resolved", True),
    (2, "open", True)])  # a version-2 turn reopened by a rollback is played again under the rules it was dealt under
def test_a_stored_turn_is_played_under_the_rules_version_it_was_dealt_under(version, status, legacy):
    rules = turn_rules(Turn(rules={"edge": "pit"}, rules_version=version, status=status))
    assert rules.repeat_at_once is legacy and rules.order_free is not legacy


def test_a_version_2_turn_replays_the_old_deep_water_ruling():
    """A Move 2 from dry floor through deep water: 1 damage now, none under version 2."""
    board = engine_board([element("deep_water", "r3c4")], 8, 8)
    robots = [Robot("Twonky", parse_square("r2c4"), 0)]
    programs = {"Twonky": [parse_card("FWD2 670"), None, None, None, None]}
    now = resolve_turn(board, robots, programs, phases=1)
    then = resolve_turn(board, robots, programs, phases=1, rules=Rules().for_version(2))
    assert [r.damage for r in now.robots] == [1] and [r.damage for r in then.robots] == [0]
