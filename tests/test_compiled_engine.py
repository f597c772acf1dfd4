"""The compiled engine (``referee compile-engine``) is loaded only when it was built from the sources in the tree,
and plays exactly the turns the pure engine plays.

The first tests look for builds of a small engine folder made here (a few ``.py`` files) with build folders made
by hand: no compiler needed. The last ones run when this process runs the compiled engine (CI builds it in
``.ci/setup``): a child process with it and one with ``REFEREE_PURE_ENGINE=1`` play the same 300 turns and their
stored records must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import compiled_engine as ce
from referee.compiled_engine.cli import compile_engine_command
from tests.servers.processes import patience

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = EXTENSION_SUFFIXES[0]


@pytest.fixture
def engine(tmp_path: Path) -> Path:
    """An engine folder: a package with a module, an interpreted one and a subpackage with a module."""
    folder = tmp_path / "engine"
    (folder / "elements").mkdir(parents=True)
    for name, text in {"__init__.py": "", "board.py": "WIDTH = 12\n", "events.py": "EVENTS = ()\n",
                       "elements/__init__.py": "", "elements/gear.py": "TURN = 1\n"}.items():
        (folder / name).write_text(text)
    return folder


def make_build(root: Path, engine: Path, *, how: str = "mypyc2.4.1-O3", leave_out: str | None = None) -> Path:
    """A build folder for ``engine`` as it is now, as ``referee compile-engine`` lays it out (the extension files
    here are empty: these tests find them, never load them)."""
    folder = root / ce.build_folder_name(ce.source_key(str(engine)), how)
    folder.mkdir(parents=True)
    names = [ce.module_name(r) for r in ce.compiled_modules(str(engine))] + [ce.SHARED_LIBRARY]
    for name in names:
        (folder / f"{name}{SUFFIX}").write_bytes(b"")
    (folder / ce.MANIFEST).write_text("".join(f"{n} {n}{SUFFIX}\n" for n in names if n != leave_out))
    return folder


def test_the_packages_and_the_modules_that_patch_classes_stay_interpreted():
    compiled = ce.compiled_modules()
    assert "resolve.py" in compiled and "elements/gears.py" in compiled
    assert not {"events.py", "turn_result.py", "__init__.py", "elements/__init__.py"} & set(compiled)
    assert ce.module_name("elements/gears.py") == "referee.engine.elements.gears"


def test_a_build_of_the_sources_as_they_are_is_found(engine: Path, tmp_path: Path):
    folder = make_build(tmp_path / "builds", engine)
    found = ce.find_build([str(tmp_path / "builds")], str(engine))
    assert found is not None and found[0] == str(folder)
    assert set(found[1]) == {"referee.engine.board", "referee.engine.elements.gear", ce.SHARED_LIBRARY}


def test_an_edited_source_makes_the_build_stale(engine: Path, tmp_path: Path):
    make_build(tmp_path / "builds", engine)
    (engine / "elements" / "gear.py").write_text("TURN = -1\n")
    assert ce.find_build([str(tmp_path / "builds")], str(engine)) is None


def test_an_edited_interpreted_module_makes_the_build_stale_too(engine: Path, tmp_path: Path):
    """The compiled modules were type-checked against it (mypyc may have used its constants)."""
    make_build(tmp_path / "builds", engine)
    (engine / "events.py").write_text("EVENTS = ('moved',)\n")
    assert ce.find_build([str(tmp_path / "builds")], str(engine)) is None


def test_a_new_module_makes_the_build_stale(engine: Path, tmp_path: Path):
    make_build(tmp_path / "builds", engine)
    (engine / "elements" / "pit.py").write_text("DEPTH = 1\n")
    assert ce.find_build([str(tmp_path / "builds")], str(engine)) is None


def test_a_build_without_its_manifest_or_a_module_or_a_file_is_not_used(engine: Path, tmp_path: Path):
    unfinished = make_build(tmp_path / "a", engine)
    (unfinished / ce.MANIFEST).unlink()
    make_build(tmp_path / "b", engine, leave_out="referee.engine.board")
    lost = make_build(tmp_path / "c", engine)
    (lost / f"referee.engine.elements.gear{SUFFIX}").unlink()
    for root in ("a", "b", "c"):
        assert ce.find_build([str(tmp_path / root)], str(engine)) is None, root


def test_of_two_builds_of_the_same_sources_the_newest_is_used(engine: Path, tmp_path: Path):
    older = make_build(tmp_path / "builds", engine, how="mypyc2.4.1-O0")
    newer = make_build(tmp_path / "builds", engine, how="mypyc2.4.1-O3")
    os.utime(older / ce.MANIFEST, ns=(1, 1))
    found = ce.find_build([str(tmp_path / "builds")], str(engine))
    assert found is not None and found[0] == str(newer)


def test_the_finder_loads_only_the_builds_modules_from_their_files(engine: Path, tmp_path: Path):
    folder = make_build(tmp_path / "builds", engine)
    finder = ce.CompiledEngineFinder([str(tmp_path / "builds")], str(engine))
    spec = finder.find_spec("referee.engine.elements.gear", None)
    assert spec is not None and spec.origin == str(folder / f"referee.engine.elements.gear{SUFFIX}")
    assert type(spec.loader).__name__ == "ExtensionFileLoader"
    assert finder.find_spec("referee.engine.events", None) is None   # interpreted: from its source
    assert finder.find_spec("referee.engine", None) is None          # the package too
    assert finder.find_spec("json", None) is None
    assert finder.decide().active


def test_the_finder_steps_aside_when_no_build_matches(engine: Path, tmp_path: Path):
    make_build(tmp_path / "builds", engine)
    (engine / "board.py").write_text("WIDTH = 16\n")
    finder = ce.CompiledEngineFinder([str(tmp_path / "builds")], str(engine))
    assert finder.find_spec("referee.engine.board", None) is None
    assert not finder.decide().active and "no compiled engine matches" in finder.decide().reason


def run_child(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                          cwd=ROOT, timeout=patience(120), check=True)
    return done.stdout.strip()


PROBE = ("import referee.engine.resolve as r, referee.compiled_engine as c; s = c.status(); "
         "print(r.__file__.endswith('.py'), s.active, s.reason)")


def test_pure_engine_wins_over_a_matching_build(tmp_path: Path):
    """A build of the tree's engine (whose files would not even load): with ``REFEREE_PURE_ENGINE=1`` it is not
    looked at."""
    make_build(tmp_path, Path(ce.ENGINE_DIR))
    said = run_child(PROBE, REFEREE_PURE_ENGINE="1", REFEREE_ENGINE_DIR=str(tmp_path))
    assert said == "True False the pure engine: REFEREE_PURE_ENGINE=1"
    assert run_child("import sys, referee; print([type(f).__name__ for f in sys.meta_path][0])",
                     REFEREE_PURE_ENGINE="1") != "CompiledEngineFinder"


def test_without_a_build_the_engine_loads_from_its_sources(tmp_path: Path):
    said = run_child(PROBE, REFEREE_ENGINE_DIR=str(tmp_path))
    assert said.startswith("True False the pure engine: no compiled engine matches these sources")


def test_compile_engine_says_what_is_missing_without_a_traceback(tmp_path: Path):
    done = CliRunner().invoke(compile_engine_command, [], env={"CC": "no-such-compiler",
                                                              "REFEREE_ENGINE_DIR": str(tmp_path)})
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert "cannot compile the engine: missing" in done.output and "a C compiler" in done.output
    assert list(tmp_path.iterdir()) == []


# -- the compiled engine plays the same turns -------------------------------------------------------------------------
compiled = pytest.mark.skipif(not ce.status().active, reason=f"this process does not run the compiled engine "
                              f"({ce.status().reason}); `referee compile-engine` builds it")


def stored_records(course: str, options: int, **env: str) -> list[list[str]]:
    """Each turn's stored record (hashed) of 300 turns of 8 robots, as ``bench_engine.py --stored`` plays them."""
    said = subprocess.run([sys.executable, "benchmarks/bench_engine.py", "--json", "--stored", "--turns", "300",
                           "--course", course, "--options", str(options)], env={**os.environ, **env},
                          capture_output=True, text=True, cwd=ROOT, timeout=patience(600))
    assert said.returncode == 0, f"{env or 'compiled'}: {said.stderr[-2000:]}"
    digests: list[list[str]] = json.loads(said.stdout)["digests"]
    return digests


@compiled
def test_a_child_runs_the_compiled_engine_unless_told_not_to():
    assert run_child(PROBE).startswith("False True the compiled engine in ")
    assert run_child(PROBE, REFEREE_PURE_ENGINE="1").startswith("True False")


@compiled
@pytest.mark.parametrize(("course", "options"), [("grand-prix", 0), ("dense", 0), ("factory", 3)])
def test_compiled_and_pure_engines_store_the_same_turns(course: str, options: int):
    """300 turns each: the classic game on grand-prix, robots pushing and shooting each other all the time on the
    dense board, and option cards on factory."""
    pure = stored_records(course, options, REFEREE_PURE_ENGINE="1")
    fast = stored_records(course, options)
    differ = [turn for turn, (a, b) in enumerate(zip(pure, fast, strict=True)) if a != b]
    assert len(pure) == 300 and differ == [], f"the compiled engine stores other records from turn {differ[:1]}"
