"""What is new since a player's last mail is told in one short block of the next turn mail: the GM moved the
deadline, paused and resumed the game while the turn was open. The next mail does not repeat it."""

from __future__ import annotations

from datetime import timedelta

from referee.gm import run_block
from referee.gm.language import GmBlock, parse_lines

from .helpers import SETTINGS, T0, address, html_of, new_game, outbox, parse, play_turn, text_of


def gm(store, code: str, *lines: str, now) -> None:
    commands, errors = parse_lines(list(enumerate(lines, start=1)))
    assert not errors, errors
    ctx = run_block(store, SETTINGS, GmBlock(game=code, commands=commands, found=True),
                    actor="gm:gm@example.test", now=now, reply_to="gm@example.test")
    assert ctx.failures == 0, ctx.lines


def _block(text: str) -> list[str]:
    if "New since your last mail:" not in text:
        return []
    block = text.split("New since your last mail:\n")[1].split("\n\n")[0]
    return [line for line in block.replace("\n  ", " ").split("\n") if line]


def test_the_gms_changes_while_a_turn_was_open_are_told_once_in_the_next_turn_mail(store):
    code = new_game(store)
    gm(store, code, "SET DEADLINE 2026-03-05 18:00", now=T0 + timedelta(minutes=10))
    gm(store, code, "PAUSE", now=T0 + timedelta(minutes=20))
    gm(store, code, "RESUME", now=T0 + timedelta(minutes=30))
    rows = outbox(store, play_turn(store, code, now=T0 + timedelta(hours=1)))
    mail = parse(next(r for r in rows if r.recipients == [address("alice")]).raw)
    news = _block(text_of(mail))
    assert len(news) == 3
    assert news[0].startswith("- the deadline of turn 1 is now Thu 5 Mar 2026, 18:00 UTC")
    assert news[1] == "- the game is paused"
    assert news[2].startswith("- the game is resumed; the deadline of turn 1 is")
    html = html_of(mail)
    assert "New since your last mail" in html and "the game is paused" in html
    # the story comes first, then how to answer, then the news (one short line each)
    text = text_of(mail)
    assert text.index("Twonky, turn 1") < text.index("HOW TO ANSWER") < text.index("New since")
    later = outbox(store, play_turn(store, code, now=T0 + timedelta(hours=2)))
    assert _block(text_of(parse(next(r for r in later if r.recipients == [address("alice")]).raw))) == []


def test_a_turn_rolled_back_and_played_again_does_not_tell_its_old_news_again(store):
    code = new_game(store)
    gm(store, code, "SET DEADLINE 2026-03-05 18:00", now=T0 + timedelta(minutes=10))
    first = outbox(store, play_turn(store, code, now=T0 + timedelta(hours=1)))
    assert len(_block(text_of(parse(next(r for r in first if r.recipients == [address("alice")]).raw)))) == 1
    gm(store, code, "ROLLBACK 1", now=T0 + timedelta(hours=2))
    again = outbox(store, play_turn(store, code, now=T0 + timedelta(hours=3)))
    news = _block(text_of(parse(next(r for r in again if r.recipients == [address("alice")]).raw)))
    # told once per seat: the deadline was in the first report of turn 1; the reopening is new
    assert news == ["- turn 1 was reopened by the game master; what came after it is withdrawn"]
