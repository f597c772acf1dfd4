"""The turn report's tables: the eight lines of each stage, the end of turn, and the player's own section.

Rulings cited (docs/rulings.md): 18.7.
"""

from __future__ import annotations

import re

from referee.boards.scenario import parse_scenario
from referee.engine import Robot, build_board, parse_card, resolve_turn
from referee.engine.geometry import E, N, square_name
from referee.render import (
    build_private,
    build_report,
    make_players,
    private_html,
    private_text,
    report_html,
    report_text,
    text_table,
)
from referee.render.tables import Column, Row, Table

from .conftest import GAME, ME, ORDER_TEMPLATE, TURN, SeededTurn
from .golden import check_golden


def _report(seeded: SeededTurn):
    return build_report(seeded.board, seeded.result, seeded.players, GAME, TURN)


def _cell(table: Table, row: str, robot: str) -> list[str]:
    col = [c.robot for c in table.columns].index(robot)
    return next(r for r in table.rows if r.key == row).cells[col]


def _files(report) -> dict[str, str]:
    return {key: f"{key}.png" for key in report.images}


# -- the fixed turn, and its golden renderings ----------------------------------------------------
def test_the_seeded_turn_has_pushes_belts_lasers_a_destruction_and_a_flag(seeded: SeededTurn):
    events = seeded.result.events
    assert any(e.text.startswith("pushed to") and (e.data or {}).get("priority") for e in events)
    assert any(e.text.startswith("pushed to") and (e.data or {}).get("by") == "pusher" for e in events)
    assert any(e.step == "belts" and e.text.startswith("conveyed to") for e in events)
    assert any(e.step == "lasers" and (e.data or {}).get("hit") for e in events)
    assert any(str((e.data or {}).get("by", "")).startswith("board laser") for e in events)
    assert any(e.text == "destroyed" for e in events)
    assert any(e.text.startswith("touch flag") for e in events)
    assert any(e.text.startswith("register") and e.text.endswith("fused") for e in events)


def test_report_text_matches_its_golden_file(seeded: SeededTurn):
    report = _report(seeded)
    check_golden("report.txt", report_text(report, _files(report)))


def test_report_html_matches_its_golden_file(seeded: SeededTurn):
    report = _report(seeded)
    urls = {key: f"cid:{key}@example.test" for key in report.images}
    check_golden("report.html", report_html(report, urls, gif_url="turn.gif"))


def test_private_text_and_html_match_their_golden_files(seeded: SeededTurn, next_deal):
    me = next(p for p in seeded.players if p.robot == ME)
    robot = next(r for r in seeded.result.robots if r.name == ME)
    section = build_private(me, TURN + 1, next_deal.hands.get(ME, []), next_deal.locked.get(ME, {}), ORDER_TEMPLATE,
                            robot, seeded.board.flag_count, deadline="Thu, 26 Nov 2026 18:00 UTC")
    check_golden("private.txt", private_text(section))
    check_golden("private.html", private_html(section))


# -- what the lines say -----------------------------------------------------------------------------
def test_a_push_is_written_on_the_pushed_robot_with_who_pushed_and_the_card(seeded: SeededTurn):
    report = _report(seeded)
    pushes = [e for e in seeded.result.events if e.text.startswith("pushed to") and (e.data or {}).get("priority")]
    assert pushes
    for ev in pushes:
        phase = int(ev.phase)
        card = seeded.result.played[ev.data["by"]][phase - 1]
        assert card.priority == ev.data["priority"]
        assert f"{ev.text} by {ev.data['by']} ({card})" in _cell(report.tables[phase - 1], "moves", ev.robot)


def test_a_push_by_a_board_element_names_the_element(seeded: SeededTurn):
    report = _report(seeded)
    [ev] = [e for e in seeded.result.events if (e.data or {}).get("by") == "pusher"]
    assert f"{ev.text} (pusher)" in _cell(report.tables[int(ev.phase) - 1], "board", ev.robot)


def test_robot_lasers_list_only_the_hits_with_their_squares(seeded: SeededTurn):
    report = _report(seeded)
    fire = [e for e in seeded.result.events if e.step == "lasers" and "hit" in (e.data or {})]
    hits = [e for e in fire if e.data["hit"]]
    misses = [e for e in fire if not e.data["hit"]]
    assert hits and misses
    for ev in hits:
        cell = _cell(report.tables[int(ev.phase) - 1], "lasers", ev.robot)
        assert re.fullmatch(r"r\d+(-\d+)?c\d+(-\d+)?", cell[cell.index(ev.text)])
        assert cell[cell.index(ev.text) + 1] == f"hits {ev.data['hit']}"
    for ev in misses:
        assert ev.text not in _cell(report.tables[int(ev.phase) - 1], "lasers", ev.robot)


def test_every_stage_and_the_end_of_turn_say_where_each_robot_stands_and_faces(seeded: SeededTurn):
    report = _report(seeded)
    frames = seeded.result.frames
    for phase, table in enumerate(report.tables, start=1):
        for robot in frames[min(phase, len(frames) - 1)]:
            cell = _cell(table, "position", robot.name)
            if robot.pos is None:
                assert cell == ["-"]
            else:
                assert cell == [f"{square_name(robot.pos)} facing {'NESW'[robot.facing]}"]


def _blocked_turn(robots: list[dict], programs: dict, walls: list[dict] = ()):
    scenario = {"board": {"width": 6, "height": 6, "name": "Yard", "elements": list(walls)},
                "robots": robots, "programs": programs, "seed": 1}
    args = parse_scenario(scenario)
    result = resolve_turn(args["board"], args["robots"], args["programs"], rules=args["rules"], seed=args["seed"],
                          phases=1)
    players = make_players([r.name for r in args["robots"]])
    return build_report(args["board"], result, players, "RR-9", 1)


def test_an_obstruction_by_a_wall_names_the_wall_side():
    report = _blocked_turn([{"name": "Twonky", "at": "r2c2", "facing": "E"}],
                           {"Twonky": ["FWD2 670", "FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520"]},
                           [{"kind": "wall", "at": "r2c3", "sides": ["E"]}])
    cell = _cell(report.tables[0], "moves", "Twonky")
    assert cell == ["move to r2c3", "blocked by the wall on the E side of r2c3"]


def test_an_obstruction_by_a_robot_that_cannot_be_pushed_names_the_robot():
    report = _blocked_turn([{"name": "Twonky", "at": "r2c1", "facing": "E"},
                            {"name": "Hammer", "at": "r2c2", "facing": "N"}],
                           {"Twonky": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"],
                            "Hammer": ["LF90 70", "LF90 90", "LF90 110", "LF90 130", "LF90 150"]},
                           [{"kind": "wall", "at": "r2c2", "sides": ["E"]}])
    assert _cell(report.tables[0], "moves", "Twonky") == ["blocked by Hammer at r2c2, who could not be pushed"]


def test_the_hp_line_ends_with_each_robots_hp_after_the_stage(seeded: SeededTurn):
    report = _report(seeded)
    for phase, table in enumerate(report.tables[: seeded.result.phases_run], start=1):
        for robot in seeded.result.frames[phase]:
            cell = _cell(table, "hp", robot.name)
            if robot.pos is not None:
                assert cell[-1] == f"{robot.hp} HP"


def test_a_robot_destroyed_in_a_pit_is_shown_where_it_happened_then_as_destroyed(seeded: SeededTurn):
    report = _report(seeded)
    [death] = [e for e in seeded.result.events if e.text == "destroyed"]
    phase = int(death.phase)
    table = report.tables[phase - 1]
    assert "destroyed (pit)" in _cell(table, "moves", death.robot)
    assert _cell(table, "mode", death.robot)[0].endswith("-> destroyed")
    assert _cell(table, "hp", death.robot) == ["destroyed"]
    for later in report.tables[phase : seeded.result.phases_run]:
        assert _cell(later, "mode", death.robot) == ["destroyed"]
        assert _cell(later, "card", death.robot) == ["-"]


def test_the_checkpoint_line_appears_only_in_stages_where_a_checkpoint_was_touched(seeded: SeededTurn):
    report = _report(seeded)
    touched = {int(e.phase) for e in seeded.result.events
               if isinstance(e.phase, int) and (e.text.startswith("archive") or e.text.startswith("touch flag"))}
    for phase, table in enumerate(report.tables[: seeded.result.phases_run], start=1):
        assert ("checkpoints" in [r.key for r in table.rows]) == (phase in touched)


def test_a_virtual_robot_turning_real_shows_in_its_mode(seeded: SeededTurn):
    report = _report(seeded)
    for ev in seeded.result.events:
        if ev.text == "real" and isinstance(ev.phase, int):
            assert _cell(report.tables[ev.phase - 1], "mode", ev.robot)[0] == "virtual -> real"


def test_the_end_table_lists_fused_registers_and_the_re_entry(seeded: SeededTurn):
    report = _report(seeded)
    end = report.tables[-1]
    assert end.key == "end"
    for robot in seeded.result.robots:
        fused = [f"register {reg}: {card}" for reg, card in sorted(robot.locked.items())]
        if fused:
            assert _cell(end, "fused", robot.name)[: len(fused)] == fused
        assert _cell(end, "hp", robot.name)[-1] == f"{robot.lives} robot{'s' if robot.lives != 1 else ''} left"
    [entry] = [e for e in seeded.result.events if e.text.startswith("re-enter at")]
    assert _cell(end, "mode", entry.robot) == ["destroyed -> virtual"]
    assert _cell(end, "archive", entry.robot) == [entry.text.removeprefix("re-enter at "),
                                                  f"re-enters facing {entry.data['facing']}"]


def test_every_line_of_the_text_report_fits_a_78_column_terminal(seeded: SeededTurn):
    report = _report(seeded)
    text = report_text(report, _files(report))
    assert max(len(line) for line in text.splitlines()) <= 78


def test_eight_players_are_split_into_two_blocks_of_four():
    names = ["Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop"]
    cols = [Column(p.robot, p.label, p.colour, p.hex) for p in make_players(names)]
    table = Table("stage1", "Stage 1", cols, [Row("card", "card", [[f"FWD1 {490 + 10 * i}"] for i in range(8)])])
    text = text_table(table)
    blocks = text.split("\n\n")
    assert len(blocks) == 2
    assert [sum(name in b.splitlines()[0] for name in names) for b in blocks] == [4, 4]
    assert max(len(line) for line in text.splitlines()) <= 78


def test_a_long_cell_wraps_inside_its_column():
    cols = [Column("A", "A", "red", "#ff0000"), Column("B", "B", "blue", "#0000ff")]
    long = "pushed to r12c14 at 670 and then obstruction encountered"
    text = text_table(Table("stage1", "Stage 1", cols, [Row("moves", "moves", [[long], ["face E"]])]))
    lines = text.splitlines()
    rule = lines[2]
    widths = [len(part) for part in rule.split("  ")]
    start_b = widths[0] + 2 + widths[1] + 2
    moves = lines[3:]
    assert len(moves) > 1
    assert all(len(line[widths[0] + 2: start_b].rstrip()) <= widths[1] for line in moves)
    assert " ".join(line[widths[0] + 2: start_b].strip() for line in moves) == long
    assert moves[0][start_b:].strip() == "face E"


def test_html_escapes_what_players_chose_to_call_themselves(seeded: SeededTurn):
    players = make_players([p.robot for p in seeded.players], labels={"Zoom": "<b>Zoom</b> & co"})
    report = build_report(seeded.board, seeded.result, players, GAME, TURN)
    html = report_html(report, {})
    assert "&lt;b&gt;Zoom&lt;/b&gt; &amp; co" in html
    assert "<b>Zoom</b>" not in html


# -- turns that end early, and robots that are powered down -------------------------------------------
def test_a_win_ends_the_report_at_the_winning_stage():
    board = build_board({"width": 4, "height": 4, "elements": [{"kind": "flag", "at": "r3c1", "number": 1}]})
    robots = [Robot("Twonky", (1, 1), N), Robot("Hammer", (1, 3), E)]
    programs = {"Twonky": [parse_card(c) for c in ("FWD2 670", "FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520")],
                "Hammer": [parse_card(c) for c in ("RT90 80", "RT90 100", "RT90 120", "RT90 140", "RT90 160")]}
    result = resolve_turn(board, robots, programs)
    report = build_report(board, result, make_players(["Twonky", "Hammer"]), GAME, TURN)
    assert result.winner == "Twonky"
    assert report.winner == "Twonky"
    assert [t.key for t in report.tables] == [f"stage{k}" for k in range(1, result.phases_run + 1)]
    assert report.images == ["start"] + [f"stage{k}" for k in range(1, result.phases_run + 1)]
    assert "WINS THE GAME" in _cell(report.tables[-1], "checkpoints", "Twonky")
    assert "Twonky has touched the last flag and wins the game." in report_text(report)


def test_a_powered_down_robot_shows_its_repairs_and_plays_no_card():
    board = build_board({"width": 4, "height": 4})
    sleeper = Robot("Twonky", (1, 1), N, damage=5, powered_down=True, locked={5: parse_card("FWD1 490")})
    result = resolve_turn(board, [sleeper], {})
    table = build_report(board, result, make_players(["Twonky"]), GAME, TURN).tables[0]
    assert _cell(table, "mode", "Twonky") == ["real, powered down", "+5 HP", "register 5 released"]
    assert _cell(table, "card", "Twonky") == ["powered down"]
    assert _cell(table, "hp", "Twonky") == ["10 HP"]


def test_the_private_section_numbers_the_hand_and_names_the_fused_registers():
    player = make_players(["Zoom"])[0]
    hand = [parse_card(c) for c in ("FWD2 670", "RT90 80", "UTRN 10")]
    locked = {4: parse_card("FWD1 490"), 5: parse_card("LF90 70")}
    section = build_private(player, 5, hand, locked, "BEGIN RR-7 Zoom turn 5\nEND\n")
    text = private_text(section)
    assert [line.split() for line in text.splitlines() if re.match(r"^\s+\d\s+\S+ \d+$", line)] == [
        ["1", "FWD2", "670"], ["2", "RT90", "80"], ["3", "UTRN", "10"]]
    assert "register 4: FWD1 490" in text and "register 5: LF90 70" in text
    assert "Program registers 1, 2, 3 from your hand." in text
    assert text.rstrip().endswith("BEGIN RR-7 Zoom turn 5\nEND")


def test_your_robot_names_the_lasting_statuses_it_carries_as_declared():
    """A burning robot is told so in its own section of the turn mail, in the words napalm declares."""
    player = make_players(["Hammer"])[0]
    burning = Robot("Hammer", (1, 1), E, damage=7, statuses={"burning"})
    section = build_private(player, 6, [], {}, "BEGIN RR-7 Hammer turn 6\nEND\n", burning)
    assert section.status[0] == "3 HP at r1c1 facing E, real, burning (napalm)"
    plain = Robot("Zoom", (1, 1), E)
    assert build_private(player, 6, [], {}, "", plain).status[0] == "10 HP at r1c1 facing E, real"


def test_a_reboot_announced_for_next_turn_is_on_the_reboot_line_not_the_mode():
    board = build_board({"width": 4, "height": 4})
    robot = Robot("Twonky", (2, 2), N, damage=3, power_down_next=True)
    result = resolve_turn(board, [robot], {})
    end = build_report(board, result, make_players(["Twonky"]), GAME, TURN).tables[-1]
    assert _cell(end, "reboot", "Twonky") == ["reboots next turn"]
    assert _cell(end, "mode", "Twonky") == ["real"]
    assert _cell(end, "hp", "Twonky") == ["7 HP", "3 robots left"]


def test_the_private_section_says_the_shortest_way_to_answer_first(seeded: SeededTurn, next_deal):
    me = next(p for p in seeded.players if p.robot == ME)
    hand = next_deal.hands.get(ME, [])
    section = build_private(me, TURN + 1, hand, next_deal.locked.get(ME, {}), ORDER_TEMPLATE, None, 2,
                            deadline="Thu 26 Nov 2026, 18:00 UTC (in 2 days)")
    first = private_text(section).split("\n\n")[0]
    assert first.startswith("HOW TO ANSWER: reply to this mail and write your")
    assert "at the top" in first and "Thu 26 Nov 2026, 18:00 UTC" in " ".join(first.split())
    assert "How to answer:" in private_html(section).split("Your robot")[0]


def test_in_a_pushing_chain_the_robot_pushed_along_names_the_robot_that_started_it():
    report = _blocked_turn([{"name": "Zoom", "at": "r2c1", "facing": "E"},
                            {"name": "Hammer", "at": "r2c2", "facing": "N"},
                            {"name": "Twonky", "at": "r2c3", "facing": "N"}],
                           {"Zoom": ["FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530"],
                            "Hammer": ["LF90 70", "LF90 90", "LF90 110", "LF90 130", "LF90 150"],
                            "Twonky": ["RT90 80", "RT90 100", "RT90 120", "RT90 140", "RT90 160"]})
    stage = report.tables[0]
    assert "pushed to r2c3 by Zoom (FWD1 490)" in _cell(stage, "moves", "Hammer")
    assert "pushed to r2c4 by Hammer, pushed by Zoom (FWD1 490)" in _cell(stage, "moves", "Twonky")


def test_a_name_with_bidi_controls_is_written_without_them_in_text_and_html(seeded: SeededTurn):
    """A player named "Twonky\u202eZZ" (a right-to-left override in the middle): every report writes the name
    with the override taken out, so it cannot turn the rest of a line around; other names are untouched."""
    report = _report(seeded)
    first = report.columns[0]
    report.columns[0] = Column(first.robot, f"{first.label}\u202eZZ", first.colour, first.hex)
    report.late = "Late players: no orders came from Zoom\u2066 for turn 4."
    text = report_text(report, _files(report))
    html = report_html(report, {})
    for written in (text, html):
        assert "\u202e" not in written and "\u2066" not in written
        assert f"{first.label}ZZ" in written
        assert "no orders came from Zoom for turn 4." in written
    assert report.columns[1].label in text and report.columns[1].label in html
