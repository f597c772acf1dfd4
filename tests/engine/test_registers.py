"""Dealing 9 - damage cards, fused (locked) registers, and how they carry from turn to turn.

Rulings cited (docs/rulings.md): 20.
"""

import pytest

from referee.engine import DECK, Robot, deal_turn, locked_registers, parse_card, resolve_turn
from referee.engine.geometry import E, N, S

from .scenarios import bot, engine_board, flag, laser, run


def robot(name, at, facing=N, **kw):
    return Robot(name=name, pos=at, facing=facing, archive=at, **kw)


@pytest.mark.parametrize("damage", range(10))
def test_a_robot_is_dealt_nine_cards_less_its_damage(damage):
    deal = deal_turn([robot("Twonky", (5, 5), damage=damage), robot("Hulk", (7, 7))], seed=17)
    assert len(deal.hands["Twonky"]) == 9 - damage
    assert len(deal.hands["Hulk"]) == 9


@pytest.mark.parametrize(("damage", "fused"), [(0, []), (4, []), (5, [5]), (6, [4, 5]), (7, [3, 4, 5]),
                                               (8, [2, 3, 4, 5]), (9, [1, 2, 3, 4, 5])])
def test_damage_over_four_fuses_registers_from_five_down(damage, fused):
    assert locked_registers(damage) == fused


def test_every_card_of_the_deal_is_in_exactly_one_place():
    robots = [robot("A", (1, 1)), robot("B", (3, 3), damage=3), robot("C", (5, 5), damage=9)]
    deal = deal_turn(robots, seed="turn 4")
    placed = [c for hand in deal.hands.values() for c in hand]
    placed += [c for regs in deal.locked.values() for c in regs.values()]
    placed += deal.undealt
    assert sorted(placed) == sorted(DECK)
    # robot C, at 9 damage, gets no hand and every register fused (filled from the deck)
    assert deal.hands["C"] == []
    assert sorted(deal.locked["C"]) == [1, 2, 3, 4, 5]


def test_the_deal_is_fixed_by_its_seed():
    robots = [robot("A", (1, 1)), robot("B", (3, 3), damage=2)]
    assert deal_turn(robots, seed=5).hands == deal_turn(robots, seed=5).hands
    assert deal_turn(robots, seed=5).hands != deal_turn(robots, seed=6).hands


def test_cards_locked_in_registers_are_not_dealt_to_anyone():
    held = {4: parse_card("FWD3 840"), 5: parse_card("UTRN 60")}
    robots = [robot("A", (1, 1), damage=6, locked=dict(held)), robot("B", (3, 3))]
    deal = deal_turn(robots, seed=99)
    assert deal.locked["A"] == held
    assert len(deal.hands["A"]) == 3
    dealt = {c for hand in deal.hands.values() for c in hand} | set(deal.undealt)
    assert not dealt & set(held.values())


def test_a_powered_down_robot_is_dealt_no_cards():
    deal = deal_turn([robot("A", (1, 1), powered_down=True), robot("B", (3, 3))], seed=3)
    assert "A" not in deal.hands
    assert len(deal.hands["B"]) == 9


def test_each_point_of_damage_over_four_fuses_one_more_register_with_the_card_it_holds():
    """Twonky, at 4 damage, sits in a board laser all turn: one hit a phase takes it to 9 damage,
    fusing register 5 in phase 1, register 4 in phase 2 ... register 1 in phase 5."""
    program = ["LF90 70", "RT90 80", "LF90 90", "RT90 100", "UTRN 10"]
    out = run([bot("Twonky", "r1c3", "S", damage=4)], {"Twonky": program}, [laser("r1c1", "E")])
    fused = [(e["phase"], e["text"]) for e in out.events("Twonky") if e["text"].endswith(" fused")]
    assert fused == [(1, "register 5 fused"), (2, "register 4 fused"), (3, "register 3 fused"),
                     (4, "register 2 fused"), (5, "register 1 fused")]
    tw = out.robot("Twonky")
    assert tw["damage"] == 9
    assert tw["locked"] == {str(reg): card for reg, card in enumerate(program, start=1)}


def test_a_scenario_robot_with_six_damage_keeps_registers_four_and_five_fused():
    """Locked registers are part of a scenario's program: at 6 damage, the cards in registers 4 and 5."""
    program = ["LF90 70", "RT90 80", "LF90 90", "RT90 100", "UTRN 10"]
    out = run([bot("Twonky", "r5c5", "S", damage=6)], {"Twonky": program})
    assert out.robot("Twonky")["locked"] == {"4": "RT90 100", "5": "UTRN 10"}
    assert not [e for e in out.events("Twonky") if e["text"].startswith("register")]


def test_a_fused_register_is_kept_across_turns_and_its_card_is_not_dealt():
    """Turn 1: Hulk is shot to 5 damage. Turn 2: it gets four cards and plays its fused FWD2 again."""
    board = engine_board([laser("r20c1", "E")], width=40, height=40)
    fifth = parse_card("FWD2 700")
    program = [parse_card(c) for c in ("FWD1 490", "FWD1 500", "LF90 70", "RT90 80")] + [fifth]
    hulk = robot("Hulk", (21, 20), S, damage=4)
    turn1 = resolve_turn(board, [hulk], {"Hulk": program}, seed=1, phases=5)
    hulk = turn1.robots[0]
    # phase 1 ends in the beam (5 damage); phase 2 leaves it; the fused FWD2 runs in phase 5
    assert hulk.damage == 5
    assert hulk.pos == (17, 20)
    assert hulk.locked == {5: fifth}

    deal = deal_turn([hulk], seed=2)
    assert len(deal.hands["Hulk"]) == 4
    assert deal.locked["Hulk"] == {5: fifth}
    assert fifth not in deal.hands["Hulk"] and fifth not in deal.undealt

    # turn 2 on open floor: whatever the four dealt cards do, nothing there can hurt Hulk
    open_floor = engine_board(width=40, height=40)
    turn2 = resolve_turn(open_floor, [hulk], {"Hulk": [*deal.hands["Hulk"], fifth]}, seed=2)
    assert turn2.played["Hulk"][4] == fifth
    assert turn2.robots[0].damage == 5
    assert turn2.robots[0].locked == {5: fifth}


def test_more_damage_fuses_the_next_register_down_and_keeps_the_first():
    """Hulk, at 5 damage with FWD2 700 fused in register 5, takes a hit: register 4 fuses too."""
    board = engine_board([laser("r5c1", "E")])
    fifth = parse_card("FWD2 700")
    fourth = parse_card("RT90 100")
    hulk = robot("Hulk", (6, 5), S, damage=5, locked={5: fifth})
    # phase 1 ends in the beam, phase 2 leaves it
    program = [parse_card("FWD1 490"), parse_card("FWD1 500"), parse_card("LF90 90"), fourth, fifth]
    out = resolve_turn(board, [hulk], {"Hulk": program}, seed=0, phases=5)
    hulk = out.robots[0]
    assert [e.text for e in out.events if e.text.startswith("register")] == ["register 4 fused"]
    assert hulk.locked == {4: fourth, 5: fifth}


def test_a_repair_below_five_damage_releases_the_fused_register():
    """Hulk ends the turn on flag 1 at 5 damage with register 5 fused: the repair releases it."""
    board = engine_board([flag("r5c5", 1), flag("r10c10", 2)])
    hulk = robot("Hulk", (5, 5), E, damage=5, locked={5: parse_card("FWD2 700")})
    out = resolve_turn(board, [hulk], {}, seed=0)
    hulk = out.robots[0]
    assert hulk.damage == 4
    assert hulk.locked == {}
    assert [e.text for e in out.events if e.robot == "Hulk" and e.phase == "end"][:2] == ["+1 HP",
                                                                                          "register 5 released"]


def test_a_repair_from_six_to_five_damage_releases_register_four_only():
    board = engine_board([flag("r5c5", 1), flag("r10c10", 2)])
    held = {4: parse_card("FWD1 490"), 5: parse_card("FWD2 700")}
    hulk = robot("Hulk", (5, 5), E, damage=6, locked=dict(held))
    out = resolve_turn(board, [hulk], {}, seed=0)
    assert out.robots[0].damage == 5
    assert out.robots[0].locked == {5: held[5]}
    assert [e.text for e in out.events if e.text.startswith("register")] == ["register 4 released"]


def test_a_scenario_robot_at_five_damage_repaired_on_a_flag_logs_the_release():
    """The scenario form of the same situation: damage 5 means register 5 is fused, so the repair
    that brings it to 4 must release it (ruling 20), with the card Twonky plays there."""
    out = run([bot("Twonky", "r1c1", "S", damage=5)],
              {"Twonky": ["LF90 70", "RT90 80", "LF90 90", "RT90 100", "UTRN 10"]},
              [flag("r1c1", 1), flag("r10c10", 2)])
    tw = out.robot("Twonky")
    assert tw["damage"] == 4
    assert tw["locked"] == {}
    assert out.events("Twonky", phase="end", text="register 5 released")


def test_nine_damage_fuses_all_five_registers():
    board = engine_board()
    cards = [parse_card(c) for c in ("FWD1 490", "FWD1 500", "LF90 70", "RT90 80", "UTRN 10")]
    wreck = robot("Wreck", (5, 5), N, damage=9, locked=dict(enumerate(cards, start=1)))
    out = resolve_turn(board, [wreck], {"Wreck": cards}, seed=0)
    assert out.robots[0].locked == dict(enumerate(cards, start=1))
    assert out.robots[0].pos == (7, 5)


def test_a_register_fused_while_empty_is_given_a_card_from_the_deck():
    """Sleeper took its fifth point of damage while powered down: register 5 holds no card, so the
    deal fills it with one nobody else gets."""
    robots = [robot("Sleeper", (1, 1), damage=5), robot("Other", (3, 3))]
    deal = deal_turn(robots, seed=8)
    filled = deal.locked["Sleeper"]
    assert sorted(filled) == [5]
    assert len(deal.hands["Sleeper"]) == 4
    card = filled[5]
    assert card not in deal.undealt and all(card not in hand for hand in deal.hands.values())


def test_a_robot_off_the_board_is_dealt_nothing():
    deal = deal_turn([Robot("Gone", None, N, lives=2, archive=(1, 1)), robot("Here", (3, 3))], seed=4)
    assert "Gone" not in deal.hands
    assert len(deal.hands["Here"]) == 9
