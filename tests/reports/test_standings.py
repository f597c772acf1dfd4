"""Standings and statistics of a game (issue 18): counted from the stored turns, ranked by the ruling 18.1.

Rulings cited (docs/rulings.md): 18.1, 18.2.
"""

from __future__ import annotations

from referee.boards.scenario import parse_scenario
from referee.engine import resolve_turn
from referee.engine.snapshot import robot_to_dict
from referee.reports.standings import summarize
from referee.store.models import Game, Player, Turn

# Twonky steps up to Hammer and then turns about each register: facing Hammer in registers 1, 3 and 5.
# Hammer turns left and right on the spot: facing Twonky in registers 2 and 4.
DUEL = {
    "board": {"width": 6, "height": 6, "name": "Yard", "elements": []},
    "robots": [{"name": "Twonky", "at": "r2c2", "facing": "E"}, {"name": "Hammer", "at": "r2c4", "facing": "E"}],
    "programs": {"Twonky": ["FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"],
                 "Hammer": ["LF90 70", "LF90 90", "RT90 80", "LF90 110", "RT90 100"]},
    "seed": 1,
}


def stored_duel() -> tuple[Game, list[Turn]]:
    args = parse_scenario(DUEL)
    result = resolve_turn(args["board"], args["robots"], args["programs"], rules=args["rules"], seed=args["seed"])
    turn = Turn(number=1, status="resolved", events=[e.to_dict() for e in result.events],
                frames=[[robot_to_dict(r) for r in frame] for frame in result.frames],
                state_after=[robot_to_dict(r) for r in result.robots], winner=None)
    game = Game(code="RR-9", course="yard", status="finished", winner=None,
                players=[Player(seat=1, robot="Twonky", name="Ann", colour="red", status="active", email="a@x"),
                         Player(seat=2, robot="Hammer", name="Ben", colour="blue", status="active", email="b@x")])
    return game, [turn]


def test_shots_fired_and_taken_squares_moved_and_robots_lost_come_from_the_turns():
    game, turns = stored_duel()
    summary = summarize(game, turns, flag_total=0)
    rows = {r.robot: r for r in summary.standings}
    assert (rows["Twonky"].shots_fired, rows["Hammer"].shots_fired) == (5, 5)
    assert (rows["Hammer"].shots_taken, rows["Twonky"].shots_taken) == (3, 2)  # registers 1, 3, 5 / 2, 4
    assert (rows["Twonky"].squares, rows["Hammer"].squares) == (1, 0)
    assert rows["Twonky"].lost == rows["Hammer"].lost == 0
    assert summary.turns == 1
    assert summary.totals == {"robots lost": 0, "shots fired": 10, "shots taken": 5, "squares moved": 1}


def test_without_a_winner_or_flags_more_hp_ranks_higher():
    game, turns = stored_duel()
    summary = summarize(game, turns, flag_total=0)
    assert [(r.place, r.robot, r.hp) for r in summary.standings] == [(1, "Twonky", 8), (2, "Hammer", 7)]


def test_the_winner_ranks_first_whatever_else_and_flags_before_hp():
    game, turns = stored_duel()
    game.winner = "Hammer"
    assert [r.robot for r in summarize(game, turns, flag_total=0).standings] == ["Hammer", "Twonky"]
    game.winner = None
    turns[0].state_after[1]["flags"] = 1  # Hammer with a flag, less HP
    assert [r.robot for r in summarize(game, turns, flag_total=2).standings] == ["Hammer", "Twonky"]
