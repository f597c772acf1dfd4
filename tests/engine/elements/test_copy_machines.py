"""Copy machines: running against the button makes a tamagotchi beyond the wall, a virtual copy that plays its
robot's cards, touches flags for it, vanishes at the machine where it arose, and dies with its robot.

Rulings cited (docs/rulings.md): 15.r4.
"""

from referee.engine import Robot, deal_turn, parse_card, resolve_turn
from referee.engine.snapshot import robot_from_dict, robot_to_dict
from referee.engine.state import COPIED, TAMAGOTCHI

from ..scenarios import element, engine_board, flag, pit

MACHINE = element("copy_machine", "r3c4", dir="E")  # button side r3c4, antenna side r3c5
COPY = "Twonky (tamagotchi)"


def cards(*texts):
    return [parse_card(t) for t in texts]


def turn(program, *extra, robots=None, board=None):
    board = board or engine_board([MACHINE, *extra])
    return resolve_turn(board, robots or [Robot("Twonky", (3, 3), 1)], {"Twonky": cards(*program)}, seed=1)


def by_name(result):
    return {r.name: r for r in result.robots}


def test_running_against_the_button_makes_a_tamagotchi_beyond_the_wall_that_plays_the_robots_cards():
    result = turn(["FWD2 700", "UTRN 10", "FWD3 800", "UTRN 20", "FWD1 490"])
    robots = by_name(result)
    twonky, copy = robots["Twonky"], robots[COPY]
    texts = [e.text for e in result.events if e.phase == 1]
    assert "starts the copy machine" in texts and "arises at r3c5 (copy machine)" in texts
    assert twonky.pos == (3, 2) and copy.pos == (3, 7)   # mirror images: the copy began facing the machine (west)
    assert copy.virtual and copy.statuses == {TAMAGOTCHI} and twonky.statuses == {COPIED}
    assert result.played[COPY] == [None, *cards("UTRN 10", "FWD3 800", "UTRN 20", "FWD1 490")]
    assert "real" not in [e.kind for e in result.events if e.robot == COPY]   # alone, yet virtual all turn


def test_the_tamagotchi_vanishes_running_against_the_machine_where_it_arose_and_a_new_one_can_be_made():
    # register 1 makes it facing west at r3c5; register 2's Move 1 runs both against the machine, one from
    # each side: the robot already has a copy, the copy vanishes; register 3 makes a new one
    result = turn(["FWD2 700", "FWD1 490", "FWD1 500", "UTRN 10", "UTRN 20"])
    events = [(e.phase, e.robot, e.kind) for e in result.events if e.kind in ("vanishes", "arises")]
    assert events == [(1, COPY, "arises"), (2, COPY, "vanishes"), (3, COPY, "arises")]
    assert by_name(result)[COPY].pos == (3, 5)
    once = turn(["FWD2 700", "FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30"])
    assert list(by_name(once)) == ["Twonky"] and by_name(once)["Twonky"].statuses == set()
    assert TAMAGOTCHI not in by_name(once)["Twonky"].option_data


def test_the_tamagotchi_falling_in_a_pit_destroys_its_robot_too_and_leaves_the_game():
    result = turn(["FWD2 700", "UTRN 10", "FWD2 710", "UTRN 20", "UTRN 30"], pit("r3c7"))
    twonky = by_name(result)["Twonky"]
    assert COPY not in by_name(result)
    destroyed = [(e.robot, e.data["cause"]) for e in result.events if e.kind == "destroyed"]
    assert destroyed == [(COPY, "pit"), ("Twonky", "tamagotchi")]
    assert twonky.lives == 2 and twonky.pos == twonky.archive   # re-entered at its archive, as any robot


def test_the_robot_destroyed_takes_its_tamagotchi_with_it():
    result = turn(["FWD2 700", "UTRN 10", "FWD3 800", "UTRN 20", "UTRN 30"], pit("r3c1"))
    destroyed = [(e.robot, e.data["cause"]) for e in result.events if e.kind == "destroyed"]
    assert destroyed == [("Twonky", "pit"), (COPY, "tamagotchi")]
    assert COPY not in by_name(result) and by_name(result)["Twonky"].lives == 2


def test_a_flag_the_tamagotchi_touches_counts_for_its_robot_and_can_win():
    board = engine_board([MACHINE, flag("r3c8", 1), flag("r9c9", 2)])
    one = turn(["FWD2 700", "UTRN 10", "FWD3 800", "UTRN 20", "UTRN 30"], board=board)
    assert by_name(one)["Twonky"].flags == 1 and one.winner is None
    last = engine_board([MACHINE, flag("r3c8", 1)])
    won = turn(["FWD2 700", "UTRN 10", "FWD3 800", "UTRN 20", "UTRN 30"], board=last)
    assert won.winner == "Twonky" and won.phases_run == 3


def test_next_turn_the_tamagotchi_gets_no_hand_plays_its_robots_program_and_survives_a_snapshot():
    first = turn(["FWD2 700", "UTRN 10", "UTRN 20", "UTRN 30", "LF90 70"])   # robot faces S, its copy N
    stored = [robot_to_dict(r) for r in first.robots]
    robots = [robot_from_dict(d) for d in stored]
    assert robots == first.robots
    deal = deal_turn(robots, "turn 2")
    assert list(deal.hands) == ["Twonky"]
    program = cards("FWD1 490", "RT90 80", "FWD1 500", "UTRN 10", "UTRN 20")
    second = by_name(resolve_turn(engine_board([MACHINE]), robots, {"Twonky": program}))
    assert second["Twonky"].pos == (2, 3) and second["Twonky"].facing == 3
    assert second[COPY].pos == (4, 6) and second[COPY].facing == 1
    old = {k: v for k, v in stored[0].items() if k not in ("statuses", "option_data")}
    assert robot_from_dict(old).statuses == set()   # a snapshot from before tamagotchis still loads


def test_a_scenario_gives_a_tamagotchi_and_the_result_and_the_report_table_show_it():
    from referee.render.players import make_players
    from referee.render.tables import build_report, text_table

    from ..scenarios import play, robot

    tamagotchi = robot(COPY, "r3c7", "W", tamagotchi={"of": "Twonky", "arose": "r3c5"})
    out = play([MACHINE], [robot("Twonky", "r3c1", "E"), tamagotchi], {"Twonky": ["FWD2 700"]}, width=9, phases=1)
    copy = out.robot(COPY)
    assert out.at(COPY) == "r3c5" and out.at("Twonky") == "r3c3" and copy["virtual"]
    assert copy["statuses"] == ["tamagotchi"] and copy["option_data"]["tamagotchi"]["of"] == "Twonky"
    again = play([MACHINE], [robot("Twonky", "r3c1", "E"), tamagotchi], {"Twonky": ["FWD2 700", "FWD1 490"]},
                 width=9, phases=2)
    assert again.at(COPY) is None and "touches the copy machine and vanishes" in again.texts(COPY, 2)
    board = engine_board([MACHINE])
    result = turn(["FWD2 700", "UTRN 10", "UTRN 20", "UTRN 30", "LF90 70"], board=board)
    nxt = resolve_turn(board, result.robots, {"Twonky": cards("FWD1 490", "RT90 80", "FWD1 500", "UTRN 10",
                                                               "UTRN 20")})
    table = text_table(build_report(board, nxt, make_players(["Twonky"]), "RR-1", 2).blocks[1].table)
    mode = next(line for line in table.splitlines() if line.startswith("mode"))
    assert mode.split()[1:] == ["real", "tamagotchi"]


def test_a_tamagotchi_crossing_a_radio_beam_takes_no_cards_it_plays_its_robots():
    from referee.engine import Rules

    board = engine_board([MACHINE, element("radio_beam", "r3c6")])
    program = cards("FWD2 700", "UTRN 10", "FWD1 490", "UTRN 20", "UTRN 30")
    for rule in ("original", "revised"):
        result = resolve_turn(board, [Robot("Twonky", (3, 3), 1)], {"Twonky": program}, rules=Rules(radio_beam=rule))
        copy = by_name(result)[COPY]
        assert copy.pos == (3, 6) and copy.locked == {}
        assert [e for e in result.events if e.kind in ("radio card", "radio program")] == []
        assert result.played[COPY][2:] == program[2:]
