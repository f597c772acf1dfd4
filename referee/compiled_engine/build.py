"""``referee compile-engine``'s work: compile the engine with mypyc into the cache folder of its key.

mypyc type-checks the engine, writes C, and setuptools' ``build_ext`` compiles and links it. The build runs in a
temporary folder beside the builds (also its working directory: setuptools must not read the project's
pyproject.toml, and nothing is written into the source tree), then the finished folder is renamed into place in
one step, its manifest written last, so a process never loads half a build. Needs mypy (the ``fast`` extra), a C
compiler and the Python headers.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from . import (
    ENGINE_DIR,
    MANIFEST,
    SHARED_LIBRARY,
    build_folder_name,
    builds_dir,
    compiled_modules,
    module_name,
    python_tag,
    read_build,
    source_key,
)

#: mypyc's C optimisation level by default (``-O3``: the fastest stored turn measured; see docs/engine.md)
DEFAULT_OPT_LEVEL = 3
#: one C file per engine module, compiled two at a time (measured: as fast a turn as one big file, a third less
#: processor time to build and about half the wall time on two cores)
MULTI_FILE = True
#: builds kept in the folder (other checkouts of other sources may use the older ones); the oldest go first
KEEP = 6
#: the file of a build folder saying how it was built (for ``referee doctor`` and people)
INFO = "build.json"


class BuildError(Exception):
    """The engine cannot be compiled here (the reason says what is missing or what failed)."""


@dataclass(frozen=True)
class Built:
    """A finished build: its folder, how long it took (0 when it was already there) and how it was made."""

    folder: Path
    seconds: float
    fresh: bool
    how: str


def missing_tools() -> list[str]:
    """What the build needs and this machine lacks: mypyc, a C compiler, the Python headers."""
    missing = []
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        missing.append("mypyc (pip install 'referee[fast]', which pins mypy and setuptools)")
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        missing.append(f"a C compiler ({compiler}; on Debian: apt-get install gcc)")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        missing.append(f"the Python headers ({headers}; on Debian: apt-get install python{version}-dev)")
    return missing


def how_built(opt_level: int) -> str:
    """The second part of a build folder's name: mypyc's version and the optimisation level."""
    from mypy.version import __version__ as mypy_version

    return f"mypyc{mypy_version}-O{opt_level}"


def build(opt_level: int = DEFAULT_OPT_LEVEL, *, jobs: int = 2, multi_file: bool = MULTI_FILE,
          root: Path | None = None) -> Built:
    """Compile the engine as its sources are now (unless that build is already there) and return where it is.
    ``multi_file``: one C file per module, compiled ``jobs`` at a time (else one big file).
    Raises :class:`BuildError` when a tool is missing, the compile fails or the sources change meanwhile."""
    missing = missing_tools()
    if missing:
        raise BuildError("cannot compile the engine: missing " + "; ".join(missing))
    root = Path(builds_dir()) if root is None else root
    key, how = source_key(), how_built(opt_level) + ("-multi" if multi_file else "")
    expected = [module_name(r) for r in compiled_modules()]
    folder = root / build_folder_name(key, how)
    if read_build(str(folder), expected) is not None:
        return Built(folder, 0.0, False, how)
    root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(dir=root, prefix=".build-") as tmp:
        work = Path(tmp)
        out = work / key
        out.mkdir()
        files, phases = _compile(work, out, opt_level, jobs, multi_file)
        if set(files) != {*expected, SHARED_LIBRARY}:
            raise BuildError(f"the build made other modules than expected: {sorted(set(files) ^ {*expected})}")
        if source_key() != key:
            raise BuildError("the engine's sources changed during the build: run it again")
        seconds = time.monotonic() - started
        info = {"key": key, "how": how, "python": python_tag(), "seconds": round(seconds, 1), **phases,
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        (out / INFO).write_text(json.dumps(info, indent=1) + "\n")
        (out / MANIFEST).write_text("".join(f"{name} {file}\n" for name, file in sorted(files.items())))
        try:
            out.rename(folder)
        except OSError:   # built meanwhile by another process: theirs is as good
            if read_build(str(folder), expected) is None:
                raise
    prune(root, keep=folder)
    return Built(folder, seconds, True, how)


def _compile(work: Path, out: Path, opt_level: int, jobs: int, multi_file: bool
             ) -> tuple[dict[str, str], dict[str, float]]:
    """Run mypyc and build_ext in ``work``; move each extension module into ``out`` (flat, named by its module).
    Returns module name -> file name, and the seconds of mypyc's and of the C compiler's part."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    sources = [os.path.join(ENGINE_DIR, r) for r in compiled_modules()]
    with _cwd(work), _parallel_compile(jobs):
        try:
            started = time.monotonic()
            extensions = mypycify(sources, opt_level=str(opt_level), debug_level="0", group_name="referee_engine",
                                  target_dir=str(work / "c"), multi_file=multi_file)
            generated = time.monotonic()
            dist = Distribution({"name": "referee-engine", "ext_modules": extensions})
            command: Any = dist.get_command_obj("build_ext")
            command.build_lib, command.build_temp = str(work / "lib"), str(work / "obj")
            command.parallel = jobs
            dist.run_command("build_ext")
            phases = {"mypyc_seconds": round(generated - started, 1),
                      "c_seconds": round(time.monotonic() - generated, 1)}
        except SystemExit as exc:   # mypyc reports type errors by exiting
            raise BuildError(f"mypyc could not compile the engine (exit status {exc.code}): see the lines above") \
                from None
        except Exception as exc:   # a compiler or linker failure: distutils' own error classes
            raise BuildError(f"the C build failed: {exc}") from exc
    suffix = EXTENSION_SUFFIXES[0]
    files: dict[str, str] = {}
    for path in sorted((work / "lib").rglob(f"*{suffix}")):
        name = path.relative_to(work / "lib").as_posix().removesuffix(suffix).replace("/", ".")
        files[name] = f"{name}{suffix}"
        path.rename(out / files[name])
    return files, phases


@contextlib.contextmanager
def _cwd(folder: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _parallel_compile(jobs: int) -> Iterator[None]:
    """Compile the C files of one extension ``jobs`` at a time (distutils compiles them one after the other; the
    mypyc runtime's files and the engine's are independent)."""
    from setuptools._distutils import ccompiler  # type: ignore[import-untyped]

    compiler_class: Any = ccompiler.CCompiler
    serial = compiler_class.compile

    def compile_all(self: Any, sources: list[str], output_dir: str | None = None, macros: Any = None,
                    include_dirs: Any = None, debug: bool = False, extra_preargs: Any = None,
                    extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, made = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = made[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            list(pool.map(one, [o for o in objects if o in made]))
        return list(objects)

    compiler_class.compile = compile_all
    try:
        yield
    finally:
        compiler_class.compile = serial


def prune(root: Path, keep: Path) -> None:
    """Remove the oldest builds beyond :data:`KEEP` (never ``keep``), and temporary folders left a day ago."""
    builds = sorted((p for p in root.iterdir() if (p / MANIFEST).is_file()),
                    key=lambda p: (p / MANIFEST).stat().st_mtime, reverse=True)
    for old in builds[KEEP:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)
    for left in root.glob(".build-*"):
        with contextlib.suppress(OSError):
            if time.time() - left.stat().st_mtime > 86400:
                shutil.rmtree(left, ignore_errors=True)


def built_info(folder: str) -> dict[str, Any]:
    """What ``build.json`` of a build folder says (empty when unreadable)."""
    try:
        found = json.loads((Path(folder) / INFO).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}
