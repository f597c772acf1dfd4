"""Powering down: all damage repaired before anything moves; no cards, no firing; still pushed and shot.

Rulings cited (docs/rulings.md): 1.
"""

from referee.engine import Robot, parse_card, resolve_turn
from referee.engine.geometry import N

from .scenarios import bot, engine_board, laser, repair, run


def test_a_powered_down_robot_repairs_all_damage_before_anything_moves():
    out = run([bot("Sleeper", "r5c5", "S", damage=7, powered_down=True)], phases=1)
    assert out.damage("Sleeper") == 0
    start = out.events("Sleeper", phase="start")
    assert [e["text"] for e in start] == ["powered down", "+7 HP"]
    assert out.doc["events"][:2] == start


def test_power_down_repairs_come_before_the_turns_damage():
    """Sleeper starts at 9 damage in a laser beam: repaired first, it survives the phase's hit."""
    out = run([bot("Sleeper", "r5c5", "S", damage=9, powered_down=True)], elements=[laser("r5c1", "E")], phases=1)
    assert out.at("Sleeper") == "r5c5"
    assert out.damage("Sleeper") == 1


def test_a_powered_down_robot_does_not_move_even_with_cards_in_its_registers():
    out = run([bot("Sleeper", "r5c5", "N", powered_down=True)], {"Sleeper": ["FWD3 840"]}, phases=1)
    assert out.at("Sleeper") == "r5c5"
    assert out.events("Sleeper", step="robots") == []


def test_a_powered_down_robot_does_not_fire():
    out = run([bot("Sleeper", "r5c2", "E", powered_down=True), bot("Target", "r5c5", "N")], phases=1)
    assert out.events("Sleeper", step="lasers") == []
    assert out.damage("Target") == 0


def test_a_powered_down_robot_is_still_pushed_and_shot():
    out = run([bot("Bully", "r5c2", "E"), bot("Sleeper", "r5c3", "N", powered_down=True)],
              {"Bully": ["FWD1 490"]}, phases=1)
    assert out.at("Sleeper") == "r5c4"
    assert out.texts("Sleeper", step="robots") == ["pushed to r5c4"]
    # the Bully's laser then hits it
    assert out.damage("Sleeper") == 1
    assert out.events("Sleeper", step="lasers", text="-1 HP")[0]["by"] == "Bully"


def test_damage_taken_while_powered_down_counts_and_is_not_repaired_at_the_end_of_the_turn():
    out = run([bot("Sleeper", "r5c5", "S", damage=3, powered_down=True)],
              elements=[laser("r5c1", "E"), repair("r5c5", 2)])
    assert out.damage("Sleeper") == 5
    assert not [t for t in out.texts("Sleeper", phase="end") if t.startswith("+")]


def test_a_robot_that_announced_a_power_down_powers_down_at_the_end_of_the_turn():
    out = run([bot("Tired", "r5c5", "S", damage=4, power_down_next=True)])
    tired = out.robot("Tired")
    assert tired["powered_down"] is True
    assert tired["power_down_next"] is False
    assert tired["damage"] == 4
    assert out.texts("Tired", phase="end") == ["powers down for next turn"]


def test_a_powered_down_robot_wakes_at_the_end_of_the_turn():
    out = run([bot("Sleeper", "r5c5", "S", powered_down=True)])
    assert out.robot("Sleeper")["powered_down"] is False


def test_powering_down_releases_fused_registers():
    board = engine_board()
    held = {4: parse_card("FWD1 490"), 5: parse_card("FWD2 700")}
    sleeper = Robot("Sleeper", (5, 5), N, damage=6, powered_down=True, locked=dict(held), archive=(5, 5))
    out = resolve_turn(board, [sleeper], {}, seed=0)
    assert out.robots[0].damage == 0
    assert out.robots[0].locked == {}
    assert [e.text for e in out.events if e.phase == "start"] == ["powered down", "+6 HP", "register 4 released",
                                                                  "register 5 released"]
