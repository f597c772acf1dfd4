"""Settings: one TOML file plus environment overrides.

Where the file is: the ``--config`` option of ``referee``, else ``$REFEREE_CONFIG``, else none (all
defaults). In the file, keys are the field names of :class:`Settings`; a TOML table is a prefix, so
``[imap] host = "..."`` is the same as ``imap_host = "..."``. Every value can be overridden by an
environment variable ``REFEREE_<NAME>`` (``REFEREE_DATABASE_URL``, ``REFEREE_IMAP_HOST``...), which
wins over the file. An unknown key in the file is an error, so a typo never goes unnoticed.

To add a setting, add a field (with a default) to :class:`Settings`: the file and the environment
pick it up by its name, converted to the field's type (str, int, float, bool, or ``X | None``).
"""

from __future__ import annotations

import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "REFEREE_"
CONFIG_ENV = "REFEREE_CONFIG"
DEFAULT_SQLITE_NAME = "referee.sqlite3"


class ConfigError(ValueError):
    """A configuration file or variable that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    #: SQLAlchemy URL of the game store, e.g. ``sqlite:////var/lib/referee/referee.sqlite3`` or
    #: ``postgresql+psycopg://referee:secret@localhost/referee``. Empty: a SQLite file
    #: ``referee.sqlite3`` beside the config file, or in the current directory without one.
    database_url: str = ""
    #: the file these settings were read from (not a setting itself)
    config_path: Path | None = None

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **changes)


#: fields that are not read from the file or the environment
_INTERNAL = {"config_path"}


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}".replace("-", "_").lower()
        if isinstance(value, dict):
            out.update(_flatten(value, f"{name}_"))
        else:
            out[name] = value
    return out


def _field_type(name: str) -> Any:
    hints = typing.get_type_hints(Settings)
    return hints[name]


def _coerce(name: str, value: Any, origin: str) -> Any:
    """``value`` (from TOML or an environment string) as the type of field ``name``."""
    want = _field_type(name)
    optional = False
    if isinstance(want, types.UnionType) or typing.get_origin(want) is typing.Union:
        args = [a for a in typing.get_args(want) if a is not type(None)]
        optional = len(args) < len(typing.get_args(want))
        want = args[0]
    if optional and (value is None or (isinstance(value, str) and value == "")):
        return None
    try:
        if want is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(f"expected true or false, not {value!r}")
        if want is int:
            if isinstance(value, bool | float):
                raise ValueError(f"expected a whole number, not {value!r}")
            return int(value)
        if want is float:
            if isinstance(value, bool):
                raise ValueError(f"expected a number, not {value!r}")
            return float(value)
        if want is Path:
            return Path(str(value))
        if want is str:
            if not isinstance(value, str | int | float) or isinstance(value, bool):
                raise ValueError(f"expected text, not {value!r}")
            return str(value)
    except ValueError as exc:
        raise ConfigError(f"{origin}: {exc}") from None
    raise AssertionError(f"unsupported settings type {want!r} for {name}")


def config_file_from(path: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path | None:
    if path:
        return Path(path)
    if env.get(CONFIG_ENV):
        return Path(env[CONFIG_ENV])
    return None


def load_settings(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings from the config file (``path``, else ``$REFEREE_CONFIG``) and ``REFEREE_*`` variables."""
    env = os.environ if env is None else env
    config_path = config_file_from(path, env)
    known = [f.name for f in fields(Settings) if f.name not in _INTERNAL]
    values: dict[str, Any] = {}
    if config_path is not None:
        config_path = config_path.expanduser().resolve()
        try:
            with config_path.open("rb") as fh:
                data = _flatten(tomllib.load(fh))
        except FileNotFoundError:
            raise ConfigError(f"config file {config_path} does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {config_path}: not valid TOML: {exc}") from None
        except OSError as exc:
            raise ConfigError(f"config file {config_path}: {exc.strerror}") from None
        for key, value in data.items():
            if key not in known:
                raise ConfigError(f"config file {config_path}: unknown setting {key!r} "
                                  f"(known: {', '.join(known)})")
            values[key] = _coerce(key, value, f"config file {config_path}: {key}")
    for name in known:
        var = ENV_PREFIX + name.upper()
        if var in env:
            values[name] = _coerce(name, env[var], f"environment variable {var}")
    settings = Settings(config_path=config_path, **values)
    base = config_path.parent if config_path is not None else Path.cwd()
    if not settings.database_url:
        settings = replace(settings, database_url=f"sqlite:///{base / DEFAULT_SQLITE_NAME}")
    elif config_path is not None and "database_url" in values and f"{ENV_PREFIX}DATABASE_URL" not in env:
        settings = replace(settings, database_url=_anchor_sqlite(settings.database_url, base))
    return settings


def _anchor_sqlite(url: str, base: Path) -> str:
    """A relative SQLite file in the config file is relative to the file's directory, not the cwd."""
    head, sep, rest = url.partition(":///")
    if not sep or not head.startswith("sqlite") or not rest or rest.startswith("/") or rest.startswith(":memory:"):
        return url
    path, q, query = rest.partition("?")
    return f"{head}:///{base / path}{q}{query}"
