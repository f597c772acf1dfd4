"""Option cards' orders by mail, through the real intake (IMAP APPEND, poll, process).

Twonky holds the card; its player mails a program and the card's clause. The echo lists the order,
the store keeps it (with the turn's orders, or as a standing order), and when the turn is resolved
the engine is asked with exactly the key and answer of engine/option_orders.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee import games as g
from referee.engine import parse_card
from referee.engine.decisions import FIRE
from referee.engine.option_cards import weapons
from referee.engine.option_orders import (
    ABORT_SWITCH,
    BRAKES,
    CIRCUIT_BREAKER,
    CONDITIONAL,
    CRAB_LEGS,
    DUAL_PROCESSOR,
    FIRE_CONTROL,
    FLYWHEEL,
    FOURTH_GEAR,
    GYROSCOPE,
    RECOMPILE,
    REVERSE_GEARS,
    SACRIFICE_ORDER,
    order_key,
)
from referee.games.tokens import reply_address

from .helpers import address, block, hand, incoming, mail, new_game, orders, outbox, player, text_of


def give_options(store, code: str, robot: str, options: list[str], data: dict | None = None) -> None:
    """The robot holds ``options`` (with ``data``) in the open turn, as a GM's SET leaves it."""
    with store.write() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        robots = [replace(r, options=list(options), option_data=dict(data or {})) if r.name == robot else r
                  for r in g.robots_of(turn)]
        g.replace_open_state(s, code, robots, actor="test")


def plan(cards: list[str]) -> tuple[list[str], list[str]]:
    """A program from the hand with a Move 2 in register 2 (Dual Processor's partner), and the cards left."""
    parsed = [parse_card(c) for c in cards]
    move2 = next(c for c in parsed if c.type.move == 2)
    rest = [c for c in parsed if c != move2]
    program = [rest[0], move2, *rest[1:4]]
    spare = [c for c in parsed if c not in program]
    return [str(c) for c in program], [str(c) for c in spare]


def deal_in(store, code: str, robot: str, move: int) -> None:
    """The robot's hand holds a card of ``move``: when it has none, its last card is swapped for an undealt one
    (as a luckier deal would have given it)."""
    with store.write() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        cards = list(turn.hands[robot])
        if any(parse_card(c).type.move == move for c in cards):
            return
        undealt = list(turn.undealt)
        card = next(c for c in undealt if parse_card(c).type.move == move)
        undealt[undealt.index(card)] = cards[-1]
        cards[-1] = card
        turn.hands = {**turn.hands, robot: cards}
        turn.undealt = undealt


def place(program: list[str], spare: list[str], reg: int, move: int) -> tuple[list[str], list[str]]:
    """The program with a card of ``move`` (1: Move 1, -1: Back Up) in register ``reg``, from elsewhere in
    the program or from the spare cards: an option order for that register then has a card to act on."""
    program, spare = list(program), list(spare)
    if parse_card(program[reg - 1]).type.move == move:
        return program, spare
    for i, card in enumerate(program):
        if i != reg - 1 and parse_card(card).type.move == move:
            program[i], program[reg - 1] = program[reg - 1], program[i]
            return program, spare
    card = next(c for c in spare if parse_card(c).type.move == move)
    spare[spare.index(card)] = program[reg - 1]
    program[reg - 1] = card
    return program, spare


def lines_for(program: list[str]) -> list[str]:
    return [f"{i}: {c}" for i, c in enumerate(program, start=1)]


def resolve(store, code: str):
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.random_fill, actor="test")
        return g.stored_inputs(turn), dict(turn.option_orders or {})


# card, clause (``{spare}`` / ``{turn}``: a card left in the hand), subject, register, answer ("{...}": that card),
# whether it is a standing order; the cards the order acts on are put in its registers (NEEDS)
NEEDS = {"Brakes": (1, 1), "Crab Legs": (1, 1), "Fourth Gear": (2, 3), "Reverse Gears": (5, -1)}
CASES = [
    ("Abort Switch", "ABORT 3", ABORT_SWITCH, None, 3, False),
    ("Brakes", "BRAKES 1, 4", BRAKES, 4, True, False),
    ("Circuit Breaker", "CIRCUIT BREAKER OFF", CIRCUIT_BREAKER, None, False, True),
    ("Conditional Program", "CONDITIONAL 4: {spare} IF ROBOT AHEAD", CONDITIONAL, 4,
     {"card": "{spare}", "if": "ROBOT AHEAD"}, False),
    ("Crab Legs", "Crab legs 1: left", CRAB_LEGS, 1, "left", False),
    ("Dual Processor", "DUAL 2: {turn}", DUAL_PROCESSOR, 2, "{turn}", False),
    ("Fire Control", "FIRE CONTROL 3: OPTION", FIRE_CONTROL, 3, "option", False),
    ("Fire Control", "FIRE CONTROL: REGISTER", FIRE_CONTROL, None, "register", True),
    ("Flywheel", "FLYWHEEL: {spare}", FLYWHEEL, None, "{spare}", False),
    ("Fourth Gear", "FOURTH GEAR 2", FOURTH_GEAR, 2, True, False),
    ("Gyroscopic Stabilizer", "GYRO ON", GYROSCOPE, None, True, True),
    ("Gyroscopic Stabilizer", "GYRO ON THIS TURN", GYROSCOPE, None, True, False),
    ("Reverse Gears", "REVERSE GEARS 5", REVERSE_GEARS, 5, True, False),
]


@pytest.mark.parametrize(("card", "clause", "subject", "register", "answer", "standing"), CASES,
                         ids=[f"{c[0]}: {c[1]}" for c in CASES])
async def test_an_option_order_by_mail_reaches_the_engine_as_its_decision(store, take, card, clause, subject,
                                                                         register, answer, standing):
    code = new_game(store)
    give_options(store, code, "Twonky", [card, "Shield"])
    if card in NEEDS:
        deal_in(store, code, "Twonky", NEEDS[card][1])
    program, spare = plan(hand(store, code, "Twonky"))
    if card in NEEDS:
        program, spare = place(program, spare, *NEEDS[card])
    turn_card = next(c for c in spare if parse_card(c).type.turn in (1, 3))
    other = next(c for c in spare if c != turn_card)
    fill = {"{spare}": other, "{turn}": turn_card}
    clause = clause.format(spare=other, turn=turn_card)
    answer = ({k: fill.get(v, v) for k, v in answer.items()} if isinstance(answer, dict)
              else fill.get(answer, answer) if isinstance(answer, str) else answer)

    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(program), clause])))

    (taken,) = incoming(store)
    assert taken.outcome == "accepted", taken.reason
    (echo,) = outbox(store)
    body = text_of(echo.raw)
    heading = "Option orders kept until changed:" if standing else "Option orders for this turn:"
    listed = body.split(heading, 1)[1].split("BEGIN", 1)[0]
    assert clause.upper().replace("CRAB LEGS", "CRAB") in listed.upper()
    if standing:
        assert player(store, code, "Twonky").standing_orders["options"][subject] == answer
    else:
        (order,) = [o for o in orders(store, code, "Twonky") if o.active]
        said = order.extra["turn_options"][subject]
        assert (said[str(register)] if register else said) == answer

    inputs, stored = resolve(store, code)
    assert inputs.answers().answer("Twonky", order_key(subject, register)) == \
        (answer, "standing" if standing else "orders")
    if not standing:
        assert subject in stored["Twonky"]


async def test_sacrifice_order_by_mail_is_a_standing_list_of_the_robots_cards(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Brakes", "Shield"])
    await take(mail(address("alice"), block(store, code, "Twonky", ["SACRIFICE ORDER: SHIELD, BRAKES"])))
    assert incoming(store)[0].outcome == "accepted"
    assert player(store, code, "Twonky").standing_orders["options"] == {SACRIFICE_ORDER: ["Shield", "Brakes"]}
    inputs, _ = resolve(store, code)
    assert inputs.answers().answer("Twonky", order_key(SACRIFICE_ORDER)) == (["Shield", "Brakes"], "standing")


@pytest.mark.parametrize("weapon", weapons())
async def test_a_weapon_card_is_fired_by_a_fire_order_naming_it(store, take, weapon):
    code = new_game(store)
    give_options(store, code, "Twonky", [weapon])
    program, _ = plan(hand(store, code, "Twonky"))
    first_word = weapon.split()[0].upper()   # FIRE 2: PRESSOR
    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(program), f"FIRE 2: {first_word}"])))
    assert incoming(store)[0].outcome == "accepted", incoming(store)[0].reason
    assert f"FIRE 2: {weapon.upper()}" in text_of(outbox(store)[0].raw)
    inputs, _ = resolve(store, code)
    assert inputs.answers().answer("Twonky", order_key(FIRE, 2)) == (weapon, "standing")


async def test_an_order_for_a_card_the_robot_does_not_hold_is_refused_naming_the_line(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Shield"])
    program, _ = plan(hand(store, code, "Twonky"))
    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(program), "BRAKES 2"])))
    (taken,) = incoming(store)
    assert taken.outcome == "rejected"
    body = text_of(outbox(store)[0].raw)
    assert "line 7: BRAKES 2" in body and "does not hold Brakes" in body and "Shield" in body
    assert not [o for o in orders(store, code, "Twonky") if o.active]


async def test_option_orders_without_a_program_on_file_wait_for_one(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Brakes"])
    await take(mail(address("alice"), block(store, code, "Twonky", ["BRAKES 2"])))
    assert incoming(store)[0].outcome == "rejected"
    assert "Brakes orders go with a program" in text_of(outbox(store)[0].raw)


async def test_option_orders_sent_later_add_to_the_program_on_file(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Brakes", "Fourth Gear"])
    program, _ = place(*plan(hand(store, code, "Twonky")), 1, 1)
    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(program), "BRAKES 1"])),
               mail(address("alice"), block(store, code, "Twonky", ["FOURTH GEAR 3"])))
    assert [m.outcome for m in incoming(store)] == ["accepted", "accepted"]
    (order,) = [o for o in orders(store, code, "Twonky") if o.active]
    assert order.program == program
    assert order.extra["turn_options"] == {BRAKES: {"1": True}, FOURTH_GEAR: {"3": True}}


# -- Recompile: the round trip --------------------------------------------------------------------------
async def test_recompile_by_mail_deals_a_second_hand_from_the_seed_and_the_deadline_stays(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Recompile"])
    first = hand(store, code, "Twonky")
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        deadline, seed, undealt = turn.deadline, turn.seed, [parse_card(c) for c in turn.undealt]
    await take(mail(address("alice"), block(store, code, "Twonky", lines_for(first[:5]))))
    await take(mail(address("alice"), block(store, code, "Twonky", ["RECOMPILE"])))

    second = hand(store, code, "Twonky")
    expected, _ = g.recompile_deal([parse_card(c) for c in first], undealt, seed, "Twonky")
    assert second == [str(c) for c in expected] and len(second) == len(first)
    assert not set(second) & set(first)   # plenty of undealt cards: all new
    assert not [o for o in orders(store, code, "Twonky") if o.active]   # the program named the first hand
    answer = outbox(store)[-1]
    body = text_of(answer.raw)
    assert "your second hand (Recompile)" in answer.subject
    assert all(card in body for card in second) and "deadline does not move" in body
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        assert turn.deadline == deadline and turn.first_hands == {"Twonky": first}
        assert not set(second) & set(turn.undealt) and set(first) <= set(turn.undealt)

    # the first hand's cards are gone; the new hand's are taken; RECOMPILE once a turn
    await take(mail(address("alice"), block(store, code, "Twonky", lines_for(first[:5]))))
    assert incoming(store)[-1].outcome == "rejected"
    await take(mail(address("alice"), block(store, code, "Twonky", lines_for(second[:5]))))
    assert incoming(store)[-1].outcome == "accepted"
    await take(mail(address("alice"), block(store, code, "Twonky", ["RECOMPILE"])))
    assert incoming(store)[-1].outcome == "rejected"
    assert "once a turn" in text_of(outbox(store)[-1].raw)

    inputs, stored = resolve(store, code)
    assert inputs.programs["Twonky"] == [parse_card(c) for c in second[:5]]
    assert stored["Twonky"] == {RECOMPILE: True}
    assert inputs.answers().answer("Twonky", order_key(RECOMPILE)) == (True, "orders")


async def test_recompile_with_a_program_in_the_same_mail_is_refused(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Recompile"])
    first = hand(store, code, "Twonky")
    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(first[:5]), "RECOMPILE"])))
    assert incoming(store)[0].outcome == "rejected"
    assert "send RECOMPILE alone" in text_of(outbox(store)[0].raw)
    assert hand(store, code, "Twonky") == first


async def test_a_robot_without_recompile_keeps_its_hand(store, take):
    code = new_game(store)
    first = hand(store, code, "Twonky")
    await take(mail(address("alice"), block(store, code, "Twonky", ["RECOMPILE"])))
    assert incoming(store)[0].outcome == "rejected"
    assert "does not hold Recompile" in text_of(outbox(store)[0].raw)
    assert hand(store, code, "Twonky") == first


async def test_recompile_keeps_the_card_on_the_flywheel(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Recompile", "Flywheel"], {"Flywheel": {"card": "FWD3 840"}})
    first = hand(store, code, "Twonky")
    assert first[-1] == "FWD3 840"   # the kept card comes with the hand
    await take(mail(address("alice"), block(store, code, "Twonky", ["RECOMPILE"])))
    second = hand(store, code, "Twonky")
    assert incoming(store)[0].outcome == "accepted"
    assert second[-1] == "FWD3 840" and len(second) == len(first) and not set(second[:-1]) & set(first)


# -- issue 30, defects 4, 5 and 7 through the real intake -------------------------------------------------
@pytest.mark.parametrize("line", ["PRESSOR BEAM 2", "Use pressor beam in register 2"])
async def test_a_weapon_cards_own_line_is_taken_as_its_fire_order_not_skipped(store, take, settings, line):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Pressor Beam"])
    program, _ = plan(hand(store, code, "Twonky"))
    with store.read() as s:   # a plain reply to the turn mail: no block, prose around the orders is skipped
        to = reply_address(settings, g.get_game(s, code), player(store, code, "Twonky"), 1)
    await take(mail(address("alice"), "\n".join(["Hi!", *lines_for(program), line, "Thanks!"]) + "\n", to=to))
    assert incoming(store)[0].outcome == "accepted", incoming(store)[0].reason
    assert "FIRE 2: PRESSOR BEAM" in text_of(outbox(store)[0].raw)
    inputs, _ = resolve(store, code)
    assert inputs.answers().answer("Twonky", order_key(FIRE, 2)) == ("Pressor Beam", "standing")


async def test_brakes_on_a_move_2_is_refused_saying_why_and_nothing_is_filed(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Brakes"])
    program, _ = plan(hand(store, code, "Twonky"))   # register 2 holds a Move 2
    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(program), "BRAKES 2"])))
    assert incoming(store)[0].outcome == "rejected"
    assert "Brakes acts on a Move 1; register 2 holds" in " ".join(text_of(outbox(store)[0].raw).split())
    assert not [o for o in orders(store, code, "Twonky") if o.active]


async def test_after_its_weapon_is_lost_the_form_offers_no_fire_order_for_it_and_no_cards_as_weapons(store, take):
    code = new_game(store)
    give_options(store, code, "Twonky", ["Pressor Beam", "Brakes"])
    program, _ = plan(hand(store, code, "Twonky"))
    await take(mail(address("alice"), block(store, code, "Twonky", [*lines_for(program), "FIRE 3: PRESSOR"])))
    give_options(store, code, "Twonky", ["Brakes", "Gyroscopic Stabilizer", "Abort Switch"])   # the beam is lost
    await take(mail(address("alice"), block(store, code, "Twonky", lines_for(program))))
    assert [m.outcome for m in incoming(store)] == ["accepted", "accepted"]
    echo = text_of(outbox(store)[-1].raw)
    assert "PRESSOR" not in echo.upper().split("BEGIN", 1)[1]
    assert "your weapons: main laser)" in echo and "FIRE 2: BRAKES" not in echo
