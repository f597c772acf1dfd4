"""Pressor Beam: instead of the main laser, the target is pushed one square away; no damage."""

from tests.engine.scenarios import bot, pit

from .helpers import decisions, holder, run


def test_the_target_is_pushed_away_without_damage_in_the_registers_ordered():
    out = run([holder("Twonky", "r3c3", "N", "Pressor Beam"), bot("Hulk", "r5c3", "E")], phases=2,
              orders={"Twonky": {"fire": {"2": "pressor beam"}}})
    assert (out.damage("Hulk"), out.at("Hulk")) == (1, "r6c3")  # register 1: the main laser; register 2: pushed
    assert [(d["register"], d["answer"]) for d in decisions(out, "fire")] == [(1, "main laser"), (2, "pressor beam")]


def test_the_push_moves_a_robot_behind_along_and_a_pit_swallows():
    out = run([holder("Twonky", "r3c3", "N", "Pressor Beam"), bot("Hulk", "r5c3", "E"), bot("Zoom", "r6c3", "E")], {},
              [pit("r7c3")], phases=1, orders={"Twonky": {"fire": {"1": "Pressor Beam"}}})
    assert (out.at("Hulk"), out.at("Zoom")) == ("r6c3", None)


def test_a_virtual_target_is_not_in_the_beam_and_a_standing_order_fires_it():
    out = run([holder("Twonky", "r3c3", "N", "Pressor Beam"), bot("Hulk", "r5c3", "E", virtual=True),
               bot("Zoom", "r7c3", "E")], phases=1, standing={"Twonky": {"fire": {"1": "Pressor Beam"}}})
    assert (out.at("Hulk"), out.at("Zoom"), out.damage("Zoom")) == ("r5c3", "r8c3", 0)
