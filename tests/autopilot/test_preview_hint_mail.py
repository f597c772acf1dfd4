"""PREVIEW and HINT by mail, through the real intake (Dovecot, the poller, the store): a player sees
where their own program takes their robot, the others standing still, and (where the GM allows it)
the autopilot's best programs for their hand.

Rulings cited (docs/rulings.md): 17.b, 17.c.
"""

from __future__ import annotations

import re

from referee import games as g
from referee.autopilot import plan_program
from referee.boards import load_board
from referee.engine import Rules, parse_card, resolve_turn
from referee.engine.geometry import DIR_NAMES, square_name
from referee.intake.process import referee_gm_handler
from tests.intake.conftest import settings, take  # noqa: F401  (the intake's fixtures)
from tests.intake.helpers import (
    GM,
    GM_SECRET,
    address,
    block,
    hand,
    mail,
    new_game,
    outbox,
    program_lines,
    text_of,
)


def turn_inputs(store, code):
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        return (g.robots_of(turn), turn.seed, Rules.from_dict(turn.rules), [parse_card(c) for c in turn.undealt])


def answer_to(store, user):
    return text_of([m for m in outbox(store) if address(user) in m.recipients][-1].raw)


async def test_orders_with_preview_show_where_the_program_takes_the_robot(store, take):  # noqa: F811
    code = new_game(store)
    hammer = hand(store, code, "Hammer")[:5]
    await take(mail(address("bob"), block(store, code, "Hammer", program_lines(hammer))))
    cards = hand(store, code, "Twonky")[:5]
    await take(mail(address("alice"), block(store, code, "Twonky", [*program_lines(cards), "PREVIEW"])))

    body = answer_to(store, "alice")
    assert "orders accepted" in [m for m in outbox(store) if address("alice") in m.recipients][-1].subject
    assert f"PREVIEW of Twonky's program for turn 1 of {code}" in body
    # the engine, run with Twonky's program alone and the preview's own seed, ends where the answer says
    robots, seed, rules, undealt = turn_inputs(store, code)
    result = resolve_turn(load_board("sprint"), robots, {"Twonky": [parse_card(c) for c in cards]},
                          seed=f"preview:{seed}", rules=rules, undealt=undealt)
    end = next(r for r in result.robots if r.name == "Twonky")
    where = f"{square_name(end.pos)} facing {DIR_NAMES[end.facing]}" if end.pos else "destroyed"
    assert re.search(rf"end of turn: {re.escape(where)}", body)
    for reg, card in enumerate(cards, start=1):
        assert re.search(rf"^  {reg}: {re.escape(card)}\s+-> ", body, re.M)
    route = body.split("Where the robot stands after each register")[1].split("\n\n")[1]
    # a plain route, not a map of the board: where it starts, then where each register leaves it
    assert "+---+" not in body
    start = re.escape(f"@ {square_name(robots[0].pos)} facing {DIR_NAMES[robots[0].facing]}")
    assert re.match(rf"^  {start} -> after 1(-\d)?: ", route), route
    assert re.search(r"after (\d-)?5: (r\d+c\d+ facing [NESW]|destroyed)$", " ".join(route.split())), route
    # nothing of Bob's orders, and the other robots stand where they started
    assert not any(card in body for card in hammer)


async def test_preview_alone_shows_the_program_on_file_or_says_there_is_none(store, take):  # noqa: F811
    code = new_game(store)
    await take(mail(address("carol"), "PREVIEW\n", subject=f"{code} preview"))
    assert "no whole program on file for you yet" in answer_to(store, "carol")

    cards = hand(store, code, "Zoom")[:5]
    await take(mail(address("carol"), block(store, code, "Zoom", program_lines(cards))))
    await take(mail(address("carol"), "PREVIEW please\n", subject=f"{code} preview"))
    body = answer_to(store, "carol")
    assert f"PREVIEW of Zoom's program for turn 1 of {code}" in body
    assert all(card in body for card in cards)


async def test_hint_is_refused_where_the_game_does_not_allow_it(store, take):  # noqa: F811
    code = new_game(store)
    await take(mail(address("alice"), "HINT\n", subject=f"{code} hint"))
    body = answer_to(store, "alice")
    assert f"game {code} does not give hints" in body and "HINTS ON" in body
    with store.read() as s:
        game = g.get_game(s, code)
        assert not game.hints and g.active_orders(s, g.open_turn(s, game)) == {}


async def test_hint_gives_the_three_best_programs_once_the_gm_allows_it(store, take):  # noqa: F811
    code = new_game(store)
    await take(mail(GM, f"BEGIN GM {code} key {GM_SECRET}\nHINTS ON\nEND\n"), gm_handler=referee_gm_handler)
    with store.read() as s:
        assert g.get_game(s, code).hints
    await take(mail(address("bob"), "HINTS\n", subject=f"{code} hint"))

    body = answer_to(store, "bob")
    assert f"HINT for Hammer, turn 1 of {code}" in body
    programs = re.findall(r"^  \d\. (.+)$", body, re.M)
    assert len(programs) == 3
    held = set(hand(store, code, "Hammer"))
    for line in programs:  # each a legal program of Hammer's hand, each opening differently
        cards = [c.strip() for c in line.split(",")]
        assert len(cards) == 5 and len(set(cards)) == 5 and set(cards) <= held
    assert len({parse_card(p.split(",")[0]).type for p in programs}) == 3
    # the first is the program the autopilot itself would choose for this hand
    robots, seed, rules, undealt = turn_inputs(store, code)
    best = plan_program(load_board("sprint"), robots, "Hammer", [parse_card(c) for c in hand(store, code, "Hammer")],
                        seed=f"preview:{seed}", rules=rules, undealt=undealt)
    assert [c.strip() for c in programs[0].split(",")] == [str(c) for c in best.program]
    with store.read() as s:  # nothing was entered for Hammer
        assert g.active_orders(s, g.open_turn(s, g.get_game(s, code))) == {}
