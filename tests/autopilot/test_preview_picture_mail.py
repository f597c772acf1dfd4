"""PREVIEW's picture, through the real intake (Dovecot, the poller, the store): the answer carries a PNG
of the board with the previewed robot's path drawn in its colour along the squares the answer names,
and the other robots standing where they started (nobody else's orders are looked at)."""

from __future__ import annotations

import io
import re
from email import message_from_bytes, policy

from PIL import Image

from referee import games as g
from referee.boards import load_board
from referee.engine import parse_card
from referee.engine.geometry import parse_square
from referee.render import CELL, make_players
from referee.render.board_image import Layout
from tests.intake.conftest import settings, take  # noqa: F401  (the intake's fixtures)
from tests.intake.helpers import address, block, hand, mail, new_game, outbox, program_lines, text_of

SQUARE = re.compile(r"-> (r\d+c\d+) facing|start: (r\d+c\d+) facing")


def last_answer(store, user):
    return [m for m in outbox(store) if address(user) in m.recipients][-1].raw


def pictures(raw):
    msg = message_from_bytes(raw, policy=policy.default)
    return [p for p in msg.walk() if p.get_content_type() == "image/png"]


def colours(store, code):
    """Robot name -> its colour on the board, as the turn pictures give it."""
    with store.read() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        players = make_players([r.name for r in robots], colours={p.robot: p.colour for p in game.players
                                                                  if p.colour})
        return {p.robot: p.rgb for p in players}, {r.name: r.pos for r in robots}


def near(pixel, colour, tolerance=40):
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= tolerance


def inked(img, lay, square, colour, reach=0.45):
    """How many pixels of ``colour`` lie within ``reach`` cells of the square's centre."""
    cx, cy = lay.centre(square)
    r = int(lay.cell * reach)
    return sum(near(img.getpixel((x, y)), colour)
               for x in range(int(cx) - r, int(cx) + r) for y in range(int(cy) - r, int(cy) + r))


def moving_program(cards):
    """Five cards of the hand, the moving ones first (so the preview has a path to draw)."""
    return sorted(cards, key=lambda c: -parse_card(c).type.move)[:5]


async def test_orders_with_preview_get_a_picture_of_the_path(store, take):  # noqa: F811
    code = new_game(store)
    await take(mail(address("bob"), block(store, code, "Hammer", program_lines(hand(store, code, "Hammer")[:5]))))
    cards = moving_program(hand(store, code, "Twonky"))
    await take(mail(address("alice"), block(store, code, "Twonky", [*program_lines(cards), "PREVIEW"])))

    raw = last_answer(store, "alice")
    body = text_of(raw)
    assert "Where the robot stands after each register" in body and "-> after 1" in body  # the route in words
    [png] = pictures(raw)
    assert png.get_filename() in body and png.get_content_disposition() == "inline"
    img = Image.open(io.BytesIO(png.get_content())).convert("RGB")
    board = load_board("sprint")
    lay = Layout(board.width, board.height, CELL)
    assert img.size == lay.size

    colour, start = colours(store, code)
    named = [parse_square(a or b) for a, b in SQUARE.findall(body.split("end of turn:")[0])]
    end = re.search(r"end of turn: (r\d+c\d+)", body)
    # the path in Twonky's colour through every square the answer names (where the robot ends, it is drawn)
    passed = [sq for sq in named if end is None or sq != parse_square(end.group(1))]
    assert named[0] == start["Twonky"] and passed
    for square in passed:
        assert inked(img, lay, square, colour["Twonky"]) >= lay.cell // 2, square
    # the others stand where they started: Hammer's colour only where Hammer stands (its marker may reach
    # over the edge of a shared start square), no path of Bob's orders anywhere
    hammer = colour["Hammer"]
    hx, hy = lay.centre(start["Hammer"])
    stray = [(x, y) for x in range(img.width) for y in range(img.height)
             if near(img.getpixel((x, y)), hammer) and max(abs(x - hx), abs(y - hy)) > lay.cell]
    assert inked(img, lay, start["Hammer"], hammer, reach=1.0) > 0 and stray == []


async def test_preview_alone_gets_the_picture_and_without_a_program_none(store, take):  # noqa: F811
    code = new_game(store)
    await take(mail(address("carol"), "PREVIEW\n", subject=f"{code} preview"))
    assert pictures(last_answer(store, "carol")) == []   # nothing on file: no path, no picture

    cards = moving_program(hand(store, code, "Zoom"))
    await take(mail(address("carol"), block(store, code, "Zoom", program_lines(cards))))
    await take(mail(address("carol"), "PREVIEW please\n", subject=f"{code} preview"))
    raw = last_answer(store, "carol")
    [png] = pictures(raw)
    img = Image.open(io.BytesIO(png.get_content())).convert("RGB")
    board = load_board("sprint")
    lay = Layout(board.width, board.height, CELL)
    colour, start = colours(store, code)
    # the ring where Zoom sets off, in its colour, on its start square
    assert inked(img, lay, start["Zoom"], colour["Zoom"]) > 0
    named = [parse_square(a or b) for a, b in SQUARE.findall(text_of(raw).split("end of turn:")[0])]
    assert named[0] == start["Zoom"]
