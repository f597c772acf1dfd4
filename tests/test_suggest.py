"""A mistyped board or course name is answered with the nearest real one."""

from __future__ import annotations

import pytest

from referee.boards import BoardNotFound, load_board
from referee.common.suggest import closest, did_you_mean


def test_a_mistyped_course_name_suggests_the_course():
    with pytest.raises(BoardNotFound, match="did you mean sprint"):
        load_board("sprnt")


def test_a_name_like_nothing_gets_no_suggestion():
    with pytest.raises(BoardNotFound) as caught:
        load_board("xyzzy")
    assert "did you mean" not in str(caught.value) and "referee board list" in str(caught.value)


def test_suggestions_ignore_case_and_keep_the_known_spelling():
    assert closest("facng", ["AT", "FACING", "DAMAGE"]) == "FACING"
    assert did_you_mean("LIVEZ", ["LIVES", "FLAGS"]) == " (did you mean LIVES?)"
    assert did_you_mean("banana", ["LIVES", "FLAGS"]) == ""
