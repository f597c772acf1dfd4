"""High-power teleporters: a movement card executed on one jumps (squares + bonus) forward, always over
walls, whatever the house rule says of ordinary teleporters.

Rulings cited (docs/rulings.md): 14.15.
"""

from .scenarios import element, pit, play, robot, wall

PAD = element("hp_teleporter", "r2c4")
FAR = element("hp_teleporter", "r2c4", bonus=3)


def test_it_jumps_walls_even_when_the_house_rule_keeps_ordinary_teleporters_from_it():
    walls = [wall("r3c4", "N")]
    p = play([PAD, *walls], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]},
             rules={"teleport_through_walls": False})
    assert p.at("Twonky") == "r5c4"
    assert p.texts("Twonky", 1) == ["teleport to r5c4"]
    plain = play([element("teleporter", "r2c4"), *walls], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert plain.at("Twonky") == "r3c4"  # an ordinary teleporter under the same rule: the card plays normally


def test_the_optional_rule_adds_three_and_a_back_up_counts_as_no_squares():
    assert play([FAR], [robot("T", "r2c4", "N")], {"T": ["FWD2 670"]}).at("T") == "r7c4"
    p = play([FAR], [robot("T", "r2c4", "N")], {"T": ["RVS1 430"]})
    assert p.at("T") == "r5c4" and p.facing("T") == "N"
    assert play([PAD], [robot("T", "r2c4", "N")], {"T": ["RVS1 430"]}).at("T") == "r4c4"


def test_a_blocked_landing_plays_the_card_normally_and_a_pit_landing_falls():
    robots = [robot("Twonky", "r2c4", "N"), robot("Sitter", "r5c4", "E")]
    p = play([PAD], robots, {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4" and p.at("Sitter") == "r5c4"
    p = play([PAD], [robot("Twonky", "r2c4", "E")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r2c7"  # c9 is off the 8-wide board: no jump, the Move 3 plays normally
    p = play([PAD, pit("r5c4")], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None


def test_turn_cards_only_turn_and_a_virtual_robot_may_land_on_a_real_one():
    p = play([PAD], [robot("Twonky", "r2c4", "N")], {"Twonky": ["LF90 70"]})
    assert p.at("Twonky") == "r2c4" and p.facing("Twonky") == "W"
    robots = [robot("Ghost", "r2c4", "N", virtual=True), robot("Sitter", "r5c4", "E")]
    assert play([PAD], robots, {"Ghost": ["FWD1 490"]}).at("Ghost") == "r5c4"
