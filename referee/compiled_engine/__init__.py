"""The engine compiled to C with mypyc, used only when it was built from exactly the sources in the tree.

``referee compile-engine`` (:mod:`.build`) compiles the modules of :func:`compiled_modules` into a folder of the
cache named by the key of the engine's sources (:func:`source_key`: every ``referee/engine/**/*.py``, which of
them are compiled, and the Python they were built for). :func:`activate` runs as ``referee`` is imported: unless
``REFEREE_PURE_ENGINE=1`` it installs an import finder that, at the first import of an engine module, computes the
key of the sources as they are now and, when a whole build for that key is there, loads exactly its modules (and
mypyc's shared library) from it; otherwise it steps aside and the engine loads from its sources. An edited engine
therefore runs from its sources until it is compiled again: a stale extension module is never loaded. The
compiled engine gives exactly the results of the pure one (tests/test_compiled_engine.py compares them).

This module runs in every process (cron starts one per tick), so it imports only what the interpreter has loaded
at start-up; a process that never imports the engine (``referee --version``, ``referee ingest``) pays nothing
more. See docs/engine.md.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: the engine's package folder (its sources are read here, never imported)
ENGINE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine")
#: engine modules left interpreted: they add properties to the engine's classes after the fact
INTERPRETED = frozenset({"events.py", "turn_result.py"})
#: the name of mypyc's shared library of the compiled modules (a top-level extension module they all import)
SHARED_LIBRARY = "referee_engine__mypyc"
#: the file of a build folder listing its modules and their files, one ``name file`` a line
MANIFEST = "MANIFEST"
#: set to 1: always the pure engine, even when a compiled one matches
PURE_VARIABLE = "REFEREE_PURE_ENGINE"
#: the folder holding the builds (default: the cache's ``engine`` folder, see :func:`builds_dir`)
DIR_VARIABLE = "REFEREE_ENGINE_DIR"
_PREFIX = "referee.engine."


def engine_sources(engine_dir: str = ENGINE_DIR) -> list[str]:
    """Every ``.py`` file under the engine's folder (relative, ``/``-separated), sorted."""
    found: list[str] = []
    stack = [""]
    while stack:
        relative = stack.pop()
        with os.scandir(os.path.join(engine_dir, relative)) as entries:
            for entry in entries:
                inner = f"{relative}{entry.name}"
                if entry.name.endswith(".py") and entry.is_file():
                    found.append(inner)
                elif entry.is_dir() and not entry.name.startswith(("_", ".")):
                    stack.append(f"{inner}/")
    return sorted(found)


def is_compiled(relative: str) -> bool:
    """Whether mypyc compiles this engine source: every one but the packages' ``__init__.py`` and
    :data:`INTERPRETED` (this rule, with :data:`INTERPRETED`, is the one place that decides)."""
    name = relative.rsplit("/", 1)[-1]
    return name != "__init__.py" and name not in INTERPRETED


def compiled_modules(engine_dir: str = ENGINE_DIR) -> list[str]:
    """The compiled engine sources (relative paths), sorted."""
    return [r for r in engine_sources(engine_dir) if is_compiled(r)]


def module_name(relative: str) -> str:
    """``elements/gear.py`` -> ``referee.engine.elements.gear``."""
    return _PREFIX + relative.removesuffix(".py").replace("/", ".")


def python_tag() -> str:
    """The interpreter a build is for: its implementation, version and extension module suffix."""
    from importlib.machinery import EXTENSION_SUFFIXES

    return f"{sys.implementation.name}-{sys.version}-{EXTENSION_SUFFIXES[0]}"


def source_key(engine_dir: str = ENGINE_DIR) -> str:
    """The key of the engine as it is now: every engine source's path and bytes (the interpreted ones too: the
    compiled code was type-checked against them), which are compiled, and :func:`python_tag`."""
    import hashlib

    digest = hashlib.sha256(python_tag().encode())
    for relative in engine_sources(engine_dir):
        digest.update(f"\0{relative}\0{int(is_compiled(relative))}\0".encode())
        with open(os.path.join(engine_dir, relative), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:32]


def builds_dir() -> str:
    """Where ``referee compile-engine`` puts a build by default: ``$REFEREE_ENGINE_DIR``, else the ``engine`` folder
    of the referee's cache (``$REFEREE_CACHE_DIR/engine``, else ``$XDG_CACHE_HOME/referee/engine``, else
    ``~/.cache/referee/engine``)."""
    explicit = os.environ.get(DIR_VARIABLE)
    if explicit:
        return explicit
    from ..common.cachefiles import cache_dir

    return str(cache_dir("engine"))


def installation_dir() -> str:
    """The installation's own folder of builds (``<sys.prefix>/share/referee/engine``, e.g. in the virtual
    environment): seen by every user of the installation whatever their home or environment (``referee
    compile-engine --installation`` writes there)."""
    return os.path.join(sys.prefix, "share", "referee", "engine")


def search_dirs() -> list[str]:
    """Where a process looks for a build: only ``$REFEREE_ENGINE_DIR`` when it is set, else the cache's folder and
    then the installation's."""
    if os.environ.get(DIR_VARIABLE):
        return [builds_dir()]
    return [builds_dir(), installation_dir()]


def read_build(folder: str, expected: Sequence[str]) -> dict[str, str] | None:
    """The extension file of each module of the build in ``folder`` when the build is whole (its manifest names
    exactly the ``expected`` modules and the shared library, and every file is there), else ``None``."""
    try:
        with open(os.path.join(folder, MANIFEST)) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    files: dict[str, str] = {}
    for line in lines:
        name, _, file = line.partition(" ")
        path = os.path.join(folder, file)
        if not file or "/" in file or not os.path.isfile(path):
            return None
        files[name] = path
    return files if set(files) == {*expected, SHARED_LIBRARY} else None


def build_folder_name(key: str, how: str) -> str:
    """A build's folder: the key of its sources, then how it was built (mypyc's version, the optimisation level);
    any build of the same key runs these sources."""
    return f"{key}-{how}"


def find_build(roots: Sequence[str] | None = None, engine_dir: str = ENGINE_DIR) -> tuple[str, dict[str, str]] | None:
    """The newest whole build for the engine's sources as they are now (its folder and files) in ``roots`` (default:
    :func:`search_dirs`), else ``None``."""
    key = source_key(engine_dir)
    candidates = []
    for root in search_dirs() if roots is None else roots:
        try:
            with os.scandir(root) as entries:
                candidates += [e.path for e in entries if e.name.startswith(build_folder_name(key, "")) and e.is_dir()]
        except OSError:
            continue
    expected = [module_name(r) for r in compiled_modules(engine_dir)]
    found = [(c, files) for c in candidates if (files := read_build(c, expected)) is not None]
    return max(found, key=lambda b: os.stat(os.path.join(b[0], MANIFEST)).st_mtime_ns, default=None)


class Status:
    """Whether this process runs the compiled engine, and why (or why not)."""

    __slots__ = ("active", "folder", "reason")

    def __init__(self, active: bool, reason: str, folder: str | None = None) -> None:
        self.active, self.reason, self.folder = active, reason, folder

    def __repr__(self) -> str:
        return f"Status(active={self.active}, reason={self.reason!r})"


class CompiledEngineFinder:
    """A ``sys.meta_path`` finder for the engine's modules: at the first of them it looks for the build matching
    the sources (:func:`find_build`); from then on it loads exactly that build's modules from their extension
    files, or none when there is no such build."""

    def __init__(self, roots: Sequence[str] | None = None, engine_dir: str = ENGINE_DIR) -> None:
        self.roots, self.engine_dir = roots, engine_dir
        self.files: dict[str, str] | None = None
        self.status: Status | None = None

    def decide(self) -> Status:
        """Look for the build once (a fault while looking leaves the pure engine)."""
        if self.status is None:
            try:
                build = find_build(self.roots, self.engine_dir)
            except OSError as exc:
                self.status = Status(False, f"the pure engine (could not look for a compiled one: {exc})")
            else:
                if build is None:
                    self.status = Status(False, "the pure engine: no compiled engine matches these sources "
                                                "(referee compile-engine builds one)")
                else:
                    self.files = build[1]
                    self.status = Status(True, f"the compiled engine in {build[0]}", build[0])
        return self.status

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if not (fullname.startswith(_PREFIX) or fullname == SHARED_LIBRARY):
            return None
        if self.status is None:
            self.decide()
        file = self.files.get(fullname) if self.files is not None else None
        if file is None:
            return None
        from importlib.machinery import ExtensionFileLoader, ModuleSpec

        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, file), origin=file)
        spec.has_location = True
        return spec


def _finder() -> CompiledEngineFinder | None:
    return next((f for f in sys.meta_path if isinstance(f, CompiledEngineFinder)), None)


def activate() -> None:
    """Install the engine's finder, once per process, unless ``REFEREE_PURE_ENGINE=1`` (called by
    ``referee/__init__.py``, before any engine module is imported; costs nothing until one is)."""
    if os.environ.get(PURE_VARIABLE) != "1" and _finder() is None:
        sys.meta_path.insert(0, CompiledEngineFinder())


def status() -> Status:
    """Whether this process runs (or, at its first engine import, will run) the compiled engine, and why."""
    if os.environ.get(PURE_VARIABLE) == "1":
        return Status(False, f"the pure engine: {PURE_VARIABLE}=1")
    finder = _finder()
    if finder is None:
        return Status(False, "the pure engine: the engine's finder is not installed")
    return finder.decide()
