"""After a turn is resolved, its mails wait in the outbox: one per player with the report and their own next
hand, and a copy for the GM; held back when the game's results are reviewed first."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from PIL import Image

from referee import games as g
from referee.boards import load_board
from referee.engine import parse_card
from referee.orders import OrderContext, read_orders
from referee.render import build_report, report_text
from referee.render.turn import file_stem
from referee.reports import enqueue_start_mails, enqueue_turn_mails, report_players, stored_turn_result
from referee.reports.fills import filled_robots, late_text, mark_fills
from referee.store import GameStateError
from referee.store.outbox import release_held

from .helpers import PLAYERS, SETTINGS, T0, address, html_of, mime_tree, new_game, outbox, parse, play_turn, text_of

NOW = T0 + timedelta(hours=1)


def _turn_mails(store, code):
    with store.read() as s:
        game = g.get_game(s, code)
        return game, {p.robot: p for p in game.players}


def test_after_a_turn_each_player_and_the_gm_get_one_mail_waiting_in_the_outbox(store):
    code = new_game(store)
    ids = play_turn(store, code, now=NOW)
    rows = outbox(store, ids)
    assert [(m.kind, m.recipients) for m in rows] == \
        [("turn_report", [address(u)]) for u in PLAYERS.values()] + [("gm_copy", ["gm@example.test"])]
    for m in rows:
        msg = parse(m.raw)
        assert m.status == "pending" and m.turn_number == 1 and m.next_attempt_at == NOW
        assert msg["Message-ID"] == m.message_id
        assert msg["Auto-Submitted"] == "auto-generated"
        assert msg["X-Loop"] == SETTINGS.referee_address
        assert msg["X-Referee-Game"] == code
        assert msg["From"] == "RoboRally referee <referee@example.test>"
    first = parse(rows[0].raw)
    assert first["Message-ID"].startswith(f"<{code.lower()}.t1.turn-")
    assert first["Message-ID"].endswith("@example.test>")
    assert first["Subject"] == f"{code} turn 1 results, your cards for turn 2"


def test_a_players_mail_is_the_report_with_pictures_and_the_gif_inline(store):
    code = new_game(store)
    rows = outbox(store, play_turn(store, code, now=NOW))
    msg = parse(rows[0].raw)
    alternative = mime_tree(msg)
    assert alternative[0] == "multipart/alternative" and alternative[1][0] == "text/plain"
    related = alternative[1][1]
    assert related[0] == "multipart/related" and related[1][0] == "text/html"
    pictures = related[1][1:]
    assert pictures[-1] == "image/gif" and set(pictures[:-1]) == {"image/png"}
    cids = re.findall(r'src="cid:([^"]+)"', html_of(msg))
    assert len(cids) == len(pictures)
    for part in msg.walk():
        if part.get_content_maintype() == "image":
            Image.open(io.BytesIO(part.get_content())).load()


def test_a_players_mail_carries_their_next_hand_and_a_template_that_reads_back_as_their_orders(store):
    code = new_game(store)
    rows = outbox(store, play_turn(store, code, now=NOW))
    with store.read() as s:
        game = g.get_game(s, code)
        turn2 = g.get_turn(s, game, 2)
        players = {p.robot: p for p in game.players}
        hands = {name: [parse_card(c) for c in cards] for name, cards in turn2.hands.items()}
        locked = {name: {int(k): parse_card(v) for k, v in regs.items()} for name, regs in turn2.locked.items()}
    for row, robot in zip(rows, PLAYERS, strict=False):
        text = text_of(parse(row.raw))
        me = players[robot]
        hand = hands[robot]
        private = text.split("-" * 78)[0]
        assert f"Your hand ({len(hand)} cards" in private
        assert [line.split(None, 1)[1] for line in private.splitlines() if re.match(r"^\s+\d+  \S", line)] == \
            [str(c) for c in hand]
        assert f"BEGIN {code} {robot} turn 2 key {me.secret}" in text
        assert "Orders are due by Fri 6 Mar 2026, 13:00 UTC (in 5 days)" in text
        # the player fills the free registers with hand cards 1, 2, 3... and replies with the block
        block = text[text.index("BEGIN"):text.index("\nEND\n") + 5]
        free = [r for r in range(1, 6) if r not in locked.get(robot, {})]
        reply = block
        for n, reg in enumerate(free, start=1):
            reply = reply.replace(f"\n{reg}:\n", f"\n{reg}: {n}\n")
        _, result = read_orders(reply, OrderContext(hand=hand, locked=locked.get(robot, {})), game=code,
                                robot=robot, turn=2, key=me.secret, require_key=True)
        assert not result.errors, result.errors
        assert result.registers is not None
        chosen = dict(zip(free, hand, strict=False))
        assert [r.card for r in result.registers] == [locked.get(robot, {}).get(reg) or chosen[reg]
                                                      for reg in range(1, 6)]


def test_no_mail_shows_a_key_but_its_own_players_and_the_gm_copy_shows_no_hand(store):
    code = new_game(store)
    rows = outbox(store, play_turn(store, code, now=NOW))
    _, players = _turn_mails(store, code)
    secrets = {p.email: p.secret for p in players.values()}
    for row in rows:
        text = text_of(parse(row.raw)) + html_of(parse(row.raw))
        shown = {addr for addr, secret in secrets.items() if f"key {secret}" in text}
        if row.kind == "gm_copy":
            assert shown == set()
            assert "Your hand" not in text and "BEGIN" not in text
        else:
            assert shown == set(row.recipients)


def test_the_report_mailed_is_the_stored_turn_as_a_replay_of_the_engine_gives_it(store):
    code = new_game(store)
    rows = outbox(store, play_turn(store, code, now=NOW))
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.get_turn(s, game, 1)
        replayed, same = g.replay_turn(s, game, 1)
        board = load_board(game.course)
        columns = report_players(game, turn)
        stored = stored_turn_result(turn)
        fills = filled_robots(s, game, turn)
        late = late_text(game, turn, [p.robot for p in game.players if p.robot in fills])
    assert same
    assert stored.events == replayed.events and stored.played == replayed.played
    report = build_report(board, replayed, columns, code, 1)
    mark_fills(report, fills)  # every program was filled in (play_turn): each card is marked, the mail says so
    report.late = late
    assert sorted(fills) == sorted(PLAYERS) and all(mark == "autopilot" for mark in fills.values())
    stem = file_stem(code, 1)
    # every file the mail carries: the stage pictures, the key to them and the animation
    files = {key: f"{stem}-{key}.png" for key in report.images} | {"legend": f"{stem}-key.png",
                                                                   "animation": f"{stem}.gif"}
    expected = report_text(report, files)
    for row in rows:
        assert expected.strip() in text_of(parse(row.raw))


def test_queueing_the_same_turn_again_adds_nothing(store):
    code = new_game(store)
    ids = play_turn(store, code, now=NOW)
    with store.write() as s:
        game = g.get_game(s, code)
        again = enqueue_turn_mails(s, SETTINGS, game, 1, now=NOW + timedelta(minutes=5))
        assert [m.id for m in again] == ids
    assert len(outbox(store, kind="turn_report")) == len(PLAYERS)


def test_under_review_the_players_mails_wait_for_the_gm_who_gets_the_copy_at_once(store):
    code = new_game(store, hold_for_review=True)
    rows = outbox(store, play_turn(store, code, now=NOW))
    assert [m.status for m in rows] == ["held"] * len(PLAYERS) + ["pending"]
    assert rows[-1].subject == f"[GM] {code} turn 1 results (held for review: players get it when you publish " \
                               "the turn)"
    with store.write() as s:
        game = g.get_game(s, code)
        g.publish_turn(s, game, 1, actor="test", now=NOW + timedelta(minutes=30))
        assert release_held(s, game, 1, now=NOW + timedelta(minutes=30)) == len(PLAYERS)
    assert [m.status for m in outbox(store, [m.id for m in rows])] == ["pending"] * (len(PLAYERS) + 1)


def test_a_re_run_turn_is_mailed_again_as_a_correction_with_new_message_ids(store):
    code = new_game(store)
    first = outbox(store, play_turn(store, code, now=NOW))
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.get_turn(s, game, 1)
        robot = next(iter(PLAYERS))
        fused = turn.locked.get(robot, {})
        program = [fused.get(str(reg)) for reg in range(1, 6)]
        cards = iter(reversed(turn.hands[robot]))  # the last cards of the hand, not the random program
        program = [c if c is not None else next(cards) for c in program]
        rerun = g.rerun_turn(s, game, 1, programs={robot: program}, actor="test", now=NOW + timedelta(minutes=10))
        assert rerun.changed
        again = enqueue_turn_mails(s, SETTINGS, game, 1, now=NOW + timedelta(minutes=10), correction=True)
        fixed = [(m.message_id, m.subject) for m in again]
    assert {m.message_id for m in first}.isdisjoint(mid for mid, _ in fixed), (first, fixed)
    assert all(subject.startswith(("Correction: ", "[GM] Correction: ")) for _, subject in fixed)
    # and the body says so first thing, in both parts; the first reports said nothing of the kind
    for mail in outbox(store, [m.id for m in again]):
        msg = parse(mail.raw)
        assert text_of(msg).lstrip().startswith("Corrected report: the game master re-ran turn 1 of")
        assert "Corrected report: the game master re-ran turn 1" in html_of(msg).split("<hr>")[0]
    assert not any("Corrected report" in text_of(parse(m.raw)) for m in first)


def test_the_winners_turn_mail_says_so_and_deals_no_more_cards(store):
    code = new_game(store)
    board = load_board("sprint")
    last = board.flags[board.flag_count]
    with store.write() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        # Twonky stands on the last flag, having touched all the others, and turns on the spot in register 1
        robots[0] = replace(robots[0], pos=last, flags=board.flag_count - 1, virtual=False, first_turn=False)
        turn = g.replace_open_state(s, game, robots, actor="test", now=T0)
        hand = turn.hands["Twonky"]
        turning = next(c for c in hand if c.split()[0] in ("LF90", "RT90", "UTRN"))
        rest = [c for c in hand if c != turning][:4]
        g.submit_program(s, game, "Twonky", [turning, *rest], actor="test", now=T0)
    rows = outbox(store, play_turn(store, code, now=NOW))
    with store.read() as s:
        game = g.get_game(s, code)
        assert (game.status, game.winner) == ("finished", "Twonky")
    results = [row for row in rows if row.kind != "game_over"]
    assert len(results) == len(PLAYERS) + 1
    for row in results:
        text = text_of(parse(row.raw))
        assert row.subject.endswith(f"{code} turn 1 results: Twonky wins")
        assert "Twonky has touched the last flag and wins the game." in html_of(parse(row.raw))
        assert "Your hand" not in text and "BEGIN" not in text
        if row.kind == "turn_report":
            assert "The game is over: no more cards." in text and "No cards for you" not in text


def test_the_game_over_mail_gives_everyone_the_winner_the_standings_statistics_and_the_archive_link(store):
    settings = SETTINGS.with_overrides(archive_url="https://rr.example.test/archive")
    code = new_game(store)
    board = load_board("sprint")
    with store.write() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        # Hammer stands on the last flag with every other flag touched; Zoom has touched one flag
        robots[1] = replace(robots[1], pos=board.flags[board.flag_count], flags=board.flag_count - 1,
                            virtual=False, first_turn=False)
        robots[2] = replace(robots[2], flags=1)
        turn = g.replace_open_state(s, game, robots, actor="test", now=T0)
        hand = turn.hands["Hammer"]
        turning = next(c for c in hand if c.split()[0] in ("LF90", "RT90", "UTRN"))
        program = [turning, *[c for c in hand if c != turning][:4]]
        g.submit_program(s, game, "Hammer", program, actor="test", now=T0)
    rows = outbox(store, play_turn(store, code, now=NOW, settings=settings))
    final = [row for row in rows if row.kind == "game_over"]
    assert sorted(r.recipients[0] for r in final) == sorted([address(u) for u in PLAYERS.values()]
                                                            + ["gm@example.test"])
    with store.read() as s:
        game = g.get_game(s, code)
        state = {d["name"]: d for d in g.get_turn(s, game, 1).state_after}
    assert game.winner == "Hammer"
    for row in final:
        assert row.subject.endswith(f"{code}: game over, Hammer wins")
        text = text_of(parse(row.raw))
        assert "GAME OVER" in text and "Hammer (Bob) has touched the last flag and wins the game." in text
        places = [line.split() for line in text.split("Final standings")[1].split("Statistics")[0].splitlines()
                  if re.match(r"^\d+ ", line)]
        # the winner first, then Zoom (one flag), then Twonky; each with flags, lives and HP as they ended
        assert [(p[0], p[1]) for p in places] == [("1", "Hammer"), ("2", "Zoom"), ("3", "Twonky")]
        for p in places:
            d = state[p[1]]
            assert p[2] == str(d["flags"]) and p[5] == str(d["lives"])
            assert p[6] == (str(10 - d["damage"]) if d["at"] else "-")
        assert "1 turn played" in text
        assert re.search(r"^shots fired: \d+$", text, re.M) and re.search(r"^squares moved: \d+$", text, re.M)
        assert f"https://rr.example.test/archive/{code.lower()}/index.html" in text
    # the turn mail itself links to its page in the archive
    turn_mail = next(row for row in rows if row.kind == "turn_report")
    assert f"https://rr.example.test/archive/{code.lower()}/turn-1.html" in text_of(parse(turn_mail.raw))


def test_when_a_game_starts_each_player_gets_the_board_and_their_first_hand(store):
    code = new_game(store)
    rows = outbox(store, kind="turn_start") + outbox(store, kind="gm_copy")
    _, players = _turn_mails(store, code)
    with store.read() as s:
        turn1 = g.get_turn(s, g.get_game(s, code), 1)
        hands = dict(turn1.hands)
    assert [m.recipients for m in rows] == [[address(u)] for u in PLAYERS.values()] + [["gm@example.test"]]
    for row in rows:
        msg = parse(row.raw)
        assert mime_tree(msg) == ("multipart/alternative",
                                  ["text/plain", ("multipart/related", ["text/html", "image/png"])])
        text = text_of(msg)
        for robot in PLAYERS:
            assert re.search(rf"^{robot} +\w+ +r\d+c\d+ +N +virtual$", text, re.M), text
        picture = next(p for p in msg.walk() if p.get_content_type() == "image/png")
        assert f'src="cid:{picture["Content-ID"].strip("<>")}"' in html_of(msg)
        Image.open(io.BytesIO(picture.get_content())).load()
        if row.kind == "gm_copy":
            assert "Your hand" not in text and row.subject == f"[GM] {code} has started"
            continue
        me = next(p for p in players.values() if [p.email] == row.recipients)
        assert row.subject == f"{code} has started: your cards for turn 1"
        assert f"BEGIN {code} {me.robot} turn 1 key {me.secret}" in text
        assert all(card in text for card in hands[me.robot])
    with store.write() as s:
        again = enqueue_start_mails(s, SETTINGS, code, now=NOW)
    assert [m.id for m in again] == [m.id for m in rows]


def test_without_a_gm_address_only_the_players_get_mail(store):
    settings = replace(SETTINGS, gm_address="")
    code = new_game(store, settings=settings)
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.random_fill, actor="test", now=NOW)
        rows = enqueue_turn_mails(s, settings, turn.game, turn, now=NOW)
        assert [m.kind for m in rows] == ["turn_report"] * len(PLAYERS)


def test_an_unresolved_turn_has_no_report_to_mail(store):
    code = new_game(store)
    with store.write() as s, pytest.raises(GameStateError, match="not resolved"):
        enqueue_turn_mails(s, SETTINGS, code, 1, now=NOW)


def test_the_start_mail_welcomes_players_with_the_game_the_course_the_deadline_policy_orders_help_and_the_gm(store):
    code = new_game(store, deadline_seconds=3 * 86400, deadline_time="21:00", settle_seconds=1800,
                    missing_orders="random")
    [row] = [m for m in outbox(store, kind="turn_start") if m.recipients == [address("alice")]]
    text = " ".join(text_of(parse(row.raw)).split())
    assert row.subject == f"{code} has started: your cards for turn 1"
    assert "This is RoboRally by mail" in text and "touch every flag in order wins" in text
    assert "The course: Sprint" in text
    assert "Deadline: 3 days after each turn mail, moved to 21:00 UTC on the day it falls" in text
    assert "or 30 minutes after the last program comes in" in text
    assert "five cards drawn at random from your hand are played for you" in text
    assert "reply to a turn mail and write your five cards at the top" in text
    assert "Send HELP to referee@example.test" in text
    assert "write to the game master, gm@example.test" in text
    html = html_of(parse(row.raw))
    assert "How to write orders:" in html and "mailto:gm@example.test" in html


def test_on_the_widest_course_each_players_mail_cuts_the_pictures_around_their_own_robot(store):
    players = {"Twonky": "alice", "Hammer": "bob", "Zoom": "carol", "Spin": "dave"}
    code = new_game(store, players, course="factory")
    rows = outbox(store, play_turn(store, code, now=NOW))
    stem = file_stem(code, 1)
    for m in rows:
        msg = parse(m.raw)
        names = [p.get_filename() for p in msg.walk() if p.get_content_maintype() == "image"]
        pieces = [n for n in names if re.fullmatch(rf"{stem}-(start|stage\d|end)-[a-z]+\.png", n)]
        if m.kind == "gm_copy":
            assert pieces == []  # the GM reads the whole boards
            continue
        robot = next(r for r, u in players.items() if m.recipients == [address(u)])
        assert pieces and all(n.endswith(f"-{robot.lower()}.png") for n in pieces)
        for name in pieces:  # each piece is a link's tap away from its whole board, which the mail carries
            # unless the mail left it out to stay under 250 KB (and says so)
            assert name.replace(f"-{robot.lower()}.png", ".png") in names or \
                "To keep this mail under 250 KB" in text_of(msg)
        assert f'<tr data-robot="{robot}" class="mine"' in html_of(msg)


def test_on_the_widest_course_the_start_mail_fits_a_phone_and_shows_the_board_around_my_robot(store, tmp_path):
    from tests.render.browser import chromium_path, mail_page, measure, screenshot
    from tests.render.test_mail_layout import _keep

    chromium = chromium_path()
    code = new_game(store, {"Twonky": "alice", "Hammer": "bob", "Zoom": "carol"}, course="factory")
    starts = [m for m in outbox(store, kind="turn_start") if code in parse(m.raw)["Subject"]]
    mine = next(m for m in starts if m.recipients == [address("bob")])
    page = mail_page(parse(mine.raw), tmp_path)
    for width in (360, 1200):
        seen = measure(chromium, page, width, tmp_path)
        assert seen["scrollingWidth"] <= width and seen["scrollers"] == []
        [piece] = [img for img in seen["images"] if img["src"].endswith("-start-hammer.png")]
        assert piece["box"]["width"] == piece["natural"] <= width - 16  # at its drawn size, on the screen
        [whole] = [img for img in seen["images"] if img["src"].endswith("-start.png")]
        assert whole["box"]["top"] > piece["box"]["bottom"] and whole["box"]["right"] <= width
        shot = tmp_path / f"start-mail-{width}.png"
        screenshot(chromium, page, width, int(whole["box"]["bottom"]) + 8, shot, tmp_path)
        _keep(shot)  # to look at (REFEREE_SCREENSHOTS)
