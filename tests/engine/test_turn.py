"""A whole turn: five phases then the end of turn; fewer phases leave the end of turn out.

Rulings cited (docs/rulings.md): 3, 26.
"""

from .scenarios import bot, laser, pit, repair, run


def test_five_phases_then_the_end_of_turn():
    out = run([bot("Twonky", "r3c3", "N", damage=3)],
              {"Twonky": ["FWD1 490", "RT90 80", "FWD1 500", "LF90 70", "FWD1 510"]}, [repair("r5c4", 1)])
    assert out.at("Twonky") == "r5c4"
    assert out.damage("Twonky") == 2
    assert [e["phase"] for e in out.events("Twonky", step="robots")] == [1, 2, 3, 4, 5]
    assert out.events("Twonky", phase="end", step="repairs")


def test_fewer_phases_skip_repairs():
    out = run([bot("Twonky", "r3c3", "S", damage=3)], elements=[repair("r3c3", 2)], phases=4)
    assert out.damage("Twonky") == 3
    assert "end" not in out.phases_logged()
    assert max(p for p in out.phases_logged() if isinstance(p, int)) == 4


def test_fewer_phases_leave_a_destroyed_robot_off_the_board():
    out = run([bot("Twonky", "r3c4", "N", archive="r8c8")], {"Twonky": ["FWD1 490", "FWD1 500"]}, [pit("r4c4")],
              phases=2)
    assert out.at("Twonky") is None
    assert out.robot("Twonky")["destroyed"] is True
    assert not out.events("Twonky", text="re-enter at r8c8")


def test_fewer_phases_leave_a_first_turn_robot_virtual_and_power_downs_pending():
    out = run([bot("Newbie", "r5c5", "S", virtual=True), bot("Tired", "r7c7", "S", power_down_next=True)], phases=3)
    assert out.robot("Newbie")["virtual"] is True
    assert out.robot("Newbie")["first_turn"] is True
    assert out.robot("Tired")["powered_down"] is False
    assert out.robot("Tired")["power_down_next"] is True


def test_a_short_program_is_enough_for_fewer_phases():
    out = run([bot("Twonky", "r3c3", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert out.at("Twonky") == "r5c3"


def test_the_steps_of_a_phase_come_in_timing_order():
    """Robots, express, belts, pushers, gears, crushers, lasers, checkpoints: one robot meets them all."""
    elements = [
        {"kind": "express", "at": "r2c2", "dir": "N"},
        {"kind": "belt", "at": "r3c2", "dir": "N"},
        {"kind": "pusher", "at": "r4c2", "dir": "E", "phases": [1]},
        {"kind": "gear", "at": "r4c3", "turn": "right"},
        {"kind": "flag", "at": "r4c3", "number": 1},
        {"kind": "flag", "at": "r9c9", "number": 2},
        laser("r4c1", "E"),
    ]
    out = run([bot("Twonky", "r1c2", "N", archive="r1c2")], {"Twonky": ["FWD1 490"]}, elements, phases=1)
    steps = [e["step"] for e in out.events("Twonky")]
    assert steps == ["robots", "express", "belts", "pushers", "gears", "lasers", "lasers", "checkpoints",
                     "checkpoints"]
    assert out.at("Twonky") == "r4c3"
    assert out.facing("Twonky") == "E"
    assert out.damage("Twonky") == 1
    assert out.robot("Twonky")["flags"] == 1
