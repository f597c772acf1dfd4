"""Randomizers: the revealed card of a robot standing on one is replaced by a random undealt card.

Rulings cited (docs/rulings.md): 30.
"""

from referee.engine import DECK, parse_card

from .conftest import play, robot

SPOT = [{"kind": "randomizer", "at": "r4c4"}]
PROGRAM = ["FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"]


def replaced(p, name="Twonky"):
    return [e for e in p.events() if e["robot"] == name and e["step"] == "randomizers"]


def test_the_card_on_a_randomizer_is_replaced_and_the_new_one_executed():
    p = play(SPOT, [robot("Twonky", "r4c4", "N")], {"Twonky": PROGRAM}, seed=11)
    (event,) = replaced(p)
    new = parse_card(event["card"])
    assert event["replaced"] == "FWD1 490"
    assert new in DECK and str(new) not in PROGRAM
    robots_events = [e for e in p.events() if e["robot"] == "Twonky" and e["step"] == "robots"]
    assert robots_events and all(e["card"] == str(new) for e in robots_events)


def test_the_same_seed_gives_the_same_card_and_another_seed_may_not():
    cards = {replaced(play(SPOT, [robot("Twonky", "r4c4", "N")], {"Twonky": PROGRAM}, seed=s))[0]["card"]
             for s in range(12)}
    again = replaced(play(SPOT, [robot("Twonky", "r4c4", "N")], {"Twonky": PROGRAM}, seed=3))[0]["card"]
    assert again == replaced(play(SPOT, [robot("Twonky", "r4c4", "N")], {"Twonky": PROGRAM}, seed=3))[0]["card"]
    assert len(cards) > 1


def test_the_random_card_is_never_one_in_a_program():
    programs = {"Twonky": PROGRAM, "Other": ["FWD2 670", "RT90 80", "RT90 100", "RT90 120", "RT90 140"]}
    for seed in range(30):
        p = play(SPOT, [robot("Twonky", "r4c4", "N"), robot("Other", "r1c1", "E")], programs, seed=seed)
        assert replaced(p)[0]["card"] not in PROGRAM + programs["Other"]


def test_the_new_card_moves_at_its_own_priority():
    """Find a seed whose random card outranks the other robot's card, and check the order."""
    programs = {"Twonky": PROGRAM, "Other": ["FWD1 600", "RT90 80", "RT90 100", "RT90 120", "RT90 140"]}
    for seed in range(60):
        p = play(SPOT, [robot("Twonky", "r4c4", "N"), robot("Other", "r1c1", "E")], programs, seed=seed)
        new = parse_card(replaced(p)[0]["card"])
        order = [e["robot"] for e in p.events() if e["step"] == "robots"]
        first = "Twonky" if new.priority > 600 else "Other"
        assert order[0] == first
    # and the rest of the program is untouched: only phase 1 had a randomizer under the robot


def test_a_robot_not_on_the_randomizer_keeps_its_card():
    p = play(SPOT, [robot("Twonky", "r3c4", "N")], {"Twonky": PROGRAM})
    assert replaced(p) == []
    assert p.at("Twonky") == "r4c4"


def test_a_random_move_card_pushes_like_any_other():
    """Over many seeds, whenever the random card is a forward move, the robot ahead is pushed."""
    pushed = 0
    for seed in range(40):
        p = play(SPOT, [robot("Twonky", "r4c4", "N"), robot("Ahead", "r5c4", "E")], {"Twonky": PROGRAM}, seed=seed)
        new = parse_card(replaced(p)[0]["card"])
        if new.type.move > 0:
            assert p.at("Ahead") == f"r{5 + new.type.move}c4"
            assert any(t.startswith("pushed to") for t in p.texts("Ahead", 1))
            pushed += 1
    assert pushed > 0


def test_a_powered_down_robot_on_a_randomizer_is_left_alone():
    p = play(SPOT, [robot("Twonky", "r4c4", "N", powered_down=True)], {"Twonky": PROGRAM})
    assert replaced(p) == []
    assert p.at("Twonky") == "r4c4"
