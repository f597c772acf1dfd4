"""The checks of what is on this machine: the database, the boards, the Maildirs, the lock file, the archive
directory and the fonts. Nothing is created: a missing file or directory is judged by whether it could be."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..common.config import Settings
from ..common.private import readable_by_others
from ..mailer.config_checks import FAILED, OK, WARNING, Finding, Item, user_name


def _nearest_existing(path: Path) -> Path:
    p = path
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _can_create(path: Path) -> tuple[bool, str]:
    """Whether ``path`` (missing) could be created by this user: its nearest existing ancestor is a writable dir."""
    base = _nearest_existing(path)
    if not base.is_dir():
        return False, f"{base} is not a directory"
    if not os.access(base, os.W_OK | os.X_OK):
        return False, f"{base} is not writable by {user_name()}"
    return True, ""


# -- local things -----------------------------------------------------------------------------------------------
def check_database(settings: Settings) -> Finding:
    """Opens and is at the newest schema. A missing or empty SQLite file is fine: the first run creates it."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from ..store.db import Store, alembic_config, head_revision, parse_url
    from ..store.errors import StoreError

    item = Item("database")
    try:
        url = parse_url(settings.database_url)
    except StoreError as exc:
        item.fail(str(exc), "write database_url as sqlite:////path/file.sqlite3 or "
                            "postgresql+psycopg://user:password@host/dbname")
        return item.finding()
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        item.fail(f"{shown}: referee keeps its games in SQLite or PostgreSQL",
                  "write database_url as sqlite:////path/file.sqlite3 or "
                  "postgresql+psycopg://user:password@host/dbname")
        return item.finding()
    head = head_revision()
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            item.warn(f"{shown} is in memory: nothing is kept between runs", "set database_url to a file")
            return item.finding()
        path = Path(url.database)
        if not path.parent.is_dir():
            item.fail(f"the directory {path.parent} does not exist (SQLite does not create it)",
                      f"mkdir -p {path.parent} and chown it to the user cron runs referee as, or change "
                      "database_url")
            return item.finding()
        if not os.access(path.parent, os.W_OK | os.X_OK):
            item.fail(f"{path.parent} is not writable by {user_name()} (SQLite writes its journal beside the database)",
                      "chown the directory to the user cron runs referee as")
        if not path.exists():
            item.ok_text = f"{shown} does not exist yet: the first run creates it at the newest schema"
            return item.finding()
        if not os.access(path, os.R_OK | os.W_OK):
            item.fail(f"{path} is not readable and writable by {user_name()}",
                      "chown it to the user cron runs referee as")
            return item.finding()
        for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            others = readable_by_others(file)
            if others:
                item.warn(f"{file} (players' keys, every mail) is readable by {others}",
                          f"chmod 600 {file} (the referee creates it so; an older file may not be)")
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        url = url.update_query_dict({"connect_timeout": "15"})  # a firewalled host: a verdict, not a hang
    store = None
    try:
        store = Store(url)
        current = store.current_revision()
        if current == head:
            item.ok_text = f"{shown}: at the newest schema ({head})"
        elif current is None and store.dialect == "sqlite" and not _has_tables(store):
            item.ok_text = f"{shown}: empty, the first run creates the schema"
        elif current is None:
            item.fail(f"{shown} has no referee schema", "run 'referee db upgrade' (with the same --config)")
        else:
            try:
                known = ScriptDirectory.from_config(alembic_config()).get_revision(current) is not None
            except CommandError:
                known = False
            if known:
                item.fail(f"{shown} is at schema {current}, this referee needs {head}",
                          "back the database up, then run 'referee db upgrade'")
            else:
                item.fail(f"{shown} is at schema {current}, which this referee does not know (a newer version "
                          "wrote it?)", "install the referee version that upgraded the database")
    except StoreError as exc:
        fix = ("check database_url (host, port, user, password, database name) and that PostgreSQL runs"
               if url.get_backend_name() != "sqlite" else "check database_url and the file")
        item.fail(str(exc), fix)
    except Exception as exc:  # a driver error the store does not wrap: still a verdict, not a traceback
        item.fail(f"cannot open {shown}: {type(exc).__name__}: {exc}", "check database_url")
    finally:
        if store is not None:
            store.close()
    return item.finding()


def _has_tables(store: Any) -> bool:
    from sqlalchemy import inspect

    with store.engine.connect() as conn:
        return bool(inspect(conn).get_table_names())


def check_boards(settings: Settings) -> Finding:
    from ..boards import BoardNotFound, list_boards, load_board, use_settings
    from ..engine import BoardError

    use_settings(settings)
    item = Item("boards")
    for folder in settings.board_dirs:
        if not folder.is_dir():
            item.fail(f"the boards folder {folder} is not a directory {user_name()} can read",
                      "correct the boards setting, or create the folder")
    found = list_boards()
    courses = 0
    for name, kind, path in found:
        try:
            load_board(name)
        except (BoardNotFound, BoardError) as exc:
            item.fail(f"{name} ({path}) does not load: {exc}", "fix or remove the file ('referee board check')")
            continue
        courses += kind == "course"
    names = {n for n, _, _ in found}
    if not found:
        item.fail("no board files found", "reinstall referee, or check the boards setting (and $REFEREE_BOARDS)")
    elif settings.default_course not in names:
        item.fail(f"default_course {settings.default_course!r} is not a board or course",
                  "pick one from 'referee board list'")
    item.ok_text = f"{len(found)} boards and courses load ({courses} courses); default course {settings.default_course}"
    return item.finding()


def check_game_courses(settings: Settings) -> Finding:
    """The course of every game that is running or paused loads, as the tick (with these settings, without
    the shell's environment) will load it when its turn is due."""
    from ..boards import BoardNotFound, load_board, use_settings
    from ..engine import BoardError
    from ..store.db import Store
    from ..store.models import Game

    use_settings(settings)
    item = Item("games' courses")
    store = Store(settings.database_url)
    try:
        with store.read() as s:
            from sqlalchemy import select

            games = list(s.execute(select(Game.code, Game.course).where(Game.status.in_(("running", "paused")))))
    finally:
        store.close()
    bad = 0
    for code, course in games:
        try:
            load_board(course)
        except (BoardNotFound, BoardError) as exc:
            bad += 1
            item.fail(f"{code}: its course {course!r} does not load: {exc}",
                      "put the folder of the game's course in the boards setting of the settings file (cron does "
                      "not see a REFEREE_BOARDS set in a shell), or mend the file ('referee board check')")
    item.ok_text = f"the courses of the {len(games)} running or paused game(s) load"
    return item.finding()


def _check_dir(name: str, path: Path, what: str, maildir: bool) -> Finding:
    item = Item(name)
    if path.exists():
        if not path.is_dir():
            item.fail(f"{path} is not a directory", f"remove it or change {what}")
        elif not os.access(path, os.W_OK | os.X_OK):
            item.fail(f"{path} is not writable by {user_name()}", "chown it to the user cron runs referee as")
        elif maildir:
            missing = [s for s in ("new", "cur", "tmp") if not (path / s).is_dir()]
            waiting = sum(len(os.listdir(path / s)) for s in ("new", "cur") if (path / s).is_dir())
            item.ok_text = f"{path}: a Maildir, {waiting} mail(s) in it" if not missing else \
                f"{path}: exists; {', '.join(missing)} created at first use"
        else:
            item.ok_text = f"{path}: writable"
        return item.finding()
    ok, why = _can_create(path)
    if not ok:
        item.fail(f"{path} does not exist and cannot be created: {why}",
                  f"create it for the user cron runs referee as, or change {what}")
    item.ok_text = f"{path} does not exist yet: created at first use"
    return item.finding()


def check_maildirs(settings: Settings) -> list[Finding]:
    return [_check_dir("maildir in", settings.path(settings.maildir_in), "maildir_in", True),
            _check_dir("maildir out", settings.path(settings.maildir_out), "maildir_out", True)]


def check_lock(settings: Settings) -> Finding:
    from ..cron.tick import lock_path

    path = lock_path(settings)
    item = Item("lock file", f"{path}: its directory is writable")
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            item.fail(f"{path} exists and is not writable by {user_name()}",
                      f"remove {path} (when no tick runs) or chown it to the user cron runs referee as")
    elif path.parent.is_dir():
        if not os.access(path.parent, os.W_OK | os.X_OK):
            item.fail(f"{path.parent} is not writable by {user_name()}: the tick cannot create {path.name} there",
                      "set lock_file to a path in a directory the service user can write")
    else:
        ok, why = _can_create(path.parent)
        if not ok:
            item.fail(f"the directory of {path} does not exist and cannot be created: {why}",
                      "create it for the user cron runs referee as, or set lock_file")
        item.ok_text = f"{path}: created with its directory at the first tick"
    return item.finding()


def check_archive(settings: Settings) -> Finding:
    found = _check_dir("archive", settings.path(settings.archive_dir), "archive_dir", False)
    if found.verdict == FAILED:  # only 'referee archive build' needs it: not fatal for the service
        return Finding(found.item, WARNING, found.detail, found.fix)
    return found


def check_fonts() -> Finding:
    from ..render.fonts import BOLD, DEJAVU_DIR, REGULAR

    missing = [f for f in (REGULAR, BOLD) if not (DEJAVU_DIR / f).is_file()]
    if missing:
        return Finding("fonts", WARNING, f"{', '.join(missing)} not found (looked in {DEJAVU_DIR} and where "
                                         "Fedora, Alpine, Arch and macOS put it): the pictures use Pillow's plain "
                                         "built-in font",
                       "install DejaVu Sans: Debian/Ubuntu apt-get install fonts-dejavu-core; Fedora dnf install "
                       "dejavu-sans-fonts; Alpine apk add font-dejavu; Arch pacman -S ttf-dejavu; macOS brew install "
                       "--cask font-dejavu (then copy it to /Library/Fonts)")
    return Finding("fonts", OK, f"DejaVu Sans in {DEJAVU_DIR}")


def check_engine() -> Finding:
    """Which engine this process runs: the compiled one (``referee compile-engine``) or the pure sources."""
    from ..compiled_engine import PURE_VARIABLE, status
    from ..compiled_engine.build import built_info

    found = status()
    if found.active and found.folder is not None:
        how = built_info(found.folder).get("how", "mypyc")
        return Finding("engine", OK, f"compiled ({how}), matching the sources: {found.folder}")
    if os.environ.get(PURE_VARIABLE) == "1":
        return Finding("engine", OK, found.reason)
    return Finding("engine", WARNING, f"{found.reason}: turns resolve about 1.5x slower than compiled",
                   "run 'referee compile-engine' after each install or upgrade (needs gcc and the Python headers: "
                   "Debian/Ubuntu apt-get install gcc python3-dev)")
