"""The settings checked for ``referee config check``: the config file, the environment, and each value.

Each item gets a :class:`Finding` with a verdict: ``ok``, ``warning`` (works, but look), ``FAILED`` (will not
work; the reason and the fix are given) or ``skipped``. Nothing here opens a server or a database: those
checks are :mod:`referee.doctor`'s. Secrets are never shown, only whether they are set.
"""

from __future__ import annotations

import difflib
import getpass
import ipaddress
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass

from ..common.config import CONFIG_ENV, ENV_PREFIX, ConfigError, Settings
from ..common.config_load import config_file_from, flatten, load_settings, setting_names
from ..common.config_values import value_problems

OK, WARNING, FAILED, SKIPPED = "ok", "warning", "FAILED", "skipped"

#: ``REFEREE_*`` variables that are read but are not settings
OTHER_VARIABLES = {
    CONFIG_ENV: "the config file",
    "REFEREE_TEMPLATES": "template overrides",
}
#: variables for tests only: set in production, they change what the service does
TEST_VARIABLES = {
    "REFEREE_NOW": "fixes the clock of every command",
    "REFEREE_INTAKE_FAULT": "makes the mail intake crash on purpose",
}
_ADDRESS = re.compile(r"^[^@\s<>(),;:\"\[\]]+@[^@\s<>(),;:\"\[\]]+$")


@dataclass
class Finding:
    item: str
    verdict: str
    detail: str
    fix: str = ""

    def __post_init__(self) -> None:  # one line each, whatever a server or driver said
        self.detail = " ".join(self.detail.split())
        self.fix = " ".join(self.fix.split())


class Item:
    """Collects what one item found; its verdict is the worst of them."""

    def __init__(self, name: str, ok: str = "") -> None:
        self.name = name
        self.ok_text = ok
        self.warnings: list[str] = []
        self.failures: list[str] = []
        self.fixes: list[str] = []

    def warn(self, text: str, fix: str = "") -> None:
        self.warnings.append(text)
        if fix:
            self.fixes.append(fix)

    def fail(self, text: str, fix: str = "") -> None:
        self.failures.append(text)
        if fix:
            self.fixes.append(fix)

    def finding(self) -> Finding:
        if self.failures:
            return Finding(self.name, FAILED, "; ".join(self.failures + self.warnings), "; ".join(self.fixes))
        if self.warnings:
            return Finding(self.name, WARNING, "; ".join(self.warnings), "; ".join(self.fixes))
        return Finding(self.name, OK, self.ok_text)


def looks_like_address(text: str) -> bool:
    return bool(_ADDRESS.match(text.strip()))


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def user_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no name for this uid (containers)
        return f"uid {os.getuid()}"


# -- the config file and the environment -----------------------------------------------------------------------
def _did_you_mean(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def check_config(path: str | None, env: Mapping[str, str]) -> tuple[Settings | None, list[Finding]]:
    """The file parses, names only real settings, and the environment has no misspelt REFEREE_ variable."""
    out: list[Finding] = []
    known = setting_names()
    config_path = config_file_from(path, env)
    file_keys: list[str] = []
    if config_path is None:
        if env.get(f"{ENV_PREFIX}DATABASE_URL"):
            out.append(Finding("config file", OK, f"none given (--config or ${CONFIG_ENV}): REFEREE_* variables "
                                                   "and built-in defaults"))
        else:
            out.append(Finding("config file", FAILED, f"none given (--config or ${CONFIG_ENV}) and no "
                                                       f"{ENV_PREFIX}DATABASE_URL: referee tick and the other "
                                                       "commands refuse to run on defaults alone",
                               "write one with 'referee config init FILE' (the commented sample), edit it, and "
                               "name it with --config or $REFEREE_CONFIG"))
    else:
        item = Item("config file")
        p = config_path.expanduser().resolve()
        try:
            data = flatten(tomllib.loads(p.read_text(encoding="utf-8")))
        except FileNotFoundError:
            item.fail(f"{p} does not exist", "give the right path with --config or $REFEREE_CONFIG "
                                              "(deploy/referee.toml is a sample)")
            return None, [*out, item.finding()]
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            item.fail(f"{p}: cannot be read by {user_name()}: {why}",
                      "make it readable by the user cron runs referee as (e.g. chgrp referee; chmod 640)")
            return None, [*out, item.finding()]
        except tomllib.TOMLDecodeError as exc:
            item.fail(f"{p} is not valid TOML: {exc}", "fix the line named (strings need quotes)")
            return None, [*out, item.finding()]
        file_keys = list(data)
        unknown = [k for k in data if k not in known]
        for k in unknown:
            item.fail(f"unknown setting {k!r}{_did_you_mean(k, known)}")
        if unknown:
            item.fixes.append("correct or remove the unknown names (deploy/referee.toml lists every setting)")
        mode = p.stat().st_mode
        secrets_inside = sorted(k for k in data if k in Settings.SECRET_FIELDS and data[k])
        if secrets_inside and mode & stat.S_IROTH:
            item.warn(f"{p} holds {', '.join(secrets_inside)} and is readable by every user",
                      f"chmod o-r {p} (or move passwords to imap_password_file / smtp_password_file)")
        item.ok_text = f"{p}: {len(data)} setting(s)"
        out.append(item.finding())
        if unknown:
            return None, out
    env_item = Item("environment")
    overrides = sorted(ENV_PREFIX + n.upper() for n in known if ENV_PREFIX + n.upper() in env)
    for var in sorted(v for v in env if v.startswith(ENV_PREFIX)):
        name = var.removeprefix(ENV_PREFIX).lower()
        if var in TEST_VARIABLES:
            env_item.warn(f"{var} is set: it {TEST_VARIABLES[var]} (for tests only)", f"unset {var}")
        elif name not in known and var not in OTHER_VARIABLES and not var.startswith("REFEREE_TEST_"):
            env_item.warn(f"{var} is not a setting{_did_you_mean(name, known)}", f"unset or rename {var}")
    replaced = [v for v in overrides if v.removeprefix(ENV_PREFIX).lower() in file_keys]
    env_item.ok_text = (f"overrides from the environment: {', '.join(overrides)}"
                        + (f" ({', '.join(replaced)} replace(s) the file's value)" if replaced else "")
                        if overrides else "no REFEREE_* overrides")
    out.append(env_item.finding())
    try:
        settings = load_settings(path, env, check=False)
    except ConfigError as exc:
        out.append(Finding("settings", FAILED, str(exc),
                           "give the value the type the setting wants (see deploy/referee.toml)"))
        return None, out
    problems = value_problems(settings, _origins(config_path, file_keys, env))
    out.append(Finding("values", FAILED if problems else OK,
                       "; ".join(problems) if problems else "every value is one the setting allows",
                       "give each setting named a value it allows (deploy/referee.toml says what each takes); "
                       "every other command refuses to run until then" if problems else ""))
    return settings, out


def _origins(config_path: object, file_keys: list[str], env: Mapping[str, str]) -> dict[str, str]:
    """Where each setting's value came from: the environment wins over the file."""
    out = {k: f"config file {config_path}" for k in file_keys}
    for name in setting_names():
        if ENV_PREFIX + name.upper() in env:
            out[name] = f"environment variable {ENV_PREFIX}{name.upper()}"
    return out
