"""Games, players, turns and orders through the store's service functions, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from referee import games as g
from referee.boards import load_board
from referee.engine import RULES_VERSION, Robot, deal_turn, parse_card
from referee.engine.event_codec import decode_events
from referee.engine.snapshot import robot_from_dict
from referee.store import (
    AlreadyResolved,
    Duplicate,
    GameStateError,
    InvalidValue,
    MissingOrders,
    NotFound,
    ProgramError,
    StaleOrders,
    Store,
    StoreError,
)
from referee.store.models import AuditEntry, Order, Turn

from .conftest import COURSE, T0, first_cards, new_game


def submit_all(store: Store, code: str, now=T0) -> dict[str, list[str]]:
    """Every robot that owes a program plays the first cards of its hand."""
    programs = {}
    with store.read() as s:
        owing = [p.robot for p in g.waiting_for(s, g.get_game(s, code))]
    for robot in owing:
        programs[robot] = first_cards(store, code, robot)
        with store.write() as s:
            g.submit_program(s, code, robot, programs[robot], now=now)
    return programs


# -- creating and starting -----------------------------------------------------------------------------
def test_a_new_game_gets_the_next_code_and_the_house_rules_with_their_defaults(store):
    with store.write() as s:
        first = g.create_game(s, course=COURSE, actor="test")
        second = g.create_game(s, course=COURSE, rules={"edge": "fence"}, actor="test")
    assert (first.code, second.code) == ("RR-1", "RR-2")
    assert first.status == "forming" and first.turn_number == 0
    assert second.rules == {"edge": "fence", "lives": 3, "start": "virtual", "teleport_through_walls": False}
    assert first.seed != second.seed
    assert first.created_at.tzinfo is not None


def test_a_bad_course_name_is_refused_with_the_name(store):
    with store.write() as s, pytest.raises(InvalidValue, match="no board or course named 'nowhere'"):
        g.create_game(s, course="nowhere", actor="test")


def test_a_bad_house_rule_and_a_taken_code_are_refused(store):
    with store.write() as s:
        with pytest.raises(InvalidValue, match="unknown house rule 'edges'"):
            g.create_game(s, course=COURSE, rules={"edges": "fence"}, actor="test")
        g.create_game(s, course=COURSE, code="rr-7", actor="test")
        with pytest.raises(Duplicate, match="RR-7 exists already"):
            g.create_game(s, course=COURSE, code="RR-7", actor="test")


def test_robot_names_and_addresses_are_unique_in_a_game_whatever_their_case(store):
    code = new_game(store, ("Twonky",), start=False)
    with store.write() as s:
        with pytest.raises(Duplicate, match="already has a robot named Twonky"):
            g.add_player(s, code, email="other@example.test", robot="TWONKY")
        with pytest.raises(Duplicate, match=r"twonky@example\.test already plays Twonky"):
            g.add_player(s, code, email="Twonky <TWONKY@Example.Test>", robot="Hammer")
        with pytest.raises(InvalidValue, match="bad e-mail address"):
            g.add_player(s, code, email="not an address", robot="Hammer")
        with pytest.raises(InvalidValue, match="bad robot name"):
            g.add_player(s, code, email="h@example.test", robot="turn")


def test_players_cannot_join_a_running_game_and_a_game_starts_once(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        with pytest.raises(GameStateError, match="players join only while it is forming"):
            g.add_player(s, code, email="late@example.test", robot="Zoom")
        with pytest.raises(GameStateError, match="already running"):
            g.start_game(s, code)


def test_a_virtual_start_puts_every_robot_on_start_one_as_a_virtual_robot(store):
    code = new_game(store, ("Twonky", "Hammer", "Zoom"))
    start1 = load_board(COURSE).starts[1]
    with store.read() as s:
        turn = g.get_turn(s, g.get_game(s, code), 1)
        robots = [robot_from_dict(d) for d in turn.state_before]
    assert [r.name for r in robots] == ["Twonky", "Hammer", "Zoom"]
    for r in robots:
        assert (r.pos, r.archive, r.virtual, r.first_turn, r.lives) == (start1, start1, True, True, 3)


def test_a_numbered_start_puts_robot_n_really_on_start_square_n(store):
    code = new_game(store, ("Twonky", "Hammer", "Zoom"), rules={"start": "numbered", "lives": 2})
    starts = load_board(COURSE).starts
    with store.read() as s:
        robots = g.robots_of(g.get_turn(s, g.get_game(s, code), 1))
    for seat, r in enumerate(robots, start=1):
        assert (r.pos, r.virtual, r.lives) == (starts[seat], False, 2)


def test_starting_deals_nine_distinct_cards_to_each_robot_as_the_engine_deals_them(store):
    code = new_game(store, ("Twonky", "Hammer", "Zoom"))
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.get_turn(s, game, 1)
        expected = deal_turn(g.robots_of(turn), f"{game.seed}:1")
        assert turn.seed == f"{game.seed}:1"
        assert turn.hands == {name: [str(c) for c in hand] for name, hand in expected.hands.items()}
        dealt = [c for hand in turn.hands.values() for c in hand]
        assert len(dealt) == 27 == len(set(dealt))
        assert len(turn.undealt) == 84 - 27
        assert turn.deadline == T0 + timedelta(days=5)


def test_a_board_with_too_few_start_squares_for_a_numbered_start_refuses_the_fifth_player(store):
    # a bare board says nothing of how many may play; its four start squares do
    code = new_game(store, ("A1", "B2", "C3", "D4"), start=False, course="yard", rules={"start": "numbered"})
    with store.write() as s, pytest.raises(GameStateError, match="yard has only 4 start squares"):
        g.add_player(s, code, email="e@example.test", robot="E5")


def test_an_unknown_game_is_named_in_the_error(store):
    with store.read() as s, pytest.raises(NotFound, match="no game 'RR-99'"):
        g.get_game(s, "RR-99")


# -- programs -----------------------------------------------------------------------------------------
def test_a_program_from_the_hand_is_accepted_and_the_last_one_counts(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.read() as s:
        hand = g.get_turn(s, g.get_game(s, code), 1).hands["Twonky"]
    with store.write() as s:
        g.submit_program(s, code, "twonky", hand[:5], now=T0)
    with store.write() as s:
        g.submit_program(s, code, "Twonky", hand[4:9], now=T0 + timedelta(minutes=1), power_down=True)
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        orders = s.scalars(select(Order).where(Order.turn_id == turn.id).order_by(Order.id)).all()
        assert [o.active for o in orders] == [False, True]
        assert orders[1].program == hand[4:9] and orders[1].power_down is True
        assert orders[0].superseded_at == T0 + timedelta(minutes=1)
        assert [p.robot for p in g.waiting_for(s, game)] == ["Hammer"]


def test_postal_spelling_and_hand_positions_name_the_same_cards(store):
    from referee.store.programs import parse_cards_text

    code = new_game(store, ("Twonky",))
    with store.read() as s:
        hand = [parse_card(c) for c in g.get_turn(s, g.get_game(s, code), 1).hands["Twonky"]]
    typed = f"{hand[0].postal}, 2, {hand[2]}, 4, {hand[4].postal.lower()}"
    with store.write() as s:
        order = g.submit_program(s, code, "Twonky", parse_cards_text(typed, hand))
    assert order.program == [str(c) for c in hand[:5]]


def test_a_program_with_foreign_duplicate_or_too_few_cards_is_refused_naming_each_register(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.read() as s:
        turn = g.get_turn(s, g.get_game(s, code), 1)
        mine, theirs = turn.hands["Twonky"], turn.hands["Hammer"]
    with store.write() as s:
        with pytest.raises(ProgramError) as err:
            g.submit_program(s, code, "Twonky", [mine[0], theirs[0], mine[0], "FWD9 999", mine[1]])
        assert err.value.problems == [
            f"register 2: {theirs[0]} is not in Twonky's hand",
            f"register 3: {mine[0]} is already in register 1",
            "register 4: unknown card type 'FWD9' (expected one of UTRN, LF90, RT90, RVS1, FWD1, FWD2, FWD3)",
        ]
        with pytest.raises(ProgramError, match="a program has 5 registers: give 5 cards; got 4"):
            g.submit_program(s, code, "Twonky", mine[:4])


def test_fused_registers_keep_their_cards_and_may_be_left_out(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        robots = g.robots_of(turn)
        robots[0].damage = 6  # registers 4 and 5 fused, three cards in hand
        g.replace_open_state(s, code, robots, actor="gm:test", reason="test setup")
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        hand, fused = turn.hands["Twonky"], turn.locked["Twonky"]
    assert len(hand) == 3 and sorted(fused) == ["4", "5"]
    with store.write() as s:
        with pytest.raises(ProgramError, match=f"register 5 is fused with {fused['5']}; it cannot hold {hand[2]}"):
            g.submit_program(s, code, "Twonky", [hand[0], hand[1], fused["4"], fused["5"], hand[2]])
        with pytest.raises(ProgramError, match=r"fused: 4, 5; give 5 cards, or the 3 for the unlocked registers"):
            g.submit_program(s, code, "Twonky", hand[:2])
        short = g.submit_program(s, code, "Twonky", hand[:3])
        assert short.program == [*hand[:3], fused["4"], fused["5"]]
        full = g.submit_program(s, code, "Twonky", [hand[2], hand[1], hand[0], None, fused["5"]])
        assert full.program == [hand[2], hand[1], hand[0], fused["4"], fused["5"]]


def test_orders_for_another_turn_are_stale(store):
    code = new_game(store, ("Twonky",))
    cards = first_cards(store, code, "Twonky")
    with store.write() as s, pytest.raises(StaleOrders, match="orders for turn 2 of RR-1 are stale: turn 1 is open"):
        g.submit_program(s, code, "Twonky", cards, turn_number=2)


# -- resolving ----------------------------------------------------------------------------------------
def test_a_turn_waits_for_every_program_then_stores_what_went_in_and_what_came_out(store):
    code = new_game(store, ("Twonky", "Hammer", "Zoom"))
    with store.write() as s, pytest.raises(MissingOrders) as err:
        g.resolve_turn(s, code)
    assert err.value.robots == ["Twonky", "Hammer", "Zoom"]
    programs = submit_all(store, code)
    with store.write() as s:
        turn = g.resolve_turn(s, code, expect_turn=1, actor="test", now=T0 + timedelta(hours=1))
    with store.read() as s:
        game = g.get_game(s, code)
        t1, t2 = g.get_turn(s, game, 1), g.get_turn(s, game, 2)
        assert game.turn_number == 2 and game.status == "running"
        assert t1.status == "resolved" and t1.resolved_by == "test"
        assert t1.programs == programs
        assert t1.events and t1.state_after and len(t1.frames) == 7
        assert t2.status == "open" and t2.state_before == t1.state_after
        assert t2.seed == f"{game.seed}:2"
        assert t2.opened_at == T0 + timedelta(hours=1)
        assert turn.number == 1


def test_a_stored_turn_re_run_from_its_snapshot_gives_the_same_result(store):
    code = new_game(store, ("Twonky", "Hammer", "Zoom"))
    for _ in range(3):
        submit_all(store, code)
        with store.write() as s:
            g.resolve_turn(s, code)
    with store.read() as s:
        game = g.get_game(s, code)
        for number in (1, 2, 3):
            result, same = g.replay_turn(s, game, number)
            assert same, f"turn {number} re-ran differently"
            assert decode_events(g.get_turn(s, game, number).events) == result.events


def test_resolving_a_turn_already_resolved_says_so(store):
    code = new_game(store, ("Twonky",))
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code, expect_turn=1)
    with store.write() as s, pytest.raises(AlreadyResolved, match="turn 1 of RR-1 is already resolved"):
        g.resolve_turn(s, code, expect_turn=1)
    with store.read() as s:
        assert s.scalar(select(func.count()).select_from(Turn)) == 2


def test_missing_programs_can_be_filled_at_random_from_the_hand_and_count_as_missed(store):
    code = new_game(store, ("Twonky", "Hammer"))
    cards = first_cards(store, code, "Twonky")
    with store.write() as s:
        g.submit_program(s, code, "Twonky", cards)
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.FILLS["random"], actor="tick")
        hand = turn.hands["Hammer"]
    with store.read() as s:
        game = g.get_game(s, code)
        auto = s.scalars(select(Order).where(Order.source == "auto")).one()
        assert auto.player.robot == "Hammer" and set(auto.program) <= set(hand) and len(set(auto.program)) == 5
        assert g.get_turn(s, game, 1).programs["Hammer"] == auto.program
        assert {p.robot: p.missed_turns for p in game.players} == {"Twonky": 0, "Hammer": 1}


def test_a_winner_ends_the_game_and_no_more_orders_are_taken(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        robots = g.robots_of(g.open_turn(s, g.get_game(s, code)))
        course = load_board(COURSE)
        # Twonky has touched flag 1 and stands on flag 2 (the last), real
        robots[0] = Robot("Twonky", course.flags[2], 0, flags=1)
        g.replace_open_state(s, code, robots)
    with store.read() as s:
        hand = [parse_card(c) for c in g.open_turn(s, g.get_game(s, code)).hands["Twonky"]]
    # it turns on the spot in register 1, so it is still on the flag when register phase 1 ends
    turns = [c for c in hand if c.type.move == 0]
    program = [turns[0], *[c for c in hand if c != turns[0]][:4]]
    with store.write() as s:
        g.submit_program(s, code, "Twonky", program)
        g.submit_program(s, code, "Hammer", first_cards(store, code, "Hammer"))
    with store.write() as s:
        turn = g.resolve_turn(s, code, now=T0 + timedelta(days=1))
    with store.read() as s:
        game = g.get_game(s, code)
        assert (game.status, game.winner, turn.winner, game.turn_number) == ("finished", "Twonky", "Twonky", 1)
        assert game.finished_at == T0 + timedelta(days=1)
        assert g.open_turn(s, game) is None
    with store.write() as s, pytest.raises(StaleOrders, match="RR-1 is finished: no orders are taken"):
        g.submit_program(s, code, "Hammer", program)
    # a process that raced for the last turn and lost hears what a late one hears on any other turn
    with store.write() as s, pytest.raises(AlreadyResolved, match="turn 1 of RR-1 is already resolved"):
        g.resolve_turn(s, code, expect_turn=1, fill=g.FILLS["random"])
    with store.write() as s, pytest.raises(StaleOrders, match="orders for turn 1 of RR-1 are stale: RR-1 is finished"):
        g.submit_program(s, code, "Hammer", program, turn_number=1)


def test_the_last_turn_of_a_game_may_be_filled_in_and_its_audit_names_who_was_filled(store):
    """Twonky wins in register 1; Hammer's player sent nothing, so the referee filled Hammer's program
    on the very turn that ends the game (no next turn is dealt after it)."""
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        robots = g.robots_of(g.open_turn(s, g.get_game(s, code)))
        robots[0] = Robot("Twonky", load_board(COURSE).flags[2], 0, flags=1)
        g.replace_open_state(s, code, robots)
    with store.read() as s:
        hand = [parse_card(c) for c in g.open_turn(s, g.get_game(s, code)).hands["Twonky"]]
    turns = [c for c in hand if c.type.move == 0]
    with store.write() as s:
        g.submit_program(s, code, "Twonky", [turns[0], *[c for c in hand if c != turns[0]][:4]])
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.FILLS["random"], actor="test", now=T0 + timedelta(days=1))
        assert turn.game.status == "finished"
    with store.read() as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "turn.resolve")).one()
        assert entry.details == {"winner": "Twonky", "filled": ["Hammer"]}


# -- corrections ------------------------------------------------------------------------------------------
def test_re_running_the_last_turn_unchanged_changes_nothing(store):
    code = new_game(store, ("Twonky", "Hammer"))
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code)
    with store.write() as s:
        rerun = g.rerun_turn(s, code, 1, actor="gm:test")
    assert not rerun.changed and not rerun.redealt
    with store.read() as s:
        assert s.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "turn.rerun")) == 0


def test_re_running_with_a_corrected_program_keeps_the_old_result_in_the_audit_log(store):
    code = new_game(store, ("Twonky", "Hammer"))
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code)
    with store.read() as s:
        game = g.get_game(s, code)
        t1 = g.get_turn(s, game, 1)
        old_events, hand = t1.events, t1.hands["Twonky"]
        old_next_hands = g.get_turn(s, game, 2).hands
    corrected = list(reversed(hand[-5:]))
    with store.write() as s:
        rerun = g.rerun_turn(s, code, 1, programs={"twonky": corrected}, actor="gm:test")
    assert rerun.changed
    with store.read() as s:
        game = g.get_game(s, code)
        t1 = g.get_turn(s, game, 1)
        assert t1.programs["Twonky"] == corrected
        _, same = g.replay_turn(s, game, 1)
        assert same
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "turn.rerun")).one()
        assert entry.actor == "gm:test" and entry.details["old"]["events"] == old_events
        if rerun.redealt:
            assert g.get_turn(s, game, 2).state_before == t1.state_after
        else:
            assert g.get_turn(s, game, 2).hands == old_next_hands


def test_only_the_last_resolved_turn_can_be_re_run(store):
    code = new_game(store, ("Twonky",))
    for _ in range(2):
        submit_all(store, code)
        with store.write() as s:
            g.resolve_turn(s, code)
    with store.write() as s, pytest.raises(GameStateError, match=r"only the last resolved turn \(2\)"):
        g.rerun_turn(s, code, 1)


def test_rolling_back_reopens_a_turn_with_its_orders_and_removes_the_later_ones(store):
    code = new_game(store, ("Twonky", "Hammer"))
    first = submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code)
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code)
    with store.write() as s:
        g.rollback_to(s, code, 1, actor="gm:test")
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        assert (game.turn_number, turn.number, turn.events, turn.programs) == (1, 1, None, None)
        assert s.scalar(select(func.count()).select_from(Turn).where(Turn.game_id == game.id)) == 1
        assert {o.player.robot: o.program for o in g.active_orders(s, turn).values()} == first
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "turn.rollback")).one()
        assert [t["number"] for t in entry.details["removed"]] == [2, 3]
    with store.write() as s:
        again = g.resolve_turn(s, code)
    with store.read() as s:
        assert again.programs == first


def test_pausing_stops_the_clock_and_resuming_moves_the_deadline_on(store):
    code = new_game(store, ("Twonky",), deadline_seconds=2 * 86400)
    with store.write() as s:
        g.pause_game(s, code, now=T0 + timedelta(hours=10))
    with store.write() as s, pytest.raises(GameStateError, match="RR-1 is paused: no turn to resolve"):
        g.resolve_turn(s, code, fill=g.FILLS["random"])
    with store.write() as s:
        g.resume_game(s, code, now=T0 + timedelta(hours=34))
    with store.read() as s:
        game = g.get_game(s, code)
        assert game.status == "running" and game.paused_at is None
        assert g.open_turn(s, game).deadline == T0 + timedelta(days=2, hours=24)


def test_the_game_view_shows_who_still_owes_orders(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        g.submit_program(s, code, "Twonky", first_cards(store, code, "Twonky"))
    with store.read() as s:
        view = g.game_view(s, g.get_game(s, code))
    assert [(p["robot"], p["orders"]) for p in view["players"]] == [("Twonky", "in"), ("Hammer", "owed")]
    assert all(len(p["hand"]) == 9 and "secret" not in p for p in view["players"])


# -- players changing -------------------------------------------------------------------------------------
def test_standing_orders_hold_until_changed_and_are_recorded_with_each_turn(store):
    code = new_game(store, ("Twonky",))
    with store.write() as s:
        g.set_standing_orders(s, code, "Twonky", {"sacrifice_hp": 4, "repair_or_option": "repair"})
        g.set_standing_orders(s, code, "Twonky", {"repair_or_option": None})
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.FILLS["random"])
    assert turn.standing == {"Twonky": {"sacrifice_hp": 4}}


def test_a_replaced_player_gets_a_new_secret_and_the_old_address_is_in_the_audit_log(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.read() as s:
        old_secret = g.get_player(s, g.get_game(s, code), "Twonky").secret
    with store.write() as s:
        with pytest.raises(Duplicate, match=r"hammer@example\.test already plays Hammer"):
            g.replace_player(s, code, "Twonky", "hammer@example.test")
        player = g.replace_player(s, code, "Twonky", "New <new@example.test>", actor="gm:test")
    assert player.email == "new@example.test" and player.secret != old_secret
    with store.read() as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "player.replace")).one()
        assert entry.details["old"]["email"] == "twonky@example.test"


def test_an_ejected_robot_stands_idle_this_turn_and_is_gone_the_next(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        g.submit_program(s, code, "Hammer", first_cards(store, code, "Hammer"))
        g.eject_player(s, code, "Hammer", actor="gm:test", reason="left the club")
    with store.read() as s:
        assert [p.robot for p in g.waiting_for(s, g.get_game(s, code))] == ["Twonky"]
    with store.write() as s:
        g.submit_program(s, code, "Twonky", first_cards(store, code, "Twonky"))
    with store.write() as s:
        turn = g.resolve_turn(s, code)
    assert set(turn.programs) == {"Twonky"}
    with store.read() as s:
        game = g.get_game(s, code)
        assert [d["name"] for d in g.open_turn(s, game).state_before] == ["Twonky"]


def test_a_course_takes_as_many_players_as_it_is_made_for(store):
    code = new_game(store, ("A1", "B2", "C3", "D4"), start=False)
    with store.write() as s, pytest.raises(GameStateError, match="RR-1 is full"):
        g.add_player(s, code, email="e@example.test", robot="E5")


def test_changing_the_store_in_a_read_session_is_refused(store):
    code = new_game(store, ("Twonky",), start=False)
    with store.read() as s, pytest.raises(StoreError, match=r"call it in a Store\.write\(\) session"):
        g.start_game(s, code)


def test_a_turn_records_its_rules_version_and_a_re_run_under_other_rules_says_so(store):
    code = new_game(store, ("Twonky", "Hammer"))
    submit_all(store, code)
    with store.write() as s:
        turn = g.resolve_turn(s, code)
        assert turn.rules_version == RULES_VERSION
        assert g.rules_version_note(turn) is None
        turn.rules_version = None  # a turn resolved before rules had a version: version 1
        assert (g.rules_version_note(turn) is None) == (RULES_VERSION == 1)
        turn.rules_version = RULES_VERSION + 1
        note = g.rules_version_note(turn)
        assert note is not None
        assert f"rules version {RULES_VERSION + 1}" in note and f"version {RULES_VERSION}," in note
