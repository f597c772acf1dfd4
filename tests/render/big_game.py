"""A big game for the phone layout: eight robots on the widest course (factory, 24 squares wide), played for
a few turns from their start squares (programs chosen by a seeded random draw from each hand), and the turn
mail of the last one."""

from __future__ import annotations

import random
from dataclasses import dataclass
from email.message import EmailMessage

from referee.boards import load_board
from referee.engine import Board, Robot, deal_turn, resolve_turn
from referee.engine.state import BoardState
from referee.render import Player, RenderedTurn, make_players, player_mail, render_turn

GAME = "RR-8"
NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Trundle", "Hulk", "Squash", "Bolt")
ME = "Hammer"


@dataclass
class BigTurn:
    board: Board
    players: list[Player]
    robots: list[Robot]
    rendered: RenderedTurn
    turn: int


def play(turns: int = 3, course: str = "factory") -> BigTurn:
    """``turns`` turns of eight robots on ``course``; the last one rendered."""
    board = load_board(course)
    robots = [Robot(name, board.starts[i + 1], 0, virtual=True, first_turn=True, archive=board.starts[i + 1])
              for i, name in enumerate(NAMES)]
    players = make_players(list(NAMES))
    state: BoardState | None = None
    for turn in range(1, turns + 1):
        deal = deal_turn(robots, f"{GAME}:{turn}")
        draw = random.Random(f"{GAME}:{turn}:programs")
        programs = {}
        for r in robots:
            hand = list(deal.hands.get(r.name, []))
            draw.shuffle(hand)
            regs = [deal.locked.get(r.name, {}).get(i) for i in range(1, 6)]
            programs[r.name] = [reg if reg is not None else (hand.pop() if hand else None) for reg in regs]
        result = resolve_turn(board, robots, programs, seed=f"{GAME}:{turn}", undealt=deal.undealt,
                              board_state=state)
        if turn == turns:
            rendered = render_turn(board, result, players, GAME, turn, board_before=state)
            return BigTurn(board, players, result.robots, rendered, turn)
        robots, state = result.robots, result.board_state
    raise ValueError("turns must be at least 1")


def mail_of(big: BigTurn, robot: str = ME) -> EmailMessage:
    me = next(p for p in big.players if p.robot == robot)
    deal = deal_turn(big.robots, f"{GAME}:{big.turn + 1}")
    return player_mail(big.rendered, me, sender="referee <referee@example.test>", recipient="p@example.test",
                       subject=f"{GAME} turn {big.turn}", domain="example.test", hand=deal.hands.get(robot, []),
                       locked=deal.locked.get(robot, {}), order_template="BEGIN\n1:\n2:\n3:\n4:\n5:\nEND\n",
                       robot=next(r for r in big.robots if r.name == robot),
                       budget=None)   # every whole board, for the layout (the 250 KB mail: test_mail_weight.py)
