"""Abort Switch: once a turn, when a register is revealed, its card may be replaced by the deck's top card;
every later register of that turn is then replaced the same way."""

from .helpers import decisions, holder, run

PROGRAM = {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]}


def _replaced(out):
    return [e["phase"] for e in out.events("Twonky") if e["text"].startswith("card replaced by")]


def test_from_the_register_named_every_card_is_replaced():
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch")], PROGRAM, orders={"Twonky": {"abort switch": 3}})
    assert _replaced(out) == [3, 4, 5]
    played = [e["card"] for e in out.events("Twonky", step="robots") if "card" in e and e["phase"] >= 3]
    assert played and not set(played) & set(PROGRAM["Twonky"])
    assert [(d["answer"], d["source"]) for d in decisions(out, "abort switch")] == [(3, "orders")]


def test_never_by_default_and_a_standing_order_holds():
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch")], PROGRAM)
    assert _replaced(out) == []
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch")], PROGRAM,
              standing={"Twonky": {"options": {"abort switch": 5}}})
    assert _replaced(out) == [5]


def test_fused_registers_keep_their_cards_and_a_powered_down_robot_has_none():
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch", damage=6)], PROGRAM,
              orders={"Twonky": {"abort switch": 1}}, standing={"Twonky": {"sacrifice_at": 0}})
    assert _replaced(out) == [1, 2, 3]  # registers 4 and 5 are fused
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch", powered_down=True)], {},
              orders={"Twonky": {"abort switch": 1}})
    assert _replaced(out) == []


def test_the_same_seed_replaces_with_the_same_cards():
    one = run([holder("Twonky", "r6c6", "N", "Abort Switch")], PROGRAM, orders={"Twonky": {"abort switch": 2}}, seed=9)
    two = run([holder("Twonky", "r6c6", "N", "Abort Switch")], PROGRAM, orders={"Twonky": {"abort switch": 2}}, seed=9)
    assert one.doc == two.doc


def test_a_virtual_robot_aborts_too_and_a_destroyed_robot_replaces_nothing_more():
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch", virtual=True)], PROGRAM,
              orders={"Twonky": {"abort switch": 4}})
    assert _replaced(out) == [4, 5]
    out = run([holder("Twonky", "r6c6", "N", "Abort Switch")], {"Twonky": ["FWD1 490", *PROGRAM["Twonky"][1:]]},
              [{"kind": "pit", "at": "r7c6"}], phases=3, orders={"Twonky": {"abort switch": 2}})
    assert out.at("Twonky") is None and _replaced(out) == []
