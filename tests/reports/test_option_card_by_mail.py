"""By mail, through the real intake: Zoom draws Pressor Beam at a two-wrench site; the next turn mail says what
the card does and the order line it takes; its player sends that line with a program, it is accepted, and in
the turn that follows the beam pushes the robot in front of Zoom one square away."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from referee import games as g
from referee.boards import load_board
from referee.engine.geometry import square_name, step
from referee.reports import stored_turn_result
from tests.intake.conftest import settings, take  # noqa: F401  (the intake's fixtures)
from tests.intake.helpers import address, block, mail, new_game, program_lines, text_of

from .helpers import outbox, play_turn

COURSE = "meltdown"


def _clear(board, a, b, d) -> bool:
    """``b``, one square from ``a`` toward ``d``, is plain floor on the board with no wall between."""
    if not board.on_board(b) or (a[0], a[1], d) in board.blocked or (b[0], b[1], (d + 2) % 4) in board.blocked:
        return False
    return not any(b in layer for kind, layer in board.layers.items() if kind not in ("wall", "level"))


def _site(board):
    """A two-wrench site with plain floor two squares deep on one side (or, failing that, one): (site, that
    direction)."""
    for sq, els in sorted(board.layers["repair"].items()):
        if els[0]["wrenches"] != 2:
            continue
        for d in range(4):
            one = step(sq, d)
            if _clear(board, sq, one, d) and _clear(board, one, step(one, d), d):
                return sq, d
    for sq, els in sorted(board.layers["repair"].items()):
        for d in range(4):
            one, two = step(sq, d), step(step(sq, d), d)
            if els[0]["wrenches"] == 2 and _clear(board, sq, one, d) and board.on_board(two) and \
                    (one[0], one[1], d) not in board.blocked and "pit" not in [k for k, layer in
                                                                          board.layers.items() if two in layer]:
                return sq, d
    raise AssertionError("no two-wrench site with room beside it")


def _turning_hand(s, game, turn, robot: str) -> list[str]:
    """Give ``robot`` a hand of nine turn cards (from the undealt ones, its own going back there)."""
    turns = [c for c in turn.undealt if c.split()[0] in ("LF90", "RT90", "UTRN")][:9]
    turn.undealt = [c for c in turn.undealt if c not in turns] + list(turn.hands.get(robot) or [])
    turn.hands = {**turn.hands, robot: turns}
    return turns


def _cards(hand: list[str], *types: str) -> list[str]:
    out = []
    for t in types:
        out.append(next(c for c in hand if c.split()[0] == t and c not in out))
    return out


async def test_a_player_who_draws_pressor_beam_is_told_how_to_fire_it_and_fires_it_by_mail(store, settings, take):  # noqa: F811
    t0 = datetime.now(UTC) - timedelta(hours=3)  # the intake reads the orders at the wall clock's time
    code = new_game(store, course=COURSE, now=t0)
    board = load_board(COURSE)
    site, way = _site(board)
    with store.write() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        # Zoom stands on the site and only turns; the others are powered down (they stay where they are)
        robots = [replace(r, pos=site, facing=way, virtual=False, first_turn=False) if r.name == "Zoom"
                  else replace(r, powered_down=True, virtual=False, first_turn=False) for r in robots]
        turn = g.replace_open_state(s, game, robots, actor="test", now=t0)
        turn.option_deck = ["Pressor Beam", "Brakes", "Shield"]
        zoom = g.get_player(s, game, "Zoom")
        zoom.standing_orders = {**(zoom.standing_orders or {}), "two_wrenches": "option"}
        hand = _turning_hand(s, game, turn, "Zoom")
        g.submit_program(s, game, "Zoom", hand[:5], actor="test", now=t0)
    play_turn(store, code, now=t0 + timedelta(hours=1), settings=settings)

    mails = [m for m in outbox(store, kind="turn_report") if m.recipients == [address("carol")]]
    text = text_of(mails[-1].raw)
    assert "Zoom, turn 1: drew the option card Pressor Beam." in text
    # explained once, in one line, from the card's declaration: what it does and how its order is written
    assert ("New option card Pressor Beam: instead of the main laser: the target is pushed away. Order: FIRE "
            "<registers>: PRESSOR BEAM, e.g. FIRE 3: PRESSOR BEAM.") in " ".join(text.split())

    # turn 2: Twonky stands beside Zoom; Zoom turns right, left, then about, so that in register 3 it faces Twonky
    target = step(site, way)
    with store.write() as s:
        game = g.get_game(s, code)
        robots = g.robots_of(g.open_turn(s, game))
        assert [r.options for r in robots if r.name == "Zoom"] == [["Pressor Beam"]]
        robots = [replace(r, facing=(way + 2) % 4) if r.name == "Zoom"
                  else replace(r, pos=target, facing=way, powered_down=True, virtual=False) if r.name == "Twonky"
                  else replace(r, powered_down=True) for r in robots]
        turn = g.replace_open_state(s, game, robots, actor="test", now=t0 + timedelta(hours=1))
        hand = _turning_hand(s, game, turn, "Zoom")
    first = _cards(hand, "RT90", "LF90", "UTRN")
    program = [*first, *[c for c in hand if c not in first][:2]]
    await take(mail(address("carol"), block(store, code, "Zoom", [*program_lines(program), "FIRE 3: PRESSOR BEAM"])))
    echo = [m for m in outbox(store) if m.recipients == [address("carol")]][-1]
    assert "accepted" in echo.subject and "could not be used" not in text_of(echo.raw), text_of(echo.raw)

    play_turn(store, code, now=t0 + timedelta(hours=2), settings=settings)
    with store.read() as s:
        turn2 = g.get_turn(s, g.get_game(s, code), 2)
        events = stored_turn_result(turn2).events
    pushes = [(e.phase, (e.data or {}).get("by"), e.text) for e in events if e.robot == "Twonky" and e.kind == "pushed"]
    assert pushes == [(3, "Zoom", f"pushed to {square_name(step(target, way))}")]
