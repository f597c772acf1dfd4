"""deploy/referee.toml: it loads, names only real settings, and mentions every one of them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from referee.common.config import Settings
from referee.common.config_load import load_settings
from referee.doctor import check_config, check_values, setting_names

from .helpers import DEPLOY

SAMPLE = DEPLOY / "referee.toml"


def flat(data: dict[str, object], prefix: str = "") -> dict[str, object]:
    """``[imap] host = ...`` as ``imap_host``, the way the settings read a table."""
    out: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}_"))
        else:
            out[f"{prefix}{key}"] = value
    return out


def flat_keys(data: dict[str, object]) -> list[str]:
    return list(flat(data))


def commented_keys() -> list[str]:
    """Settings shown as commented-out lines (``# imap_password = "..."``), with their table."""
    out: list[str] = []
    table = ""
    for line in SAMPLE.read_text().splitlines():
        if m := re.match(r"^\[(\w+)\]", line):
            table = m.group(1) + "_"
        elif m := re.match(r"^# (\w+) = ", line):
            out.append(table + m.group(1))
    return out


def test_the_sample_loads_and_names_only_real_settings() -> None:
    settings = load_settings(SAMPLE, env={})
    active = flat(tomllib.loads(SAMPLE.read_text()))
    assert set(active) <= set(setting_names())
    for key, value in active.items():  # each value given is the value the settings end up with
        assert getattr(settings, key) == (tuple(value) if isinstance(value, list) else value), key


def test_every_setting_is_in_the_sample() -> None:
    mentioned = set(flat_keys(tomllib.loads(SAMPLE.read_text()))) | set(commented_keys())
    assert mentioned >= set(setting_names()), sorted(set(setting_names()) - mentioned)
    assert set(commented_keys()) <= set(setting_names())
    # the secrets are not written in the sample, only shown how to give them
    assert not set(flat_keys(tomllib.loads(SAMPLE.read_text()))) & Settings.SECRET_FIELDS


def test_every_value_of_the_sample_is_in_range(tmp_path: Path) -> None:
    """With the secrets given as the sample says (a GM secret, the password files), the values check passes."""
    for name in ("imap", "smtp"):
        (tmp_path / f"{name}.password").write_text(f"{name}-password\n")
        (tmp_path / f"{name}.password").chmod(0o640)   # as deploy/README.md installs them
    env = {"REFEREE_GM_SECRET": "long-enough-gm-secret", "REFEREE_IMAP_PASSWORD_FILE": str(tmp_path / "imap.password"),
           "REFEREE_SMTP_PASSWORD_FILE": str(tmp_path / "smtp.password")}
    settings, found = check_config(str(SAMPLE), env)
    assert settings is not None
    found += check_values(settings)
    assert [f for f in found if f.verdict != "ok"] == []
    assert {f.item for f in found} >= {"config file", "transport", "addresses", "GM", "IMAP settings",
                                       "SMTP settings", "passwords", "limits", "game defaults"}

