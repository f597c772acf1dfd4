"""Programs with option cards: check_program knows the cards put on the Flywheel, the Conditional Program
and the Dual Processor (keyword arguments; the five-card check is unchanged)."""

import pytest

from referee.engine import parse_card
from referee.engine.programs import ProgramError, check_program

HAND = [parse_card(c) for c in ("FWD2 670", "RT90 80", "UTRN 10", "FWD3 790", "LF90 70", "FWD1 490", "RVS1 430",
                                "UTRN 20", "RT90 100", "LF90 90")]
PROGRAM = ["FWD2 670", "FWD3 790", "FWD1 490", "RVS1 430", "LF90 70"]


def test_cards_put_on_options_come_from_the_unused_hand():
    program = check_program("Twonky", HAND, {}, PROGRAM, options=["Flywheel", "Conditional Program", "Dual Processor"],
                            flywheel="RT90 100", conditional="UTRN 20", dual={1: "RT90 80", 2: "UTRN 10"})
    assert [str(c) for c in program] == PROGRAM


def test_every_problem_is_named_a_card_in_a_register_used_twice_not_held_or_not_in_the_hand():
    with pytest.raises(ProgramError) as err:
        check_program("Twonky", HAND, {}, PROGRAM, options=["Flywheel", "Dual Processor"], flywheel="FWD2 670",
                      conditional="UTRN 20", dual={1: "RT90 100", 2: "RT90 100"})
    assert err.value.problems == [
        "the Flywheel: FWD2 670 is already in register 1",
        "the Conditional Program: Twonky holds no Conditional Program",
        "the Dual Processor in register 2: RT90 100 is already on the Dual Processor in register 1",
        "the Dual Processor in register 2: RT90 100 cannot share a register with FWD3 790 "
        "(a Move 2 pairs with a left or right turn, a Move 3 with a U-turn)",
    ]
    with pytest.raises(ProgramError, match="FWD3 800 is not in Twonky's hand"):
        check_program("Twonky", HAND, {}, PROGRAM, flywheel="FWD3 800")


def test_without_the_new_arguments_a_program_is_checked_as_before():
    assert check_program("Twonky", HAND, {}, PROGRAM) == check_program("Twonky", HAND, {}, PROGRAM, options=[])
    with pytest.raises(ProgramError, match="register 5 is empty"):
        check_program("Twonky", HAND, {}, [*PROGRAM[:4], None])


def test_the_store_passes_the_option_arguments_on_and_reads_the_tenth_card_of_a_bigger_hand():
    from referee.store import ProgramError as StoreProgramError
    from referee.store.programs import check_program as store_check
    from referee.store.programs import parse_cards_text

    with pytest.raises(StoreProgramError, match="Twonky holds no Flywheel"):
        store_check("Twonky", HAND, {}, PROGRAM, options=[], flywheel="RT90 100")
    assert parse_cards_text("10, 1, 2, 3, 4", HAND) == ["LF90 90", "FWD2 670", "RT90 80", "UTRN 10", "FWD3 790"]
