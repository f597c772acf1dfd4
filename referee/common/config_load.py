"""Loading the settings: the config file found (``--config``, ``$REFEREE_CONFIG``), its tables flattened, each value
converted to its field's type and overridden by ``REFEREE_<NAME>`` (the :class:`~.config.Settings` are in
:mod:`.config`, what each value may be in :mod:`.config_values`)."""

from __future__ import annotations

import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from .config import CONFIG_ENV, DEFAULT_SQLITE_NAME, ENV_PREFIX, ConfigError, Settings
from .config_values import value_problems

_INTERNAL = {"config_path"}


def setting_names() -> list[str]:
    """The names of every setting, in the order of :class:`Settings` (what the file and ``REFEREE_*`` may set)."""
    return [f.name for f in fields(Settings) if f.name not in _INTERNAL]


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A parsed config file as setting names: ``{"imap": {"host": h}}`` is ``{"imap_host": h}``."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}".replace("-", "_").lower()
        if isinstance(value, dict):
            out.update(flatten(value, f"{name}_"))
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
        if typing.get_origin(want) is tuple:   # a list of folders: a TOML list, or PATH-like text
            if isinstance(value, str):
                return tuple(p for p in value.split(os.pathsep) if p)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return tuple(value)
            raise ValueError(f"expected a list of folder names, not {value!r}")
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


NO_CONFIGURATION = (
    "no configuration found: name the settings file with --config FILE or $REFEREE_CONFIG "
    "(deploy/referee.toml is a commented sample), or set REFEREE_DATABASE_URL and the other REFEREE_* "
    "variables; nothing was created here. ('referee demo' needs no configuration: it makes its own.)")


def is_configured(settings: Settings, env: Mapping[str, str] | None = None) -> bool:
    """Whether a configuration was given: a settings file, or the database in ``$REFEREE_DATABASE_URL``.

    Without one every setting is a default, and the database and the Maildirs would be made in the current
    directory, wherever cron or a shell happens to be: commands that work on a store refuse instead."""
    env = os.environ if env is None else env
    return settings.config_path is not None or bool(env.get(f"{ENV_PREFIX}DATABASE_URL"))


def require_configuration(settings: Settings, env: Mapping[str, str] | None = None) -> Settings:
    """``settings`` when :func:`is_configured`, else a :class:`ConfigError` saying what to give."""
    if not is_configured(settings, env):
        raise ConfigError(NO_CONFIGURATION)
    return settings


def load_settings(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None, *,
                  check: bool = True) -> Settings:
    """Settings from the config file (``path``, else ``$REFEREE_CONFIG``) and ``REFEREE_*`` variables.

    Each value is checked (``check``) against :data:`VALUE_RULES`: the first that is not allowed is a
    :class:`ConfigError` naming the setting, where it came from, the value and what is allowed.
    ``referee config check`` loads without the check and lists every bad value itself."""
    env = os.environ if env is None else env
    config_path = config_file_from(path, env)
    known = setting_names()
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    if config_path is not None:
        config_path = config_path.expanduser().resolve()
        try:
            with config_path.open("rb") as fh:
                data = flatten(tomllib.load(fh))
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
            origins[key] = f"config file {config_path}"
    for name in known:
        var = ENV_PREFIX + name.upper()
        if var in env:
            values[name] = _coerce(name, env[var], f"environment variable {var}")
            origins[name] = f"environment variable {var}"
    for name in SECRET_FILE_FIELDS:   # the environment wins over the file, its _file too
        if ENV_PREFIX + name.upper() in env and ENV_PREFIX + name.upper() + "_FILE" not in env:
            values[f"{name}_file"] = ""
    settings = Settings(config_path=config_path, **values)
    if check:
        problems = value_problems(settings, origins)
        if problems:
            more = f" (and {len(problems) - 1} more: referee config check lists them)" if len(problems) > 1 else ""
            raise ConfigError(problems[0] + more)
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


#: the settings whose secret may also come from a ``<name>_file``: ``REFEREE_<NAME>`` beats the file's ``_file``
SECRET_FILE_FIELDS = ("imap_password", "smtp_password", "oauth2_client_secret", "oauth2_refresh_token")


