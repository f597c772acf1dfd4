"""The ``autopilot`` missing-orders policy through the tick: a late player's robot is played by the
autopilot's search, and everyone is told so."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy

from sqlalchemy import select

from referee import games as g
from referee.autopilot import course_map
from referee.boards import load_board
from referee.cron.tick import tick
from referee.engine import parse_card
from referee.engine.snapshot import robot_from_dict
from referee.games import plan_missing
from referee.store.models import Order

from .test_tick import T0, mails, new_game, program, settings  # noqa: F401  (settings: the fixture)


def test_new_games_play_late_robots_by_the_autopilot(store, settings):  # noqa: F811
    new_game(store)
    with store.read() as s:
        game = g.get_game(s, "RR-1")
        assert game.missing_orders == "autopilot"
        start = {r.name: r for r in g.robots_of(g.open_turn(s, game))}
        planned = plan_missing(s, game)  # what the tick plans before it takes the write lock
    assert sorted(planned) == ["Hammer", "Twonky", "Zoom"]
    program(store, "Twonky", T0 + timedelta(hours=1))

    assert tick(settings, now=T0 + timedelta(days=2, minutes=1), store=store).resolved == ["RR-1 turn 1"]

    with store.read() as s:
        game = g.get_game(s, "RR-1")
        turn = g.get_turn(s, game, 1)
        auto = {o.player.robot: o for o in s.scalars(select(Order).where(Order.source == "auto"))}
        after = {r["name"]: r for r in turn.state_after}
    assert sorted(auto) == ["Hammer", "Zoom"]
    assert [parse_card(c) for c in auto["Hammer"].program] == planned["Hammer"][1]
    course = course_map(load_board("sprint"))
    for name in ("Hammer", "Zoom"):  # each got nearer the first flag along the course, alive
        assert after[name]["lives"] == start[name].lives
        nearer = course.best_distance(1, robot_from_dict(after[name]).pos)
        assert nearer < course.best_distance(1, start[name].pos)
    # the results mail says who was late and what played for them, and marks their cards
    results = mails(store, "turn_report")
    text = email.message_from_bytes(results[0].raw, policy=policy.default).get_body(("plain",)).get_content()
    assert ("Late players: no orders came from Hammer, Zoom for turn 1; their robots were played by the "
            "autopilot") in " ".join(text.split())
    assert "(autopilot)" in text
    assert not [m for m in mails(store, "announcement") if "late players" in m.subject]
    # and each late player's own story, at the top of their mail, says the autopilot played for them
    stories = {}
    for row in results:
        body = email.message_from_bytes(row.raw, policy=policy.default).get_body(("plain",)).get_content()
        stories[body.split(",", 1)[0]] = " ".join(body.split("\n\n")[0].split())
    for name in ("Hammer", "Zoom"):
        assert "The autopilot played for you: you sent no program." in stories[name], stories[name]
    assert "played for you" not in stories["Twonky"]
