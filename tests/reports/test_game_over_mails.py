"""Game over for everyone: a player whose robot is out of lives keeps getting the turn mails, told in one line
at the top that they are out; every player gets the final standings once, even when the last turn is
corrected after its mails were queued."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from referee import games as g
from referee.boards import load_board
from referee.reports import enqueue_turn_mails

from .helpers import COURSE, SETTINGS, T0, address, new_game, outbox, parse, play_turn, text_of

NOW = T0 + timedelta(hours=1)


def _zoom_drives_off_the_board_on_its_last_life(store, code: str) -> None:
    """Zoom, with one robot left, stands on the board's first row facing off it, a move card in register 1."""
    board = load_board(COURSE)
    with store.write() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        hand = g.get_turn(s, game, 1).hands["Zoom"]
        move = next(c for c in hand if c.split()[0] in ("FWD1", "FWD2", "FWD3", "BACK", "RVS1"))
        backwards = move.split()[0] in ("BACK", "RVS1")
        square = next((1, col) for col in range(1, board.width + 1)
                      if (1, col) not in {r.pos for r in robots} and not any(
                          (1, col, d) in board.blocked for d in range(4)))
        facing = 0 if backwards else 2  # off the first row: south (a reverse card: facing north)
        robots[2] = replace(robots[2], pos=square, facing=facing, lives=1, virtual=False, first_turn=False)
        turn = g.replace_open_state(s, game, robots, actor="test", now=T0)
        rest = [c for c in turn.hands["Zoom"] if c != move][:4]
        g.submit_program(s, game, "Zoom", [move, *rest], actor="test", now=T0)


def test_a_player_whose_robot_is_out_keeps_getting_the_turn_mails_told_in_one_line_they_are_out(store):
    code = new_game(store)
    _zoom_drives_off_the_board_on_its_last_life(store, code)
    first = outbox(store, play_turn(store, code, now=NOW))
    with store.read() as s:
        zoom = next(p for p in g.get_game(s, code).players if p.robot == "Zoom")
        assert zoom.status == "out"
    mail = next(row for row in first if row.recipients == [address("carol")])
    text = text_of(parse(mail.raw))
    assert text.startswith("Zoom, turn 1: drove off the edge")
    assert "Zoom is out of the game: no robots left." in text.split("\n\n")[0]
    later = outbox(store, play_turn(store, code, now=NOW + timedelta(hours=1)))
    mail = next(row for row in later if row.recipients == [address("carol")])
    text = text_of(parse(mail.raw))
    first_block = text.split("\n\n")[0]
    assert first_block == ("Zoom is out of the game: no robots left. You get the turn mails until the game\n"
                           "ends, then the final standings.")
    assert mail.kind == "turn_report" and "[board start of turn" in text and "Your hand" not in text


def test_the_final_standings_go_once_even_when_the_last_turn_is_corrected(store):
    code = new_game(store)
    board = load_board(COURSE)
    with store.write() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        robots[1] = replace(robots[1], pos=board.flags[board.flag_count], flags=board.flag_count - 1,
                            virtual=False, first_turn=False)
        turn = g.replace_open_state(s, game, robots, actor="test", now=T0)
        turning = next(c for c in turn.hands["Hammer"] if c.split()[0] in ("LF90", "RT90", "UTRN"))
        g.submit_program(s, game, "Hammer", [turning, *[c for c in turn.hands["Hammer"] if c != turning][:4]],
                         actor="test", now=T0)
    play_turn(store, code, now=NOW)
    assert len(outbox(store, kind="game_over")) == 4  # three players and the GM
    with store.write() as s:
        game = g.get_game(s, code)
        game.finished_at = NOW + timedelta(hours=2)  # resolved again later: the final mail reads differently
        enqueue_turn_mails(s, SETTINGS, game, 1, now=NOW + timedelta(hours=2), correction=True)
    final = outbox(store, kind="game_over")
    assert len(final) == 4
    assert sorted(r.recipients[0] for r in final) == sorted(
        [address(u) for u in ("alice", "bob", "carol")] + ["gm@example.test"])
