"""A turn's JSON, typed (:mod:`referee.store.records`): rows as earlier versions stored them still decode,
and what the referee deals and resolves goes into the columns and comes back out unchanged."""

from __future__ import annotations

from referee import games as g
from referee.engine import parse_card
from referee.engine.option_orders import RECOMPILE
from referee.store import records
from referee.store.records import Deal

from .conftest import new_game

#: a turn as the first stored games kept it: robots without statuses, option data or first-turn marks,
#: fused registers keyed by text, a program with an empty register, no option orders at all
OLD_ROW = {
    "hands": {"Twonky": ["FWD2 670", "RT90 80", "FWD1 490", "LF90 310", "RVS1 450"], "Hammer": []},
    "locked": {"Hammer": {"5": "UTRN 20", "4": "FWD3 800"}},
    "undealt": ["FWD1 610", "RT90 420"],
    "state_before": [
        {"name": "Twonky", "at": "r2c3", "facing": "N", "damage": 0, "lives": 3, "flags": 0, "virtual": False,
         "archive": "r1c1", "powered_down": False, "locked": {}, "options": []},
        {"name": "Hammer", "at": "r4c4", "facing": "E", "damage": 6, "lives": 2, "flags": 1, "virtual": False,
         "archive": "r4c4", "powered_down": False, "locked": {"5": "UTRN 20", "4": "FWD3 800"}, "options": []},
    ],
    "programs": {"Twonky": ["FWD2 670", "RT90 80", None, "LF90 310", "RVS1 450"]},
}


class Row:
    """A stored turn's JSON columns, as the database hands them back."""

    def __init__(self, **columns: object) -> None:
        self.__dict__.update(columns)


def test_a_turn_stored_by_an_early_version_decodes_to_engine_objects():
    row = Row(**OLD_ROW)
    assert records.hand_of(row, "Twonky")[0] == parse_card("FWD2 670")
    assert records.hand_of(row, "Zoom") == []                       # a robot dealt nothing
    assert records.locked_of(row, "Hammer") == {4: parse_card("FWD3 800"), 5: parse_card("UTRN 20")}
    assert records.locked_of(row, "Twonky") == {}
    assert records.undealt_of(row) == [parse_card("FWD1 610"), parse_card("RT90 420")]
    twonky, hammer = records.robots_of(row)
    assert (twonky.name, twonky.statuses, twonky.option_data, twonky.first_turn) == ("Twonky", set(), {}, False)
    assert hammer.locked == {4: parse_card("FWD3 800"), 5: parse_card("UTRN 20")}
    assert records.programs_of(OLD_ROW["programs"])["Twonky"][2] is None


def test_an_early_row_encodes_back_to_what_was_stored():
    row = Row(**OLD_ROW)
    deal = Deal.of_turn(row)
    assert deal.hands_text() == OLD_ROW["hands"]
    # fused registers come back in register order; a robot with none is left out, as the referee stores it
    assert deal.locked_text() == {"Hammer": {"4": "FWD3 800", "5": "UTRN 20"}}
    assert deal.undealt_text() == OLD_ROW["undealt"]
    assert records.programs_text(records.programs_of(OLD_ROW["programs"])) == OLD_ROW["programs"]
    assert records.cards_text(records.cards_of(["FWD1 490", None])) == ["FWD1 490", None]
    again = records.snapshot(records.robots_of(row))
    assert [r["at"] for r in again] == ["r2c3", "r4c4"]
    assert records.robots_of(Row(state_before=again)) == records.robots_of(row)


def test_option_orders_of_robots_that_said_nothing_are_not_stored():
    assert records.option_orders_text({"Twonky": {}, "Hammer": {}}) is None
    assert records.option_orders_text({"Twonky": {RECOMPILE: True}, "Hammer": {}}) == {"Twonky": {RECOMPILE: True}}


def test_a_dealt_turn_round_trips_through_the_codec(store):
    code = new_game(store)
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        assert turn is not None
        deal = Deal.of_turn(turn)
        assert deal.hands_text() == turn.hands
        assert deal.locked_text() == turn.locked
        assert deal.undealt_text() == turn.undealt
        assert records.snapshot(records.robots_of(turn)) == turn.state_before
        assert sorted(deal.hands) == ["Hammer", "Twonky", "Zoom"]
        assert all(len(hand) == 9 for hand in deal.hands.values())   # undamaged robots are dealt nine
