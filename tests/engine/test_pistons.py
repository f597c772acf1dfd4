"""Pneumatic pistons: entering an up piston pushes its colour down and raises the other colour; robots on
a risen piston slide off it; the position is kept from turn to turn.

Rulings cited (docs/rulings.md): 15.14.
"""

from referee.engine.elements.pistons import MAX_CHAIN

from .scenarios import element, play, robot, run, wall

RED = element("piston", "r3c4", colour="red", dir="E")
BLUE = element("piston", "r6c6", colour="blue", dir="N")


def state(outcome):
    return outcome.doc.get("board_state", {}).get("piston", {})


def test_entering_an_up_piston_lowers_its_colour_and_the_other_rises_sliding_its_robot_off():
    p = play([RED, BLUE], [robot("Twonky", "r2c4", "N"), robot("Hulk", "r6c6", "W")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert "piston r3c4 pushed down" in p.texts("Twonky", 1)
    assert [(e["colour"], e["raised"]) for e in p.events("Twonky", text="piston r3c4 pushed down")] == [("red", "blue")]
    assert p.at("Hulk") == "r7c6" and p.facing("Hulk") == "W"  # slid north, not turned
    assert state(p) == {"red": "down", "blue": "up"}


def test_a_down_piston_is_plain_floor_and_the_position_carries_into_the_next_turn():
    doc_state = {"piston": {"red": "down", "blue": "up"}}
    p = run([robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"]},
            [RED, BLUE], width=8, height=8, phases=1, board_state=doc_state)
    assert p.at("Twonky") == "r4c4"
    assert not [t for t in p.texts("Twonky") if "piston" in t]
    assert state(p) == {"red": "down", "blue": "up"}


def test_a_slide_onto_a_piston_already_down_stops_there():
    pistons = [element("piston", "r2c2", colour="red", dir="E"), element("piston", "r5c5", colour="blue", dir="E"),
               element("piston", "r5c6", colour="red", dir="W")]
    p = play(pistons, [robot("Twonky", "r1c2", "N"), robot("Hulk", "r5c5", "N")], {"Twonky": ["FWD1 490"]})
    # Twonky lowers red: blue rises, Hulk slides east onto r5c6, a red piston now down: it stays there
    assert p.at("Hulk") == "r5c6"
    assert state(p) == {"red": "down", "blue": "up"}


def test_slides_onto_up_pistons_switch_them_again_until_the_chain_jams():
    """Two robots riding pairs of pistons that slide them onto each other: every switch sets off the next."""
    loop = [element("piston", "r2c2", colour="red", dir="E"),
            element("piston", "r5c5", colour="blue", dir="E"), element("piston", "r5c6", colour="blue", dir="W"),
            element("piston", "r7c5", colour="red", dir="E"), element("piston", "r7c6", colour="red", dir="W")]
    p = play(loop, [robot("Twonky", "r1c2", "N"), robot("Hulk", "r5c5", "N"), robot("Zoom", "r7c5", "N")],
             {"Twonky": ["FWD1 490"]})
    switches = [e for e in p.events(phase=1) if "pushed down" in e["text"]]
    assert len(switches) == MAX_CHAIN
    assert [e["robot"] for e in switches[:3]] == ["Twonky", "Hulk", "Zoom"]
    # red rose again in the chain, under Twonky too: it slid off its own piston
    assert "slide to r2c3" in p.texts("Twonky", 1) and p.at("Twonky") == "r2c3"


def test_a_wall_or_a_robot_holds_a_robot_on_a_risen_piston():
    p = play([RED, BLUE, wall("r6c6", "N")], [robot("Twonky", "r2c4", "N"), robot("Hulk", "r6c6", "S")],
             {"Twonky": ["FWD1 490"]})
    assert p.at("Hulk") == "r6c6"
    p = play([RED, BLUE], [robot("Twonky", "r2c4", "N"), robot("Hulk", "r6c6", "S"), robot("Zoom", "r7c6", "S")],
             {"Twonky": ["FWD1 490"]})
    assert p.at("Hulk") == "r6c6" and p.at("Zoom") == "r7c6"


def test_a_belt_carrying_a_robot_onto_an_up_piston_pushes_it_down_too():
    p = play([RED, BLUE, element("belt", "r3c3", dir="E")], [robot("Twonky", "r3c3", "N"), robot("Hulk", "r6c6", "S")],
             {})
    assert p.at("Twonky") == "r3c4" and p.at("Hulk") == "r7c6"
