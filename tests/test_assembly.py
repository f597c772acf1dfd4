"""Assembly Line, the shipped board of the RoboFactory machines that remember, and Factory, the
grand-prix-sized course of all four RoboFactory boards, played to a winner by the demo."""

from pathlib import Path

from referee.boards import load_board
from referee.boards.scenario import simulate
from referee.cli.demo import run_demo

NEW_KINDS = ("turret", "jack", "barricade", "piston", "flip_belt", "light_barrier", "hp_teleporter", "chop_shop",
             "reset_site", "rotating_room", "accelerator", "hydraulic_trapdoor", "melting_beam", "soporific_gas",
             "radio_beam", "fast_ramp", "copy_machine")


def _play(robots: list[dict], programs: dict[str, list[str]], phases: int, **top) -> dict:
    return simulate({"board": "assembly", "robots": robots, "programs": programs, "phases": phases, **top})


def test_assembly_line_uses_every_new_kind():
    board = load_board("assembly")
    assert board.name == "Assembly Line" and (board.width, board.height) == (12, 12)
    assert [k for k in NEW_KINDS if not board.has(k)] == []


def test_a_robot_breaking_into_the_chop_shop_needs_two_goes_and_the_board_remembers_the_first():
    robot = {"name": "Twonky", "at": "r10c11", "facing": "N"}
    first = _play([robot], {"Twonky": ["FWD1 490"]}, phases=1)
    assert first["robots"][0]["at"] == "r10c11"
    assert first["board_state"]["barricade"] == {"r11c11 S": 1}
    second = _play([robot], {"Twonky": ["FWD1 490"]}, phases=1, board_state=first["board_state"])
    assert second["robots"][0]["at"] == "r10c11"
    third = _play([robot], {"Twonky": ["FWD1 490"]}, phases=1, board_state=second["board_state"])
    assert third["robots"][0]["at"] == "r11c11"  # broken down: into the shop


def test_stepping_on_the_red_piston_slides_the_robot_on_the_blue_one_east():
    robots = [{"name": "Twonky", "at": "r4c2", "facing": "N"}, {"name": "Hulk", "at": "r7c2", "facing": "N"}]
    result = _play(robots, {"Twonky": ["FWD1 490"]}, phases=1)
    at = {r["name"]: r["at"] for r in result["robots"]}
    assert at == {"Twonky": "r5c2", "Hulk": "r7c3"}
    assert result["board_state"]["piston"] == {"blue": "up", "red": "down"}


def test_a_robot_stepping_onto_the_accelerator_ring_whirls_round_faster_each_phase():
    program = ["FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40"]  # onto the ring, then turning on it
    result = _play([{"name": "Twonky", "at": "r8c5", "facing": "E"}], {"Twonky": program}, phases=3)
    robot = result["robots"][0]
    assert robot["option_data"] == {"accelerator": {"speed": 3}}
    assert (robot["at"], robot["facing"]) == ("r7c7", "E")  # 1 + 2 + 3 = 6 squares round a ring of 4: two past r8c6


def test_the_factory_course_joins_boards_of_all_three_parts():
    course = load_board("factory")
    assert (course.width, course.height) == (24, 28)
    for kind in ("lava", "molten_ore", "ice", "black_hole", "hyper", "crossgear", "turret", "piston"):
        assert course.has(kind), kind


def test_the_demo_plays_the_factory_course_to_a_winner(tmp_path: Path):
    lines: list[str] = []
    result = run_demo(tmp_path / "demo", turns=40, course="factory", echo=lines.append)
    assert result.winner is not None
    assert any(line.endswith(f"{result.winner} wins") for line in lines)
