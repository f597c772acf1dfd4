"""A short game played turn by turn from the command line, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from tests.servers.processes import patience

from .conftest import COURSE, referee_process


def status(cli, code: str) -> dict:
    return json.loads(cli("game", "status", code, "--json").output)


def program_for(player: dict) -> list[str]:
    """The first cards of the hand, fused registers left as '-'."""
    hand = list(player["hand"])
    return [("-" if str(reg) in player["locked"] else hand.pop(0)) for reg in range(1, 6)]


def test_a_game_is_created_started_and_played_turn_by_turn_from_the_command_line(cli, tmp_path):
    out = cli("game", "new", "--course", COURSE, "--seed", "cli-e2e", "--title", "Friday game").output
    assert out.startswith("RR-1: new game on yardrace")
    for email, robot in (("alice@example.test", "Twonky"), ("bob@example.test", "Hammer"),
                         ("carol@example.test", "Zoom")):
        out = cli("game", "add-player", "RR-1", email, robot).output
        assert f"{robot} (" in out and f"played by {email}, secret " in out
    assert "started with 3 robots; turn 1 dealt" in cli("game", "start", "RR-1").output

    for turn in (1, 2, 3):
        view = status(cli, "RR-1")
        assert (view["status"], view["turn"]) == ("running", turn)
        owing = [p for p in view["players"] if p["orders"] == "owed"]
        assert owing, "someone must owe a program while the game runs"
        if turn == 2:
            # every program from one file, one per line
            lines = [f"{p['robot']}: {', '.join(program_for(p))}" for p in owing]
            path = tmp_path / "programs.txt"
            path.write_text("# turn 2\n" + "\n".join(lines) + "\n")
            out = cli("game", "program", "RR-1", "--file", str(path), "--turn", "2").output
            assert len(out.splitlines()) == len(owing)
        else:
            for p in owing:
                out = cli("game", "program", "RR-1", p["robot"], ", ".join(program_for(p))).output
                assert out.startswith(f"RR-1 turn {turn}, {p['robot']}: ")
        assert all(p["orders"] != "owed" for p in status(cli, "RR-1")["players"])
        out = cli("game", "resolve", "RR-1", "--turn", str(turn)).output
        assert out.startswith(f"RR-1: turn {turn} resolved")
        stored = json.loads(cli("game", "show-turn", "RR-1", str(turn), "--json").output)
        assert stored["status"] == "resolved" and stored["events"]
        assert stored["seed"].endswith(f":{turn}")
        assert set(stored["programs"]) == {p["robot"] for p in owing}
        assert "re-run from the snapshot gives the stored result" in cli("game", "replay", "RR-1", str(turn)).output
        text = cli("game", "show-turn", "RR-1", str(turn)).output
        assert "-- register phase 1 --" in text and "robots at the end:" in text
        if "won by" in out:
            break

    listing = cli("game", "list").output
    assert listing.startswith("RR-1") and "3 players" in listing and "Friday game" in listing
    text = cli("game", "status", "RR-1").output
    assert "alice@example.test" in text and "house rules: edge=pit lives=3 start=virtual" in text


def test_the_command_line_names_what_is_wrong(cli):
    bad = cli("game", "new", "--course", "nowhere", ok=False)
    assert bad.exit_code == 1 and "no board or course named 'nowhere'" in bad.output
    cli("game", "new", "RR-5", "--course", COURSE)
    cli("game", "add-player", "RR-5", "alice@example.test", "Twonky")
    dup = cli("game", "add-player", "rr-5", "bob@example.test", "twonky", ok=False)
    assert dup.exit_code == 1 and "RR-5 already has a robot named Twonky" in dup.output
    dup = cli("game", "add-player", "RR-5", "ALICE@example.test", "Hammer", ok=False)
    assert dup.exit_code == 1 and "alice@example.test already plays Twonky in RR-5" in dup.output
    cli("game", "start", "RR-5")
    again = cli("game", "start", "RR-5", ok=False)
    assert again.exit_code == 1 and "RR-5 is already running" in again.output
    late = cli("game", "add-player", "RR-5", "bob@example.test", "Hammer", ok=False)
    assert late.exit_code == 1 and "players join only while it is forming" in late.output
    wrong = cli("game", "program", "RR-5", "Twonky", "FWD2 670, RT90 80", ok=False)
    assert wrong.exit_code == 1 and "a program has 5 registers: give 5 cards; got 2" in wrong.output
    missing = cli("game", "resolve", "RR-5", ok=False)
    assert missing.exit_code == 1 and "still waits for a program from Twonky" in missing.output
    filled = cli("game", "resolve", "RR-5", "--fill", "random")
    assert "RR-5: turn 1 resolved" in filled.output
    assert cli("game", "resolve", "RR-5", "--turn", "1", ok=False).exit_code == 3
    unknown = cli("game", "status", "RR-6", ok=False)
    assert unknown.exit_code == 1 and "no game 'RR-6'" in unknown.output


def test_a_real_referee_process_shows_a_stored_turn(cli, db_url):
    cli("game", "new", "--course", COURSE, "--seed", "process")
    cli("game", "add-player", "RR-1", "alice@example.test", "Twonky")
    cli("game", "start", "RR-1")
    cli("game", "resolve", "RR-1", "--fill", "random")
    proc = referee_process(db_url, "game", "show-turn", "RR-1", "1", "--json")
    out, err = proc.communicate(timeout=patience(120))
    assert proc.returncode == 0, err
    turn = json.loads(out)
    assert turn["turn"] == 1 and turn["status"] == "resolved" and turn["orders"][0]["source"] == "auto"
