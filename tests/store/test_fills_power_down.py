"""The autopilot powers down a badly damaged robot it plays, as a player would send REBOOT: the filled
orders say so, the turn carries it, and a plan made before the write lock carries it too."""

from __future__ import annotations

from datetime import timedelta

from referee import games as g
from referee.common.config import Settings
from referee.engine import hand_size, locked_registers
from referee.games import fills, own, signup
from referee.reports.fills import late_text

from .conftest import T0, new_game

SETTINGS = Settings(referee_address="referee@example.test", gm_address="gm@example.test", transport="maildir")


def damage(store, code: str, robot: str, points: int) -> None:
    """Give ``robot`` ``points`` damage before it plays: a hand that size, its fused registers holding
    cards from the undealt pile (as the deal would have left them)."""
    with store.write() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        undealt = list(turn.undealt)
        hands = {name: list(cards) for name, cards in turn.hands.items()}
        kept = hand_size(points)
        undealt += hands[robot][kept:]
        hands[robot] = hands[robot][:kept]
        fused = {str(reg): undealt.pop(0) for reg in locked_registers(points)}
        turn.hands, turn.undealt = hands, undealt
        turn.locked = {**turn.locked, robot: fused}
        turn.state_before = [{**r, "damage": points, "locked": fused} if r["name"] == robot else r
                             for r in turn.state_before]


def auto_orders(store, code: str, number: int = 1) -> dict[str, object]:
    with store.read() as s:
        turn = next(t for t in g.get_game(s, code).turns if t.number == number)
        return {o.player.robot: o for o in g.active_orders(s, turn).values() if o.source == "auto"}


def test_a_late_robot_with_six_damage_is_powered_down_by_the_autopilot(store):
    """Nobody sends orders. Twonky has 6 damage, Hammer none: the autopilot plays both; Twonky's filled
    orders announce a power down for the next turn, Hammer's do not."""
    code = new_game(store, ("Twonky", "Hammer"))
    damage(store, code, "Twonky", 6)
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.resolve_turn(s, game, fill=fills.fill_for(game), actor="test", now=T0)
        assert turn.power_down == ["Twonky"]
    auto = auto_orders(store, code)
    assert auto["Twonky"].power_down is True and not auto["Hammer"].power_down
    with store.read() as s:
        game = g.get_game(s, code)
        turn = game.turns[0]
        after = {r["name"]: r for r in turn.state_after}
        late = late_text(game, turn, ["Twonky", "Hammer"])
    assert after["Twonky"]["powered_down"] is True
    assert late is not None and late.endswith("The autopilot powers Twonky down next turn, to repair.")


def test_the_plan_made_before_the_write_lock_carries_the_power_down(store):
    code = new_game(store, ("Twonky", "Hammer"))
    damage(store, code, "Twonky", 7)
    with store.read() as s:
        planned = fills.plan_missing(s, g.get_game(s, code))
    assert planned["Twonky"][2] is True and planned["Hammer"][2] is False
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.resolve_turn(s, game, fill=fills.fill_for(game, planned), actor="test", now=T0)
        assert turn.power_down == ["Twonky"]
    assert g.cards_of(auto_orders(store, code)["Twonky"].program) == planned["Twonky"][1]


def test_a_resigned_player_played_by_the_autopilot_powers_down_by_its_plan_not_by_the_policy(store):
    """Game policy ``power_down``, ``ON RESIGN AUTOPILOT``: Twonky's player resigned. At 0 damage the
    autopilot races on (issue 31); at 6 it powers down, by its own plan."""
    code = new_game(store, ("Twonky", "Hammer"), missing_orders="power_down")
    with store.write() as s:
        game = g.get_game(s, code)
        signup.community_of(s, game).on_resign = "autopilot"
        own.resign(s, g.get_player(s, game, "Twonky"), now=T0)
    damage(store, code, "Twonky", 6)
    with store.write() as s:
        turn, _ = g.resolve_with_mails(s, SETTINGS, code, actor="test", now=T0 + timedelta(days=6))
        assert sorted(turn.power_down) == ["Hammer", "Twonky"]
    auto = auto_orders(store, code)
    assert None not in auto["Twonky"].program[:3] and auto["Twonky"].power_down is True  # it raced this turn
