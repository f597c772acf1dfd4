"""Three small turns told from one robot's side: pushed into a pit, touching a flag, drawing an option card."""

from __future__ import annotations

from email.message import EmailMessage

from referee.boards.scenario import parse_scenario
from referee.engine import deal_turn, resolve_turn
from referee.render import make_players, player_mail, render_turn
from referee.reports.option_help import card_line

from .conftest import DOMAIN, HEADERS, SENDER


def _board(*elements: dict) -> dict:
    return {"width": 8, "height": 6, "name": "Story Yard", "elements": [
        {"kind": "flag", "at": "r1c8", "number": 1}, {"kind": "flag", "at": "r6c1", "number": 2},
        {"kind": "start", "at": "r6c8", "number": 1}, {"kind": "start", "at": "r6c7", "number": 2},
        *elements]}


#: Twonky, in register 3, drives into Zoom from the west and pushes it into the pit at r3c5
PUSHED_INTO_PIT = {
    "board": _board({"kind": "pit", "at": "r3c5"}),
    "robots": [{"name": "Zoom", "at": "r3c3", "facing": "N", "archive": "r5c6", "damage": 1},
               {"name": "Twonky", "at": "r3c1", "facing": "E", "damage": 5}],
    "programs": {"Zoom": ["RT90 80", "LF90 70", "FWD1 490", "UTRN 20", "RVS1 430"],
                 "Twonky": ["LF90 90", "RT90 100", "FWD3 790", "UTRN 10", "BACK 440"]},
    "reentry": {"Zoom": "W"},
    "seed": 1,
}
#: Zoom drives onto flag 1 in register 2
WINS_A_FLAG = {
    "board": _board(),
    "robots": [{"name": "Zoom", "at": "r3c8", "facing": "W"}, {"name": "Twonky", "at": "r5c2", "facing": "S"}],
    "programs": {"Zoom": ["LF90 130", "FWD2 670", "RT90 80", "UTRN 20", "LF90 70"],
                 "Twonky": ["LF90 90", "RT90 100", "RT90 120", "UTRN 10", "LF90 110"]},
    "seed": 2,
}
#: Zoom ends the turn on a two-wrench site and, by its standing order, draws the top option card
DRAWS_AN_OPTION = {
    "board": _board({"kind": "repair", "at": "r4c4", "wrenches": 2}),
    "robots": [{"name": "Zoom", "at": "r4c4", "facing": "N", "damage": 2},
               {"name": "Twonky", "at": "r5c2", "facing": "S"}],
    "programs": {"Zoom": ["RT90 80", "LF90 70", "RT90 100", "LF90 90", "UTRN 20"],
                 "Twonky": ["RT90 120", "LF90 110", "RT90 140", "LF90 130", "UTRN 10"]},
    "option_deck": ["Pressor Beam", "Shield"],
    "standing": {"Zoom": {"two_wrenches": "option"}},
    "seed": 3,
}
STORIES = {"pushed-into-pit": PUSHED_INTO_PIT, "wins-a-flag": WINS_A_FLAG, "draws-an-option": DRAWS_AN_OPTION}


def story_mail(scenario: dict, me: str = "Zoom", game: str = "RR-9", turn: int = 6) -> EmailMessage:
    """The turn mail of the player of ``me`` for a scenario's turn, with its next hand."""
    args = parse_scenario(scenario)
    result = resolve_turn(args["board"], args["robots"], args["programs"], rules=args["rules"], seed=args["seed"],
                          reentry=args["reentry"], answers=args["answers"], option_deck=args["option_deck"])
    players = make_players([r.name for r in args["robots"]])
    rendered = render_turn(args["board"], result, players, game, turn)
    deal = deal_turn(result.robots, f"{game}:{turn + 1}")
    player = next(p for p in players if p.robot == me)
    robot = next(r for r in result.robots if r.name == me)
    had = next(r for r in result.frames[0] if r.name == me).options
    new = [(card, card_line(card), []) for card in robot.options if card not in had]
    template = f"BEGIN {game} {me} turn {turn + 1}\n1:\n2:\n3:\n4:\n5:\nEND\n"
    return player_mail(rendered, player, sender=SENDER, recipient="zoom.player@example.test",
                       subject=f"{game} turn {turn}", domain=DOMAIN, hand=deal.hands.get(me, []),
                       locked=deal.locked.get(me, {}), order_template=template, robot=robot, headers=HEADERS,
                       new_options=new)
