"""Turrets (RoboFactory): a gun rising from the middle of a pit, run by cards nobody holds.

When the first cards of a turn are revealed, five cards are drawn at random (from the turn's
seeded generator) from the cards nobody holds: the turrets' program for the turn, one card a
register phase, shared by every turret on the board. A turn card turns every turret when the gears
turn (left, right or half round); a movement card makes every turret fire a laser beam of 1 damage
the way it faces when lasers fire, after the board and robot lasers. The beam covers the squares
beyond the turret up to a wall, the edge or the first real robot, as a board laser does.

With ``beam = "tractor"`` (the rule texts' variant) a turret holds tractor and pressor beams instead of a
laser: a Move n pushes the first real robot in its line n squares away (pushing robots beyond it, as a
pusher does), a Back-Up pulls it one square closer (from the square beside the turret, into its pit).

The square is a pit (a robot entering it falls in); robots cannot see or shoot through it. A
turret's facing is board state (``state.BoardState``): it keeps it from turn to turn; ``dir`` is
where it points before it has ever turned. The turn's cards are board state too (``cards``), so the
result and the report show them.
"""

from __future__ import annotations

from .. import looks, reach, shown, timing
from ..board import Element
from ..cards import Card, parse_card
from ..context import TurnContext
from ..events import Event, register_wording
from ..geometry import ARROWS, Square, dir_name, opposite, parse_dir, square_name
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import MOVED, PUSHER, try_step
from ..state import BoardState, Robot
from ..timing import ENTER
from .lasers import beam, occupancy

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("pushed", "turret", "pushed by a turret", by="turret")

shown.cause("pit", into="into the pit")
shown.cause("turret", story="shot down by a turret")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.turrets", "turrets", after="lasers.fire")


NAME = "turret"
CARDS = "cards"

register_wording("turret cards", "turrets' program {card}")
register_wording("turret turns", "turret {at} faces {dir}")
register_wording("turret fires", "turret {at} fires")
shown.untold("turret cards", "no robot's news; the stage tables show it")
shown.untold("turret fires", "the hits are told with whom they hit")
shown.untold("turret turns", "no robot's news; the stage tables show it")


def facing(ctx: TurnContext, sq: Square) -> int:
    """Where the turret on ``sq`` points now (its stored facing, else its ``dir``)."""
    stored = ctx.board_state.get(NAME, square_name(sq))
    if stored is not None:
        return parse_dir(stored)
    el = ctx.board.one(NAME, sq)
    assert el is not None
    return int(el["dir"])


def card_of(ctx: TurnContext, phase: int) -> Card | None:
    """The turrets' card of a register phase (None when the deck ran short)."""
    cards = ctx.board_state.get(NAME, CARDS, [])
    if phase > len(cards):
        return None
    text = cards[phase - 1]
    card = _PARSED.get(text) if type(text) is str else None
    if card is None:  # (not text: parse_card says why)
        card = _PARSED[text] = parse_card(text)
    return card


#: a card's text (as the board state keeps it) -> the card: read twice a register phase, parsed once
_PARSED: dict[str, Card] = {}


def draw(ctx: TurnContext, phase: int) -> None:
    """Phase 1: draw the turrets' five cards for the turn from the cards nobody holds."""
    if phase != 1:
        return
    picked = [ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt))) for _ in range(min(5, len(ctx.undealt)))]
    ctx.board_state.set(NAME, CARDS, [str(c) for c in picked])
    ctx.emit(None, "turret cards", {"card": ", ".join(map(str, picked))})


def turn(ctx: TurnContext, phase: int) -> None:
    card = card_of(ctx, phase)
    if card is None or not card.type.turn:
        return
    for sq in sorted(ctx.board.layer(NAME)):
        d = (facing(ctx, sq) + card.type.turn) % 4
        ctx.board_state.set(NAME, square_name(sq), dir_name(d))
        ctx.emit(None, "turret turns", {"at": square_name(sq), "dir": dir_name(d)}, card=str(card))


def fire(ctx: TurnContext, phase: int) -> None:
    card = card_of(ctx, phase)
    if card is None or card.type.turn:
        return
    occupied = occupancy(ctx)
    for sq, els in sorted(ctx.board.layer(NAME).items()):
        d = facing(ctx, sq)
        _, hit = beam(ctx, sq, d, True, occupied)
        ctx.emit(None, "turret fires", {"at": square_name(sq)}, card=str(card))
        if els[0]["beam"] == "tractor":
            _tractor(ctx, [r for r in hit if not r.virtual][:1], d, card)
            continue
        for robot in hit:
            ctx.hit_later(robot, 1, f"turret {square_name(sq)}", d, cause="turret")


def _tractor(ctx: TurnContext, hit: list[Robot], d: int, card: Card) -> None:
    """The variant: a Move n pushes the first real robot in line n squares away, a Back-Up pulls it one
    square closer (from the square beside the turret: into its pit)."""
    for robot in hit:
        if card.type.move > 0:
            for _ in range(card.type.move):
                if robot.pos is None or try_step(ctx, robot, d, PUSHER, by="turret") != MOVED:
                    break
        elif robot.pos is not None:
            try_step(ctx, robot, opposite(d), PUSHER, by="turret", push=False)


def fall(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    ctx.destroy(robot, "pit")


# how far it reaches (ruling 15.12)
reach.declare("turret", reach.Reach(reach.LINE_OF_SIGHT, "15.12",
                                   what="its beam (or tractor beam) runs along its line to a wall, the edge or the "
                                        "first real robot"))


TURRET = Kind(
    name=NAME,
    doc=('a turret in a pit (a robot entering falls in; robots cannot see through it), pointing `dir` at first: '
         'five cards drawn from those nobody holds run every turret for the turn, one a register phase; a turn '
         'card turns them with the gears, a movement card makes each fire a 1-damage laser the way it faces, '
         'after the lasers (`beam = "tractor"`: a Move n pushes the first robot in line n squares away, a Back-Up '
         'pulls it one closer). Its facing is kept from turn to turn'),
    key='T^ turret',
    fields=(Field("dir", "dir"),
            Field("beam", "choice", required=False, default="laser", choices=("laser", "tractor"))),
    summary="a turret in a pit, turned or fired by five random cards a turn; its facing is kept",
    group="floor",
    flat=False,
    blocks_sight=True,
    hooks=(on("move.pits", fall, ENTER),),
    steps={"reveal.randomizers": draw, "board.gears": turn, "lasers.turrets": fire},
    glyph=lambda e: "T" + ARROWS[e["dir"]] + "#",
    rank=120,
    legend=lambda e: f"turret, pointing {ARROWS[e['dir']]} at first",
)


def look(el: Element, phase: looks.Phase, state: BoardState) -> int:
    """The pictures: where the turret points now."""
    stored = state.get(NAME, square_name(el.at))
    return int(el["dir"]) if stored is None else parse_dir(stored)


def _turned(state: BoardState, ev: Event) -> None:
    args = ev.args or {}
    state.set(NAME, str(args["at"]), str(args["dir"]))


looks.declare(NAME, look, {"turret turns": _turned})
