"""Course authoring (issue 43): ``board check`` lists every error of a course file in one run, numbered as in
the file, with did-you-mean; ``board show --png`` draws a failing course with its errors marked."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from referee.cli import main

COURSE = """\
kind = "course"
name = "patchy"
players = [2, 4]
[[place]]
board = "dock"
at = "r1c1"
[[place]]
board = "switchyrd"
at = "r5c1"
[[place]]
board = "dock"
at = "r1c1"
trun = 1
[[elements]]
kind = "flag"
at = "r2c2"
number = 1
[[elements]]
kind = "flgg"
at = "r3c3"
[[elements]]
kind = "belt"
at = "r3c4"
dirction = "N"
[[elements]]
kind = "pit"
at = "r99c99"
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args), env={"REFEREE_CONFIG": ""})


def test_every_error_of_a_course_file_in_one_run_numbered_as_in_the_file(tmp_path: Path):
    course = tmp_path / "patchy.toml"
    course.write_text(COURSE)
    done = run("board", "check", str(course))
    assert done.exit_code == 1
    errors = [line for line in done.output.splitlines() if line.startswith("error")]
    assert errors == [
        f"error  {course}: place 2: no board or course named 'switchyrd' (did you mean switchyard? see "
        "'referee board list')",
        f"error  {course}: place 3: unknown field 'trun' (did you mean turn?)",
        f"error  {course}: element 2 (flgg at r3c3): unknown element kind 'flgg' (did you mean flag?)",
        f"error  {course}: element 3 (belt at r3c4): unknown field 'dirction' for belt (fields: dir)",
        f"error  {course}: element 4 (pit at r99c99): r99c99 is off the 12x4 board",
    ]


def test_a_failing_course_is_drawn_with_its_errors_framed(tmp_path: Path):
    course = tmp_path / "patchy.toml"
    course.write_text(COURSE)
    picture = tmp_path / "patchy.png"
    done = run("board", "show", str(course), "--png", str(picture))
    assert done.exit_code == 1
    assert "error 3: " in done.output and "framed in red" in done.output
    drawn = Image.open(picture).convert("RGB")
    sound = tmp_path / "sound.png"
    course.write_text(COURSE.split("[[place]]\nboard = \"switchyrd\"")[0] + '[[elements]]\nkind = "flag"\n'
                      'at = "r2c2"\nnumber = 1\n')
    assert run("board", "show", str(course), "--png", str(sound)).exit_code == 0
    clean = Image.open(sound).convert("RGB")
    assert drawn.size == clean.size
    red = [(x, y) for x in range(drawn.width) for y in range(drawn.height // 2)
           if drawn.getpixel((x, y)) == (220, 0, 0) and clean.getpixel((x, y)) != (220, 0, 0)]
    assert red   # the frames of the errors' squares (r3c3, r3c4)
