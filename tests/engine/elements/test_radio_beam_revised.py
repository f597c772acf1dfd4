"""Radio beams, the revised rule (house rule ``radio_beam = "revised"``): three face-down cards lie by the beam;
the first robot to enter it finishes its move, drops the rest of its program and plays the three cards, in
registers 6-8 after everyone else's five when it runs past register 5.

Rulings cited (docs/rulings.md): 15.r3.
"""

from referee.engine import Robot, Rules, parse_card, resolve_turn

from ..scenarios import element, engine_board

BOARD = engine_board([element("radio_beam", "r3c4")])
REVISED = Rules(radio_beam="revised")
#: the cards the beam is dealt from in these tests: three right turns, so their order does not matter
RIGHT_TURNS = [parse_card(c) for c in ("RT90 80", "RT90 100", "RT90 120")]


def cards(*texts):
    return [parse_card(t) for t in texts]


def radio_events(result, robot="Twonky"):
    return [e for e in result.events if e.robot == robot and e.text.startswith("runs the radio beam's cards")]


def test_a_robot_entering_in_register_1_plays_the_beams_cards_in_registers_2_to_4_and_nothing_in_5():
    program = cards("FWD1 490", "FWD2 700", "FWD2 710", "FWD2 720", "FWD2 730")
    result = resolve_turn(BOARD, [Robot("Twonky", (2, 4), 0)], {"Twonky": program}, rules=REVISED,
                          undealt=RIGHT_TURNS, seed=3)
    twonky = result.robots[0]
    assert twonky.pos == (3, 4) and twonky.facing == 3         # stopped in the beam, three right turns: west
    assert sorted(result.played["Twonky"][1:4]) == sorted(RIGHT_TURNS) and result.played["Twonky"][4] is None
    [event] = radio_events(result)
    assert event.phase == 1 and event.text.endswith("from register 2") and len(event.data["cards"]) == 3


def test_a_robot_entering_in_register_4_plays_registers_6_and_7_after_everyone_and_lasers_fire_in_them():
    program = cards("UTRN 10", "UTRN 20", "FWD1 490", "FWD1 500", "UTRN 30")
    zoom = Robot("Zoom", (6, 4), 1)  # three squares north of the beam, looking east at nothing
    result = resolve_turn(BOARD, [Robot("Twonky", (3, 2), 1), zoom], {"Twonky": program}, rules=REVISED,
                          undealt=RIGHT_TURNS, seed=3)
    twonky, zoom = result.robots
    assert twonky.pos == (3, 4) and twonky.facing == 0         # east, then south, west, north
    assert parse_card("UTRN 30") not in result.played["Twonky"]   # dropped for the beam's cards
    assert radio_events(result)[0].text.endswith("from register 5")
    steps = [e.step for e in result.events if e.robot == "Twonky" and e.kind == "face"]
    assert steps[-2:] == ["radio register 6", "radio register 7"]
    begun = [e.text for e in result.events if e.kind == "radio register"]
    assert [t.split(":")[0] for t in begun] == ["register 6", "register 7"] and "radio register 8" not in steps
    hits = [e for e in result.events if e.robot == "Zoom" and e.kind == "damage"]
    assert zoom.damage == 1 and [e.step for e in hits] == ["radio register 7"]  # Twonky turned north and fired
    assert any(e.robot == "Zoom" and e.kind == "fire" and e.step == "radio register 6" for e in result.events)


def test_the_cards_are_taken_once_a_second_robot_entering_the_beam_keeps_its_program():
    first = cards("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40")
    second = cards("UTRN 50", "UTRN 60", "FWD1 500", "LF90 70", "LF90 90")
    robots = [Robot("Twonky", (2, 4), 0), Robot("Zoom", (3, 3), 1)]  # Zoom enters the beam in register 3
    result = resolve_turn(BOARD, robots, {"Twonky": first, "Zoom": second}, rules=REVISED, undealt=RIGHT_TURNS)
    assert len(radio_events(result)) == 1 and radio_events(result, "Zoom") == []
    assert result.played["Zoom"] == second
    assert [r.pos for r in result.robots] == [(3, 5), (3, 4)]   # Zoom pushed Twonky on through the beam


def test_the_original_rule_stays_the_default_and_the_same_seed_lays_the_same_cards():
    program = cards("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40")
    original = resolve_turn(BOARD, [Robot("Twonky", (2, 4), 0)], {"Twonky": program}, seed=5)
    assert radio_events(original) == [] and original.robots[0].locked       # radio cards for next turn
    runs = [resolve_turn(BOARD, [Robot("Twonky", (2, 4), 0)], {"Twonky": program}, rules=REVISED, seed=5)
            for _ in range(2)]
    assert runs[0].played == runs[1].played and radio_events(runs[0])[0].data == radio_events(runs[1])[0].data
    assert runs[0].robots[0].locked == {}                                  # nothing held into the next turn
    assert Rules().to_dict() == Rules(radio_beam="original").to_dict() and "radio_beam" not in Rules().to_dict()
    assert Rules.from_dict({"radio_beam": "revised"}) == REVISED


def test_a_powered_down_robot_pushed_into_the_beam_leaves_the_cards_for_the_next_robot():
    sleeper = Robot("Sleepy", (3, 4), 0, powered_down=True)
    pusher = Robot("Twonky", (3, 3), 1)
    beam = engine_board([element("radio_beam", "r3c4"), element("radio_beam", "r3c5")])
    result = resolve_turn(beam, [pusher, sleeper], {"Twonky": cards("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30",
                                                                     "UTRN 40")},
                          rules=REVISED, undealt=RIGHT_TURNS)
    assert result.robots[1].pos == (3, 5) and radio_events(result, "Sleepy") == []
    assert len(radio_events(result)) == 1   # Twonky stepped into the beam square Sleepy was pushed out of
