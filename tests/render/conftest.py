"""A fixed, seeded turn for the report tests: pushes, belts, lasers, a destruction and a flag in it."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage

import pytest

from referee.boards.scenario import parse_scenario
from referee.engine import Board, Deal, Robot, TurnResult, deal_turn, resolve_turn
from referee.render import Player, RenderedTurn, make_players, player_mail, render_turn

GAME = "RR-7"
TURN = 4

SCENARIO = {
    "board": {"width": 10, "height": 8, "name": "Test Yard", "elements": [
        {"kind": "belt", "at": "r3c2-r3c6", "dir": "E"},
        {"kind": "belt", "at": "r3c7", "dir": "N"},
        {"kind": "express", "at": "r7c1-r7c4", "dir": "E"},
        {"kind": "pit", "at": "r5c8"},
        {"kind": "laser", "at": "r3c10", "dir": "W"},
        {"kind": "flag", "at": "r4c5", "number": 1},
        {"kind": "flag", "at": "r8c10", "number": 2},
        {"kind": "pusher", "at": "r7c7", "dir": "S", "phases": [1, 3, 5]},
        {"kind": "gear", "at": "r2c7", "turn": "right"},
        {"kind": "repair", "at": "r1c1", "wrenches": 2},
        {"kind": "crusher", "at": "r6c9", "phases": [2, 4]},
        {"kind": "wall", "at": "r4c6", "sides": ["E"]},
        {"kind": "wall", "at": "r6c2", "sides": ["N", "W"]},
        {"kind": "start", "at": "r1c2", "number": 1},
        {"kind": "start", "at": "r1c3", "number": 2},
        {"kind": "start", "at": "r1c4", "number": 3},
    ]},
    "robots": [
        {"name": "Twonky", "at": "r4c2", "facing": "E"},
        {"name": "Hammer", "at": "r4c3", "facing": "E", "damage": 1},
        {"name": "Zoom", "at": "r3c3", "facing": "N", "damage": 4},
        {"name": "Spin", "at": "r5c7", "facing": "E", "archive": "r1c2"},
        {"name": "Trundle", "at": "r7c7", "facing": "W", "virtual": True, "first_turn": False},
    ],
    "programs": {
        "Twonky": ["FWD2 670", "LF90 70", "FWD1 490", "RT90 80", "RVS1 430"],
        "Hammer": ["UTRN 10", "FWD1 500", "RT90 100", "FWD2 680", "LF90 90"],
        "Zoom": ["RT90 120", "FWD1 510", "UTRN 20", "FWD1 520", "RT90 140"],
        "Spin": ["FWD1 530", "FWD1 540", "FWD1 550", "FWD1 560", "FWD1 570"],
        "Trundle": ["LF90 110", "FWD3 790", "FWD1 580", "RT90 160", "FWD2 690"],
    },
    "reentry": {"Spin": "N"},
    "seed": 4,
}


@dataclass
class SeededTurn:
    board: Board
    robots: list[Robot]
    result: TurnResult
    players: list[Player]


@pytest.fixture(scope="session")
def seeded() -> SeededTurn:
    args = parse_scenario(SCENARIO)
    result = resolve_turn(args["board"], args["robots"], args["programs"], rules=args["rules"], seed=args["seed"],
                          phases=args["phases"], reentry=args["reentry"])
    players = make_players([r.name for r in args["robots"]], colours={"Hammer": "blue"})
    return SeededTurn(args["board"], args["robots"], result, players)


#: stands in for the order template that referee/orders/replies.py writes (any text goes through as it is)
ORDER_TEMPLATE = """BEGIN RR-7 Zoom turn 5
1:
2:
3:
4:
5:
END
"""
ME = "Zoom"
SENDER = "RR-7 referee <referee@example.test>"
DOMAIN = "example.test"
HEADERS = {"Date": "Sat, 21 Nov 2026 12:00:00 +0000", "Auto-Submitted": "auto-generated",
           "X-Loop": "referee@example.test", "Reply-To": "referee+rr-7@example.test"}


@pytest.fixture(scope="session")
def rendered(seeded: SeededTurn) -> RenderedTurn:
    return render_turn(seeded.board, seeded.result, seeded.players, GAME, TURN)


@pytest.fixture(scope="session")
def next_deal(seeded: SeededTurn) -> Deal:
    return deal_turn(seeded.result.robots, f"{GAME}:{TURN + 1}")


@pytest.fixture(scope="session")
def my_mail(seeded: SeededTurn, rendered: RenderedTurn, next_deal: Deal) -> EmailMessage:
    me = next(p for p in seeded.players if p.robot == ME)
    robot = next(r for r in seeded.result.robots if r.name == ME)
    return player_mail(rendered, me, sender=SENDER, recipient="zoom.player@example.test", subject=f"{GAME} turn {TURN}",
                       domain=DOMAIN, hand=next_deal.hands.get(ME, []), locked=next_deal.locked.get(ME, {}),
                       order_template=ORDER_TEMPLATE, robot=robot, headers=HEADERS)
