"""How the referee answers two mails a player may well send (issue 42, item 10), through the real intake: card
numbers run together, and orders for a game that is over."""

from __future__ import annotations

from referee import games as g
from referee.games.tokens import reply_address

from .helpers import address, incoming, mail, new_game, orders, outbox, text_of


def reply_to_turn_mail(settings, store, code: str, robot: str) -> str:
    with store.read() as s:
        game = g.get_game(s, code)
        return reply_address(settings, game, g.get_player(s, game, robot))


async def test_card_numbers_run_together_are_answered_with_what_was_read_and_never_taken(store, take, settings):
    code = new_game(store)
    await take(mail(address("alice"), "51923\n", to=reply_to_turn_mail(settings, store, code, "Twonky")))
    assert incoming(store)[-1].outcome == "rejected"
    answer = " ".join(text_of(outbox(store)[-1].raw).split())
    assert 'line 1: 51923 I read "51923" as one number, not as cards, so nothing was taken: did you mean 5, 1, 9, 2, ' \
           '3?' in answer
    assert "I found no orders" not in answer
    assert not [o for o in orders(store, code, "Twonky") if o.active]


async def test_orders_after_the_game_ended_are_refused_without_a_form_to_send_back(store, take, settings):
    code = new_game(store)
    with store.write() as s:
        g.end_game(s, code, actor="test")
    await take(mail(address("alice"), "1, 2, 3, 4, 5\n", to=reply_to_turn_mail(settings, store, code, "Twonky")))
    answer = text_of(outbox(store)[-1].raw)
    assert f"game {code} is finished: no orders are taken" in answer
    assert "Nothing in this mail was taken: the game takes no more orders." in answer
    assert "send it back" not in answer and "BEGIN" not in answer
