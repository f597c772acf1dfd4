"""GM ``SET`` over what a robot carries: options given and taken, statuses, and their data."""

from __future__ import annotations

import re

import pytest

from referee import games as g
from referee.gm.language import GmSyntaxError, parse_command

from .conftest import SECRET


def robot(gm, name):
    with gm.store.read() as s:
        return {r.name: r for r in g.robots_of(g.open_turn(s, g.get_game(s, gm.game)))}[name]


def test_set_gives_and_takes_options_in_the_order_gained(running):
    running("SET Twonky OPTIONS +Brakes +Mini Howitzer")
    assert robot(running, "Twonky").options == ["Brakes", "Mini Howitzer"]
    ctx = running('SET Twonky OPTIONS -brakes +"Pressor Beam" DATA mini shots=3')
    twonky = robot(running, "Twonky")
    assert twonky.options == ["Mini Howitzer", "Pressor Beam"]
    assert twonky.option_data == {"Mini Howitzer": {"shots": 3}}
    assert "options Mini Howitzer, Pressor Beam" in "\n".join(ctx.lines)


def test_the_answer_to_a_set_that_gives_a_card_says_what_it_does_and_how_its_order_is_written(running):
    ctx = running.mail(f"BEGIN GM {running.game} key {SECRET}\nSET Twonky OPTIONS +Brakes +Shield\nEND\n")
    said = " ".join(ctx.reply.split())
    assert "new option card Brakes: a Move 1 may move nothing. Order: BRAKES <registers>, e.g. BRAKES 2." in said
    assert "new option card Shield: the first robot-laser damage from the front each phase is prevented; it works " \
           "by itself." in said


def test_an_exact_list_replaces_the_options_and_a_card_given_up_keeps_no_data(running):
    running("SET Twonky OPTIONS +Mini Howitzer DATA mini-howitzer shots=2")
    running("SET Twonky OPTIONS Shield, Gyro")
    twonky = robot(running, "Twonky")
    assert twonky.options == ["Shield", "Gyroscopic Stabilizer"] and twonky.option_data == {}
    running("SET Twonky OPTIONS NONE")
    assert robot(running, "Twonky").options == []


def test_set_changes_statuses_and_keeps_the_other_robots_as_they_were(running):
    hammer = robot(running, "Hammer")
    running("SET Twonky STATUS +flying DATA flying phases=2 DAMAGE 1")
    twonky = robot(running, "Twonky")
    assert twonky.statuses == {"flying"} and twonky.option_data == {"flying": {"phases": 2}} and twonky.damage == 1
    running("SET Twonky STATUS -flying")
    assert robot(running, "Twonky").statuses == set()
    assert robot(running, "Hammer") == hammer


@pytest.mark.parametrize(("line", "says"), [
    ("SET Twonky OPTIONS +Brakess", "did you mean Brakes"),
    ("SET Twonky STATUS +flyng", "did you mean flying"),
    ("SET Twonky OPTIONS +Brakes Shield", "give every name a + or a -"),
    ("SET Twonky DATA brakes", "DATA <option or status> <field>=<value>"),
    ("SET Twonky OPTIONS", "OPTIONS needs names"),
])
def test_a_misspelt_set_is_refused_with_a_suggestion(line, says):
    with pytest.raises(GmSyntaxError, match=re.escape(says)):
        parse_command(line)


def test_taking_an_option_the_robot_lacks_fails_naming_what_it_holds(running):
    running("SET Twonky OPTIONS +Brakes")
    ctx = running("SET Twonky OPTIONS -Shield", ok=False)
    assert ctx.failures == 1 and "Twonky has no option Shield to take (its options: Brakes)" in "\n".join(ctx.lines)
    assert robot(running, "Twonky").options == ["Brakes"]


def test_options_given_come_out_of_the_deck_and_options_taken_go_back_under_it(running):
    with running.store.read() as s:
        deck = list(g.open_turn(s, g.get_game(s, running.game)).option_deck)
    running("SET Twonky OPTIONS +Brakes +Shield" if "Shield" in deck else "SET Twonky OPTIONS +Brakes +Scrambler")
    given = robot(running, "Twonky").options
    with running.store.read() as s:
        after = list(g.open_turn(s, g.get_game(s, running.game)).option_deck)
    assert after == [c for c in deck if c not in given]
    running("SET Twonky OPTIONS -Brakes")
    with running.store.read() as s:
        assert list(g.open_turn(s, g.get_game(s, running.game)).option_deck) == [*after, "Brakes"]
    ctx = running(f"SET Hammer OPTIONS +{given[1]}", ok=False)
    assert ctx.failures == 1 and f"{given[1]} is held by Twonky" in "\n".join(ctx.lines)
