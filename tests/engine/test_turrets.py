"""Turrets: five cards nobody holds run every turret for the turn; a turn card turns them with the gears,
a movement card fires them after the lasers. The turret's square is a pit robots cannot see through, and
its facing is kept from turn to turn (board state).

Rulings cited (docs/rulings.md): 15.12.
"""

from referee.engine import parse_card

from .scenarios import element, play, robot, run

TURRET = element("turret", "r4c4", dir="N")
NESW = "NESW"


def around(**kw):
    """A robot on each side of the turret, facing away from it (their own lasers hit nobody)."""
    return [robot("North", "r5c4", "N", **kw), robot("East", "r4c5", "E", **kw),
            robot("South", "r3c4", "S", **kw), robot("West", "r4c3", "W", **kw)]


def expected(cards, start="N"):
    """Which neighbour each turret card hits (None for a turn card) and the facing it ends with."""
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    d = NESW.index(start)
    hits = []
    for text in cards:
        card = parse_card(text)
        if card.type.turn:
            d = (d + card.type.turn) % 4
            hits.append(None)
        else:
            hits.append(names[NESW[d]])
    return hits, NESW[d]


def test_the_turrets_program_turns_and_fires_on_the_robot_it_faces():
    p = play([TURRET], around(), {}, phases=5, width=8, height=8, seed=7)
    cards = p.doc["board_state"]["turret"]["cards"]
    assert len(cards) == 5
    hits, final = expected(cards)
    for phase, target in enumerate(hits, start=1):
        struck = [name for name in ("North", "East", "South", "West")
                  if p.hits(name, phase=phase, step="turrets")]
        assert struck == ([target] if target else [])
    assert p.doc["board_state"]["turret"].get("r4c4", "N") == final


def test_the_facing_carries_over_into_the_next_turn():
    first = play([TURRET], around(), {}, phases=5, seed=3)
    state = first.doc["board_state"]
    second = run(around(), {}, [TURRET], width=8, height=8, seed=4, board_state=state)
    start = state["turret"].get("r4c4", "N")
    hits, final = expected(second.doc["board_state"]["turret"]["cards"], start)
    for phase, target in enumerate(hits, start=1):
        if target:
            assert [e["robot"] for e in second.events(phase=phase, step="turrets") if e["text"] == "-1 HP"] == [target]
    assert second.doc["board_state"]["turret"].get("r4c4", start) == final


def test_the_cards_are_drawn_from_those_nobody_holds_and_follow_the_seed():
    program = {"West": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"]}
    west = [robot("West", "r4c1", "E")]
    a = play([TURRET], west, program, phases=1, seed="same")
    b = play([TURRET], west, program, phases=1, seed="same")
    assert a.doc["board_state"]["turret"]["cards"] == b.doc["board_state"]["turret"]["cards"]
    assert not set(a.doc["board_state"]["turret"]["cards"]) & set(program["West"])


def test_a_robot_running_onto_a_turret_falls_into_its_pit():
    p = play([TURRET], [robot("Twonky", "r4c2", "E")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") is None
    assert "destroyed" in p.texts("Twonky", 1)


def test_robots_cannot_shoot_across_a_turret():
    p = run([robot("Left", "r4c2", "E"), robot("Right", "r4c6", "W")], {},
            [TURRET], width=8, height=8, phases=1)
    assert not p.hits("Right", step="lasers") and not p.hits("Left", step="lasers")
    p = run([robot("Left", "r4c2", "E"), robot("Right", "r4c6", "W")], {}, [], width=8, height=8, phases=1)
    assert p.hits("Right", step="lasers") and p.hits("Left", step="lasers")


def test_a_tractor_turret_pushes_by_its_move_card_and_pulls_by_a_back_up():
    """Whatever the turrets' first card, the robot in its line moves as the card says, and takes no damage."""
    tractor = element("turret", "r4c4", dir="N", beam="tractor")
    for seed in range(6):
        p = run([robot("Twonky", "r7c4", "S")], {}, [tractor], phases=1, seed=seed)
        card = parse_card(p.doc["board_state"]["turret"]["cards"][0])
        row = 7 + card.type.move if card.type.move > 0 else 6 if card.type.move < 0 else 7
        assert p.at("Twonky") == f"r{row}c4", str(card)
        assert p.damage("Twonky") == 0


def test_a_back_up_pulls_a_robot_beside_the_tractor_turret_into_its_pit():
    tractor = element("turret", "r4c4", dir="N", beam="tractor")
    pulled = []
    for seed in range(40):
        p = run([robot("Twonky", "r5c4", "S")], {}, [tractor], phases=1, seed=seed)
        if parse_card(p.doc["board_state"]["turret"]["cards"][0]).type.move < 0:
            pulled.append(p.at("Twonky"))
    assert pulled and set(pulled) == {None}
