"""Black Ice, the shipped board of the RoboFactory slides and pulls: it uses every kind of issue 14 and
plays them as the rule examples do."""

from referee.boards import load_board
from referee.boards.scenario import simulate

ISSUE_14 = ("ice", "oil", "sand", "soap", "puddle", "magnet", "black_hole", "portal", "mirror", "fog", "smoke",
            "smokestack", "ventilator", "mag_lock", "platform", "waterfall")


def _play(robots: list[dict], programs: dict[str, list[str]], phases: int) -> dict:
    return simulate({"board": "blackice", "robots": robots, "programs": programs, "phases": phases})


def test_black_ice_uses_every_element_of_the_slides_and_pulls():
    board = load_board("blackice")
    assert board.name == "Black Ice" and (board.width, board.height) == (12, 12)
    assert [k for k in ISSUE_14 if not board.has(k)] == []


def test_a_robot_crossing_the_rink_keeps_gliding_and_the_black_hole_pulls_its_column():
    result = _play([{"name": "Twonky", "at": "r2c2", "facing": "N"},
                    {"name": "Hulk", "at": "r3c10", "facing": "N"}],
                   {"Twonky": ["FWD1 490", "RT90 80"], "Hulk": ["LF90 70", "LF90 90"]}, phases=2)
    robots = {r["name"]: r for r in result["robots"]}
    assert (robots["Twonky"]["at"], robots["Twonky"]["facing"]) == ("r4c2", "E")  # glides on, spins
    assert robots["Hulk"]["at"] == "r5c10"  # pulled north toward the hole at r10c10, a square a phase


def test_a_robot_stepping_into_the_magnets_column_is_drawn_toward_it():
    result = _play([{"name": "Twonky", "at": "r2c2", "facing": "E"}], {"Twonky": ["FWD1 490"]}, phases=1)
    assert [e["text"] for e in result["events"] if e["robot"] == "Twonky"][:2] == ["move to r2c3", "pulled to r3c3"]
