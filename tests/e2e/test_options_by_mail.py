"""A two-player game with option cards, from NEWGAME to a winner through mail alone.

The GM hands out options with SET; the players mail option orders with their programs (Twonky
recompiles and gets a second hand by mail, Hammer keeps standing option orders); the turn mails show
the options and the orders on file; a card taken away by the GM can no longer be ordered.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from referee import games as g
from referee.boards import load_board
from referee.engine import Card, resolve_turn
from referee.engine.decisions import Answers
from referee.engine.event_codec import contract_events
from referee.engine.option_orders import BRAKES, GYROSCOPE, RECOMPILE, order_key
from referee.orders import OrderContext, parse_orders
from referee.store import Store
from tests.e2e.test_game_by_mail import T0, Mailer, at, gm_commands, text_of, tick_ok, turn_form

GAME = "E2E-OPT"
SECRET = "e2e-gm-secret"
PLAYERS = {"Twonky": "alice", "Hammer": "bob"}


def block(begin: str, program: list[Card], *extra: str) -> str:
    return "\n".join([begin, *(f"{i}: {c}" for i, c in enumerate(program, start=1)), *extra, "END"]) + "\n"


def pick(store: Store, robot: str, hand: list[Card], *, win: bool, seed: int, said: tuple[str, ...] = (),
         first_move: int | None = None) -> list[Card]:
    """A program that does (or does not) win for ``robot`` this turn, tried on the engine with the programs
    and option orders already on file, every player's standing orders, and the option orders ``said``
    (``first_move``: register 1 holds a card of that move, as the option orders said need)."""
    with store.read() as s:
        game = g.get_game(s, GAME)
        turn = g.open_turn(s, game)
        robots = g.robots_of(turn)
        others = {p.robot: g.cards_of(o.program) for o in g.active_orders(s, turn).values()
                  for p in game.players if p.id == o.player_id and p.robot != robot and o.program}
        standing = {p.robot: dict(p.standing_orders) for p in game.players if p.standing_orders}
        board, turn_seed, deck = load_board(game.course), turn.seed, turn.option_deck
        orders = {name: g.option_answers(g.turn_option_orders(turn, name, order))
                  for name, order in ((p.robot, g.active_orders(s, turn).get(p.id)) for p in game.players)}
    mine = parse_orders("\n".join(said), OrderContext(hand=hand, options=robots[[r.name for r in robots].index(robot)]
                                                       .options)).option_orders
    orders[robot] = {**orders.get(robot, {}), **g.option_answers(mine)}
    rng = random.Random(seed)
    for _ in range(3000):
        program = rng.sample(hand, 5)
        if first_move is not None and program[0].type.move != first_move:
            continue
        result = resolve_turn(board, [r.copy() for r in robots], {**others, robot: list(program)}, seed=turn_seed,
                              answers=Answers(orders=orders, standing=standing), option_deck=deck)
        me = next(r for r in result.robots if r.name == robot)
        if (result.winner == robot) == win and not me.destroyed:
            return program
    raise AssertionError(f"no program from {hand} with win={win}")


def test_a_game_with_options_is_played_by_mail(settings, store, dovecot, smtp_server):
    mail = Mailer(dovecot, smtp_server)
    now = T0

    def run(at_time: datetime) -> None:
        tick_ok(settings, store, at_time)

    def gm(*lines: str) -> str:
        return gm_commands(mail, settings, store, now, *lines, game=GAME)

    # -- the GM sets the game up and hands out options ------------------------------------------------------
    answer = gm(f"NEWGAME {GAME} COURSE duel RULE start=numbered DEADLINE 2d SETTLE 0 MISSING random SEED opts",
                *(f"ADD PLAYER {at(user)} {robot}" for robot, user in PLAYERS.items()), "START",
                "SET Twonky OPTIONS +Brakes +Recompile", 'SET Hammer OPTIONS +gyro +"Pressor Beam"')
    assert "NOT DONE" not in answer and "started" in answer, answer
    assert "options Brakes, Recompile" in answer and "options Gyroscopic Stabilizer, Pressor Beam" in answer
    with store.read() as s:
        robots = {r.name: r for r in g.robots_of(g.open_turn(s, g.get_game(s, GAME)))}
    assert robots["Twonky"].options == ["Brakes", "Recompile"]
    assert robots["Hammer"].options == ["Gyroscopic Stabilizer", "Pressor Beam"]
    forms = {robot: turn_form(mail.inbox(user)) for robot, user in PLAYERS.items()}

    # -- turn 1: Twonky recompiles, then programs the second hand with Brakes; Hammer keeps standing orders ---
    begin, first_hand, msg = forms["Twonky"]
    mail.send("alice", f"{begin}\nRECOMPILE\nEND\n", "Re: turn 1", in_reply_to=msg["Message-ID"])
    run(now + timedelta(minutes=5))
    begin, second_hand, msg = turn_form([m for m in mail.inbox("alice") if "Recompile" in str(m["Subject"])])
    assert len(second_hand) == len(first_hand) and not set(second_hand) & set(first_hand)
    begin_h, hand_h, msg_h = forms["Hammer"]
    mail.send("bob", block(begin_h, pick(store, "Hammer", hand_h, win=False, seed=1), "GYRO ON", "FIRE 1-5: PRESSOR"),
              "Re: turn 1", in_reply_to=msg_h["Message-ID"])
    run(now + timedelta(minutes=10))
    program = pick(store, "Twonky", second_hand, win=False, seed=2, said=("BRAKES 1",), first_move=1)
    mail.send("alice", block(begin, program, "BRAKES 1"), "Re: your second hand", in_reply_to=msg["Message-ID"])
    now += timedelta(minutes=15)
    run(now)
    alice = mail.inbox("alice")   # the echo, then the report of turn 1 with the form for turn 2
    (echo,) = [m for m in alice if "orders accepted" in str(m["Subject"])]
    assert "Option orders for this turn:\n  BRAKES 1\n  RECOMPILE" in text_of(echo)

    with store.read() as s:
        game = g.get_game(s, GAME)
        assert game.turn_number == 2
        turn1 = g.get_turn(s, game, 1)
        assert turn1.option_orders == {"Twonky": {BRAKES: {"1": True}, RECOMPILE: True}}
        answers = g.stored_inputs(turn1).answers()
        charged = [e for e in contract_events(turn1.events) if e["robot"] == "Twonky" and e.get("cause") == "recompile"]
    assert len(charged) == 1   # the engine charged the second hand: 1 damage
    assert answers.answer("Twonky", order_key(RECOMPILE)) == (True, "orders")
    assert answers.answer("Twonky", order_key(BRAKES, 1)) == (True, "orders")
    assert answers.answer("Hammer", order_key(GYROSCOPE)) == (True, "standing")

    # -- the turn mails show the options and the option orders on file -------------------------------------
    form_a = turn_form(alice)
    report_a = text_of(form_a[2])
    assert "options: Brakes, Recompile" in report_a
    assert "# Brakes: BRAKES 2 | BRAKES 2, 4" in report_a and "# Recompile: RECOMPILE" in report_a
    form_h = turn_form(mail.inbox("bob"))
    report_h = text_of(form_h[2])
    assert "GYRO ON" in report_h and "FIRE 1-5: PRESSOR BEAM" in report_h and "# Brakes:" not in report_h
    options_row = next(line for line in report_h.splitlines() if line.startswith("options"))
    assert "Brakes," in options_row and "Gyroscopic" in options_row   # everyone's options in the report

    # -- the GM takes Brakes away: Twonky can no longer order it --------------------------------------------
    answer = gm("SET Twonky OPTIONS -Brakes")
    assert "options Recompile" in answer and "NOT DONE" not in answer, answer
    begin, hand_a = form_a[0], form_a[1]   # dealt again from the same seed: the same cards
    mail.send("alice", block(begin, hand_a[:5], "BRAKES 2"), "Re: turn 2")
    run(now + timedelta(minutes=5))
    (refusal,) = [m for m in mail.inbox("alice") if "not accepted" in str(m["Subject"])]
    assert "does not hold Brakes" in text_of(refusal)

    # -- turn 2 on: Hammer plays on, Twonky goes for the flag (as soon as its hand can reach it) -------------
    forms = {"Twonky": form_a, "Hammer": form_h}
    for number in range(2, 9):
        mail.send("bob", block(forms["Hammer"][0], pick(store, "Hammer", forms["Hammer"][1], win=False, seed=number)),
                  f"Re: turn {number}")
        run(now + timedelta(minutes=5))
        try:
            program = pick(store, "Twonky", forms["Twonky"][1], win=True, seed=number)
        except AssertionError:   # this hand cannot reach the flag: wait for a better one
            program = pick(store, "Twonky", forms["Twonky"][1], win=False, seed=number)
        mail.send("alice", block(forms["Twonky"][0], program), f"Re: turn {number}")
        now += timedelta(minutes=20)
        run(now)
        with store.read() as s:
            game = g.get_game(s, GAME)
            if game.status == "finished":
                break
            assert game.turn_number == number + 1
        forms = {robot: turn_form(mail.inbox(user)) for robot, user in PLAYERS.items()}
    assert game.status == "finished" and game.winner == "Twonky"
    assert any("Twonky wins" in str(m["Subject"]) for m in mail.inbox("bob"))
