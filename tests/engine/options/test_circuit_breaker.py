"""Circuit Breaker: a robot ending a turn with 3 or more damage starts the next turn powered down.

Rulings cited (docs/rulings.md): 16.13.
"""

from tests.engine.scenarios import laser, pit

from .helpers import decisions, holder, run


def test_ending_the_turn_with_3_damage_the_robot_powers_down_next_turn():
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", damage=2)], elements=[laser("r3c6", "W")],
              standing={"Twonky": {"sacrifice_at": 0}})
    assert out.robot("Twonky")["damage"] == 7
    assert out.robot("Twonky")["powered_down"] is True
    assert "uses Circuit Breaker" in out.texts("Twonky", "end")


def test_at_the_sacrifice_threshold_the_breaker_itself_may_be_given_up_and_then_does_nothing():
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", damage=2)], elements=[laser("r3c6", "W")],
              option_deck=[])
    assert (out.robot("Twonky")["damage"], out.robot("Twonky")["options"]) == (6, [])
    assert out.robot("Twonky")["powered_down"] is False and out.doc["option_deck"] == ["Circuit Breaker"]


def test_below_3_damage_nothing_happens_and_the_player_may_decline():
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", damage=2)])
    assert out.robot("Twonky")["powered_down"] is False and decisions(out, "circuit breaker") == []
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", damage=4)],
              standing={"Twonky": {"options": {"circuit breaker": False}}})
    assert out.robot("Twonky")["powered_down"] is False
    assert [(d["answer"], d["source"]) for d in decisions(out, "circuit breaker")] == [(False, "standing")]


def test_a_destroyed_robot_has_lost_its_circuit_breaker_and_re_enters_awake():
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", damage=4)], {"Twonky": ["FWD1 490", "UTRN 10",
              "UTRN 20", "UTRN 30", "UTRN 40"]}, [pit("r4c3")], option_deck=[])
    twonky = out.robot("Twonky")
    assert (twonky["at"], twonky["damage"], twonky["powered_down"], twonky["options"]) == ("r3c3", 2, False, [])


def test_a_powered_down_robot_hit_to_3_damage_stays_down_and_a_virtual_robot_trips_too():
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", powered_down=True)], elements=[laser("r3c6", "W")],
              standing={"Twonky": {"sacrifice_at": 0}})
    assert out.robot("Twonky")["powered_down"] is True and out.damage("Twonky") == 5
    out = run([holder("Twonky", "r3c3", "N", "Circuit Breaker", damage=3, virtual=True)])
    assert out.robot("Twonky")["powered_down"] is True
