"""Teleporters: a movement card executed on one jumps (squares + 2) forward, unless it cannot land.

Rulings cited (docs/rulings.md): 31.
"""

from .conftest import play, robot

PAD = [{"kind": "teleporter", "at": "r2c4"}]


def test_move_one_on_a_teleporter_jumps_three_squares():
    p = play(PAD, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r5c4"
    assert p.texts("Twonky", 1) == ["teleport to r5c4"]


def test_move_two_jumps_four_and_move_three_jumps_five():
    assert play(PAD, [robot("T", "r2c4", "N")], {"T": ["FWD2 670"]}).at("T") == "r6c4"
    assert play(PAD, [robot("T", "r2c4", "N")], {"T": ["FWD3 790"]}).at("T") == "r7c4"


def test_back_up_on_a_teleporter_jumps_two_forward():
    p = play(PAD, [robot("Twonky", "r2c4", "N")], {"Twonky": ["RVS1 430"]})
    assert p.at("Twonky") == "r4c4"
    assert p.robots["Twonky"]["facing"] == "N"


def test_turn_cards_on_a_teleporter_only_turn():
    p = play(PAD, [robot("Twonky", "r2c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.at("Twonky") == "r2c4"
    assert p.robots["Twonky"]["facing"] == "E"


def test_the_jump_ignores_pits_and_robots_in_between():
    elements = [*PAD, {"kind": "pit", "at": "r3c4"}]
    robots = [robot("Twonky", "r2c4", "N"), robot("Between", "r4c4", "E")]
    p = play(elements, robots, {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r5c4"
    assert p.at("Between") == "r4c4"


def test_a_robot_on_the_landing_square_makes_the_card_play_normally():
    robots = [robot("Twonky", "r2c4", "N"), robot("Sitter", "r5c4", "E")]
    p = play(PAD, robots, {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert p.at("Sitter") == "r5c4"


def test_a_device_on_the_landing_square_makes_the_card_play_normally():
    elements = [*PAD, {"kind": "pusher", "at": "r5c4", "dir": "W", "phases": [2, 4]}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"


def test_a_flat_element_on_the_landing_square_is_fine():
    elements = [*PAD, {"kind": "belt", "at": "r5c4", "dir": "E"}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    # lands on the belt, which then carries it
    assert p.at("Twonky") == "r5c5"


def test_landing_off_the_board_makes_the_card_play_normally():
    p = play([{"kind": "teleporter", "at": "r7c4"}], [robot("Twonky", "r7c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r8c4"


def test_a_wall_on_the_way_stops_the_jump_by_default():
    elements = [*PAD, {"kind": "wall", "at": "r3c4", "sides": ["N"]}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"


def test_house_rule_lets_the_jump_pass_walls():
    elements = [*PAD, {"kind": "wall", "at": "r3c4", "sides": ["N"]}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]},
             rules={"teleport_through_walls": True})
    assert p.at("Twonky") == "r5c4"


def test_teleporting_into_a_pit_destroys():
    elements = [*PAD, {"kind": "pit", "at": "r5c4"}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None
    assert p.robots["Twonky"]["destroyed"]


def test_teleporting_onto_the_next_flag_touches_it():
    elements = [*PAD, {"kind": "flag", "at": "r5c4", "number": 1}, {"kind": "flag", "at": "r8c8", "number": 2}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.robots["Twonky"]["flags"] == 1
    assert p.robots["Twonky"]["archive"] == "r5c4"


def test_teleporting_onto_the_last_flag_wins():
    elements = [*PAD, {"kind": "flag", "at": "r5c4", "number": 1}]
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.winner == "Twonky"
