"""Every registered kind is complete: documented (the board docs' table is made from the registry), drawn in
the ASCII view and the pictures, and playable on a board with a robot on it.

Rulings cited (docs/rulings.md): 44.1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine import KINDS, Robot, Rules, build_board, parse_card, resolve_turn
from referee.engine.ascii import render
from referee.engine.board import Element
from referee.engine.kinds import Kind, kinds_table, register
from referee.render.board_image import PAINTERS, paint_default

DOCS = Path(__file__).resolve().parents[2] / "docs" / "boards.md"


def test_every_row_of_the_element_table_of_the_board_docs_is_the_registrys():
    """The table is pasted from ``referee board kinds --markdown``: each kind it lists is described as the
    registry describes it, in the registry's order. A kind registered since (a new element's module and
    its registration line) is in the command's table and joins the doc's when it is pasted again."""
    text = DOCS.read_text()
    start = text.index("| kind | fields | what it does |")
    end = text.index("\n\n", start)
    made = kinds_table().split("\n")
    rows = {row.split(" | ", 1)[0]: row for row in made[2:]}
    documented = text[start:end].split("\n")
    assert documented[:2] == made[:2]
    for row in documented[2:]:
        assert rows.get(row.split(" | ", 1)[0]) == row, "run `referee board kinds --markdown`, paste it in the doc"
    heads = [row.split(" | ", 1)[0] for row in documented[2:]]
    assert heads == [head for head in rows if head in heads], "the kinds in the registry's order"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_kind_is_documented_and_drawn(name):
    kind = KINDS[name]
    sample = kind.sample()
    glyph = kind.glyph(Element(name, (3, 3), sample))
    assert kind.summary and (kind.doc or kind.summary)
    assert len(glyph) <= 3
    assert kind.key or not glyph.strip(), f"{name} shows {glyph!r} on the board but is not in the ASCII key"
    assert name in PAINTERS or glyph.strip() or kind.group == "floor", f"{name} cannot be drawn by {paint_default}"
    if kind.legend is not None:
        assert kind.legend(Element(name, (3, 3), sample))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_kind_plays_with_a_robot_on_it_and_beside_it(name):
    kind = KINDS[name]
    spec = {"kind": name, "at": "r3c3", **kind.dump_fields(kind.sample())}
    board = build_board({"width": 5, "height": 5, "elements": [spec, *kind.partners]})
    robots = [Robot("Twonky", (3, 3), 0), Robot("Hulk", (2, 3), 0)]
    programs = {"Twonky": [parse_card("RT90 80")], "Hulk": [parse_card("FWD1 490")]}
    result = resolve_turn(board, robots, programs)
    assert result.events and (result.phases_run == 5 or result.winner)  # a lone flag is won at once
    assert "Twonky" in render(board, result.robots) or result.robots[0].pos is None


def test_every_declared_reach_names_a_registered_kind_and_a_ruling_the_doc_has():
    """Issue 44: an element acting at a distance declares its reach in its module (its own board, a count of
    squares, its line of sight, the whole course) and the ruling that says which the rule text gives."""
    from referee.engine.reach import REACHES

    rulings = (Path(__file__).resolve().parents[2] / "docs" / "rulings.md").read_text()
    assert {"magnet", "black_hole", "grave", "laser", "teleporter", "jack", "portal"} <= set(REACHES)
    for kind, reach in REACHES.items():
        assert kind in KINDS, kind
        written = f"**{reach.ruling} " if "." in reach.ruling else f"\n{reach.ruling}. "
        assert written in rulings, f"{kind}: ruling {reach.ruling} is not in docs/rulings.md"
        assert reach.what, kind
        if reach.wider is not None:  # the house rule keeping the old, wider reach
            assert reach.wider in Rules().to_dict() or hasattr(Rules(), reach.wider), kind


def test_every_kind_has_a_rank_of_its_own():
    """The rank orders drawing where elements share a square: two kinds with one rank would be drawn in an order
    nobody chose."""
    ranks = [kind.rank for kind in KINDS.values()]
    assert len(ranks) == len(set(ranks))


def test_a_kind_with_a_rank_already_taken_is_refused_at_registration():
    tar = Kind("tar_pit_sample", summary="a sample", rank=KINDS["water"].rank)
    with pytest.raises(ValueError, match=r"rank 21 is taken by 'water'; .*the next free one is 28"):
        register(tar)
    assert "tar_pit_sample" not in KINDS
