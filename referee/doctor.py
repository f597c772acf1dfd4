"""``referee config check`` (alias ``referee doctor``): is this configuration going to work?

Every part is tried as the cron job would use it, and each item gets a verdict: ``ok``, ``warning``
(works, but look), ``FAILED`` (will not work; the reason and the fix are given) or ``skipped`` (not
used by this configuration, or not reachable because something it needs failed). Nothing is sent,
created or changed: no mail, no database file, no Maildir, no lock file, no OAuth2 token cache (a check
run as root must not leave root-owned files behind for the service user). Secrets are never shown, only whether they
are set.

The items: the config file and environment, the values of the settings, the secrets, the database
(opens, is at the newest schema), the boards, the Maildirs (maildir transport), the IMAP server (imap
transport: connection, TLS and login as :mod:`referee.intake.imap` makes them, the mailbox, the
processed folder), the SMTP server (imap and smtp transports: connection, TLS, login, the sender
address; ``RSET`` before any mail), the tick's lock file, the archive directory, and the fonts of the
pictures. ``--send-test`` (imap transport) then mails the referee's own reply address and watches the
mailbox until it arrives, and deletes it: the one check that sends something. With ``transport = "smtp"``
mail comes in through ``referee ingest`` only, so IMAP is
reported as not used and its settings are not looked at.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import getpass
import ipaddress
import os
import re
import socket
import stat
import tomllib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from .config import CONFIG_ENV, ENV_PREFIX, ConfigError, Settings, _flatten, config_file_from, load_settings
from .private import readable_by_others

OK, WARNING, FAILED, SKIPPED = "ok", "warning", "FAILED", "skipped"
_RANK = {SKIPPED: 0, OK: 1, WARNING: 2, FAILED: 3}

#: ``REFEREE_*`` variables that are read but are not settings
OTHER_VARIABLES = {
    CONFIG_ENV: "the config file",
    "REFEREE_BOARDS": "extra board directories",
    "REFEREE_TEMPLATES": "template overrides",
}
#: variables for tests only: set in production, they change what the service does
TEST_VARIABLES = {
    "REFEREE_NOW": "fixes the clock of every command",
    "REFEREE_INTAKE_FAULT": "makes the mail intake crash on purpose",
}
_ADDRESS = re.compile(r"^[^@\s<>(),;:\"\[\]]+@[^@\s<>(),;:\"\[\]]+$")
TLS_MODES = ("ssl", "starttls", "none")
#: characters that cannot stand between an address's local part and a token
_NOT_DELIMITERS = set("@<>()[],;:\\\" '.")
LOG_LEVELS = ("debug", "info", "warning", "error")


@dataclass
class Finding:
    item: str
    verdict: str
    detail: str
    fix: str = ""

    def __post_init__(self) -> None:  # one line each, whatever a server or driver said
        self.detail = " ".join(self.detail.split())
        self.fix = " ".join(self.fix.split())


class _Item:
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


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no name for this uid (containers)
        return f"uid {os.getuid()}"


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
        return False, f"{base} is not writable by {_user()}"
    return True, ""


# -- the config file and the environment -----------------------------------------------------------------------
def setting_names() -> list[str]:
    return [f.name for f in fields(Settings) if f.name != "config_path"]


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
            out.append(Finding("config file", WARNING, f"none given (--config or ${CONFIG_ENV}) and no "
                                                        f"{ENV_PREFIX}DATABASE_URL: referee tick and the other "
                                                        "commands refuse to run on defaults alone",
                               "name the settings file with --config or $REFEREE_CONFIG (deploy/referee.toml "
                               "is a sample)"))
    else:
        item = _Item("config file")
        p = config_path.expanduser().resolve()
        try:
            data = _flatten(tomllib.loads(p.read_text(encoding="utf-8")))
        except FileNotFoundError:
            item.fail(f"{p} does not exist", "give the right path with --config or $REFEREE_CONFIG "
                                              "(deploy/referee.toml is a sample)")
            return None, [*out, item.finding()]
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            item.fail(f"{p}: cannot be read by {_user()}: {why}",
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
    env_item = _Item("environment")
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
        settings = load_settings(path, env)
    except ConfigError as exc:
        out.append(Finding("settings", FAILED, str(exc),
                           "give the value the type the setting wants (see deploy/referee.toml)"))
        return None, out
    return settings, out


# -- the values -----------------------------------------------------------------------------------------------
def _transport(settings: Settings) -> str | None:
    """The transport (``maildir``, ``imap`` or ``smtp``), or None when the setting names none of them."""
    try:
        return settings.mail_transport
    except ConfigError:
        return None


def check_values(settings: Settings) -> list[Finding]:
    out: list[Finding] = []
    transport = _transport(settings)
    mail = transport in ("imap", "smtp")  # a real mail account: SMTP out, players write to the address

    item = _Item("transport")
    if transport == "maildir":
        item.ok_text = (f"maildir: mail in from {settings.path(settings.maildir_in)}, "
                        f"out to {settings.path(settings.maildir_out)} (no mail servers)")
    elif transport == "imap":
        item.ok_text = (f"imap: mail in from {settings.imap_host}:{settings.imap_port}, "
                        f"out through {settings.smtp_host}:{settings.smtp_port}")
    elif transport == "smtp":
        item.ok_text = (f"smtp: mail in only through `referee ingest` (piped in by the mail server), "
                        f"out through {settings.smtp_host}:{settings.smtp_port}")
    else:
        item.fail(f"transport is {settings.transport!r}, not one of maildir, imap or smtp",
                  'set transport = "maildir", "imap" or "smtp"')
    out.append(item.finding())

    item = _Item("addresses")
    for name in ("referee_address", "gm_address"):
        value = getattr(settings, name)
        if value and not looks_like_address(value):
            item.fail(f"{name} {value!r} is not a mail address", f"write {name} as name@domain, without a display name")
    if mail and looks_like_address(settings.referee_address) and "." not in settings.domain:
        item.warn(f"referee_address {settings.referee_address} has no real domain: players cannot write to it",
                  "set referee_address to the mail account's address")
    if settings.mail_domain and ("@" in settings.mail_domain or " " in settings.mail_domain):
        item.fail(f"mail_domain {settings.mail_domain!r} is not a domain", "write mail_domain as example.org")
    item.ok_text = f"referee {settings.referee_address}, GM {settings.gm_address or '(none)'}"
    out.append(item.finding())

    item = _Item("GM")
    if settings.gm_address and not settings.gm_secret:
        item.fail("gm_address is set but gm_secret is not: every GM command by mail would be refused",
                  "set gm_secret to a long random word (e.g. from: python3 -c 'import secrets; "
                  "print(secrets.token_urlsafe(18))')")
    elif settings.gm_secret and len(settings.gm_secret) < 12:
        item.warn("gm_secret is shorter than 12 characters", "use a longer random gm_secret")
    if not settings.gm_address:
        item.warn("gm_address is not set: no one can run games by mail, and failures reach no one",
                  "set gm_address to the game master's own address")
    if not settings.gm_secret and not settings.gm_address:
        item.warn("gm_secret is not set: GM commands by mail will be refused",
                  "set gm_secret to a long random word (python3 -c 'import secrets; print(secrets.token_urlsafe(18))')")
    item.ok_text = (f"gm_address {settings.gm_address or 'not set'}, gm_secret {_set(settings.gm_secret)}, "
                    f"signing_key {'set' if settings.signing_key else 'derived from gm_secret and the database URL'}")
    out.append(item.finding())

    if transport == "imap":
        out.append(_server_values(settings, "imap", {"ssl": 993, "starttls": 143, "none": 143}))
    if mail:
        out.append(_server_values(settings, "smtp", {"ssl": 465, "starttls": 587, "none": 25}))
        out.append(_oauth2_values(settings) if settings.mail_auth.strip().lower() == "oauth2"
                   else _secrets(settings, imap=transport == "imap"))
    out.append(_reply_addresses(settings, mail))
    out.append(_dkim(settings, mail))

    item = _Item("limits")
    checks: list[tuple[str, float, float]] = [
        ("mail_timeout", settings.mail_timeout, 1), ("max_mail_bytes", settings.max_mail_bytes, 10_000),
        ("error_replies_per_hour", settings.error_replies_per_hour, 0), ("tick_interval", settings.tick_interval, 10),
        ("answers_per_hour", settings.answers_per_hour, 1),
    ]
    for name, value, low in checks:
        if value < low:
            item.fail(f"{name} = {value} is below {low:g}", f"raise {name}")
    if settings.mail_timeout * 2 > settings.tick_interval:
        item.warn(f"mail_timeout ({settings.mail_timeout:g} s) is long for a tick every {settings.tick_interval} s",
                  "lower mail_timeout")
    if settings.log_level.lower() not in LOG_LEVELS:
        item.fail(f"log_level {settings.log_level!r} is not one of {', '.join(LOG_LEVELS)}", "set log_level = \"info\"")
    item.ok_text = (f"tick every {settings.tick_interval} s, mail timeout {settings.mail_timeout:g} s, "
                    f"mails up to {settings.max_mail_bytes} bytes, log level {settings.log_level}")
    out.append(item.finding())

    out.append(_game_defaults(settings))
    return out


def _set(value: str) -> str:
    return "set" if value else "not set"


def _server_values(settings: Settings, kind: str, ports: dict[str, int]) -> Finding:
    host, port, tls = (getattr(settings, f"{kind}_{x}") for x in ("host", "port", "tls"))
    label = kind.upper()
    item = _Item(f"{label} settings", f"{host}:{port}, TLS {tls}")
    if not host:
        item.fail(f"{kind}_host is empty", f"set {kind}_host")
    if not 0 < port < 65536:
        item.fail(f"{kind}_port {port} is not a port number",
                  f"set {kind}_port (usually {ports.get(tls, ports['ssl'])})")
    if tls not in TLS_MODES:
        item.fail(f"{kind}_tls is {tls!r}", f"set {kind}_tls to one of {', '.join(TLS_MODES)}")
        return item.finding()
    usual = {v: k for k, v in ports.items() if k != "none"}
    if port in usual and usual[port] != tls and not (tls == "none" and is_loopback(host)):
        item.warn(f"port {port} usually means {kind}_tls = \"{usual[port]}\", not \"{tls}\"",
                  f"check {kind}_tls and {kind}_port")
    if tls == "none" and host and not is_loopback(host):
        item.warn(f"{kind}_tls = \"none\" sends the password in clear to {host}",
                  f"use {kind}_tls = \"ssl\" or \"starttls\" for any server not on this machine")
    return item.finding()


def _secrets(settings: Settings, *, imap: bool = True) -> Finding:
    """The passwords of the servers used: SMTP's when it logs in, and IMAP's unless ``imap`` is False."""
    item = _Item("passwords")
    shown: list[str] = []
    used = [("imap", True)] if imap else []
    for kind, needed in (*used, ("smtp", bool(settings.smtp_user))):
        name = f"{kind}_password"
        file_value = getattr(settings, f"{name}_file")
        try:
            value = settings.secret(name)
        except ConfigError as exc:
            item.fail(str(exc), f"put the password on the first line of {settings.path(file_value)}, readable by "
                                "the user cron runs referee as (e.g. chgrp referee, chmod 640)")
            shown.append(f"{name} unreadable")
            continue
        where = f" (from {settings.path(file_value)})" if file_value else ""
        shown.append(f"{name} {_set(value)}{where}")
        # group-readable is the documented install (root:referee, 640); readable by every user is not
        if file_value and readable_by_others(settings.path(file_value)) == "every user":
            item.warn(f"{settings.path(file_value)} (the {kind.upper()} password) is readable by every user",
                      f"chmod o-r {settings.path(file_value)} (e.g. owner root, group referee, mode 640)")
        if needed and not value:
            item.fail(f"{name} is not set", f"set {name}_file (a file holding the password) or {name}")
    users = [f"IMAP user {settings.imap_user or settings.referee_address}"] if imap else []
    users.append(f"SMTP user {settings.smtp_user or '(no login)'}")
    item.ok_text = ", ".join(shown) + "; " + ", ".join(users)
    return item.finding()


def _oauth2_values(settings: Settings) -> Finding:
    """``mail_auth = "oauth2"``: a token source is set, secrets readable (never shown)."""
    item = _Item("OAuth2")
    if settings.oauth2_token_file:
        path = settings.path(settings.oauth2_token_file)
        if not path.is_file():
            item.fail(f"oauth2_token_file {path} does not exist", "start the program that keeps it fresh, or "
                                                                  "use oauth2_refresh_token with oauth2_token_url")
        item.ok_text = f"access token from {path} (kept fresh by another program)"
        return item.finding()
    shown = []
    for name in ("oauth2_refresh_token", "oauth2_client_secret"):
        try:
            shown.append(f"{name} {_set(settings.secret(name))}")
        except ConfigError as exc:
            item.fail(str(exc), f"make {name}_file readable by the user cron runs referee as")
    for name in ("oauth2_token_url", "oauth2_client_id", "oauth2_refresh_token"):
        if not getattr(settings, name) and not getattr(settings, f"{name}_file", ""):
            item.fail(f"mail_auth is oauth2 and {name} is not set",
                      "set oauth2_token_url, oauth2_client_id and oauth2_refresh_token (deploy/README.md: "
                      "provider recipes), or oauth2_token_file")
    if settings.oauth2_token_url and not settings.oauth2_token_url.startswith("https://") and \
            not is_loopback(settings.oauth2_token_url.split("/")[2].rsplit(":", 1)[0] if "//" in
                            settings.oauth2_token_url else ""):
        item.warn(f"oauth2_token_url {settings.oauth2_token_url} is not https", "use the provider's https URL")
    from .mailer.oauth2 import cache_path

    item.ok_text = (f"refresh at {settings.oauth2_token_url}, client {settings.oauth2_client_id}, "
                    f"{', '.join(shown)}; token cached in {cache_path(settings)}")
    return item.finding()


def _reply_addresses(settings: Settings, mail: bool) -> Finding:
    """``address_delimiter`` and ``reply_token``: what a turn mail's reply address looks like."""
    item = _Item("reply addresses")
    delimiter = settings.address_delimiter
    if len(delimiter) > 1 or (delimiter and (delimiter in _NOT_DELIMITERS or delimiter.isalnum())):
        item.fail(f"address_delimiter {delimiter!r} cannot separate an address from its token",
                  'set address_delimiter = "+" (or "-"), or "" when the server has no sub-addressing')
        return item.finding()
    try:
        places = settings.token_places
    except ConfigError as exc:
        item.fail(str(exc), 'set reply_token = "address", "subject" or "both"')
        return item.finding()
    local, _, domain = settings.referee_address.rpartition("@")
    sample = f"{local}{delimiter or '+'}12.4.k3x9fz2mq7wa4hcd@{domain}"
    if "address" in places:
        item.ok_text = f"replies to {sample}" + (" and the token in the subject" if "subject" in places else "")
        if mail and delimiter:
            item.ok_text += f" (the server must deliver {local}{delimiter}...@ to {local}@: --send-test tries it)"
    else:
        item.ok_text = f"replies to {settings.referee_address}, the token in the subject ([#12.4.k3x9fz2mq7wa4hcd])"
    return item.finding()


def _dkim(settings: Settings, mail: bool) -> Finding:
    from .mailer.dkim import signer_for

    item = _Item("DKIM")
    try:
        signer = signer_for(settings)
    except ConfigError as exc:
        item.fail(str(exc), "point dkim_key_file at the PEM private key (deploy/README.md: deliverability)")
        return item.finding()
    if signer is None:
        if mail:
            item.ok_text = "no dkim_key_file: mail goes out unsigned (fine when the mail server signs it)"
        else:
            item.ok_text = "not used"
        return item.finding()
    path = settings.path(settings.dkim_key_file)
    if readable_by_others(path) == "every user":
        item.warn(f"{path} (the DKIM private key) is readable by every user", f"chmod o-r {path}")
    try:
        signer.sign(b"From: " + settings.referee_address.encode() + b"\r\nSubject: test\r\n\r\ntest\r\n")
    except ConfigError as exc:
        item.fail(str(exc), "make a new key: openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048")
        return item.finding()
    record = f"{signer.selector.decode()}._domainkey.{signer.domain.decode()}"
    item.ok_text = f"every mail signed as d={signer.domain.decode()}, s={signer.selector.decode()}; " \
                   f"publish the public key as a TXT record at {record}"
    return item.finding()


def _game_defaults(settings: Settings) -> Finding:
    from .clock import TimeError, parse_duration
    from .store.models import MISSING_ORDERS_POLICIES

    item = _Item("game defaults")
    for name in ("default_deadline", "default_reminder"):
        try:
            parse_duration(getattr(settings, name))
        except TimeError as exc:
            item.fail(f"{name}: {exc}", f"write {name} as e.g. 5d or 24h")
    if settings.default_missing_orders not in MISSING_ORDERS_POLICIES:
        item.fail(f"default_missing_orders {settings.default_missing_orders!r} is not one of "
                  f"{', '.join(MISSING_ORDERS_POLICIES)}", "set default_missing_orders = \"autopilot\"")
    item.ok_text = (f"course {settings.default_course}, deadline {settings.default_deadline}, "
                    f"reminder {settings.default_reminder}, missing orders: {settings.default_missing_orders}")
    return item.finding()


# -- local things -----------------------------------------------------------------------------------------------
def check_database(settings: Settings) -> Finding:
    """Opens and is at the newest schema. A missing or empty SQLite file is fine: the first run creates it."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from .store.db import Store, alembic_config, head_revision, parse_url
    from .store.errors import StoreError

    item = _Item("database")
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
            item.fail(f"{path.parent} is not writable by {_user()} (SQLite writes its journal beside the database)",
                      "chown the directory to the user cron runs referee as")
        if not path.exists():
            item.ok_text = f"{shown} does not exist yet: the first run creates it at the newest schema"
            return item.finding()
        if not os.access(path, os.R_OK | os.W_OK):
            item.fail(f"{path} is not readable and writable by {_user()}", "chown it to the user cron runs referee as")
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
    from .boards import BoardNotFound, list_boards, load_board
    from .engine import BoardError

    item = _Item("boards")
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
        item.fail("no board files found", "reinstall referee, or check $REFEREE_BOARDS")
    elif settings.default_course not in names:
        item.fail(f"default_course {settings.default_course!r} is not a board or course",
                  "pick one from 'referee board list'")
    item.ok_text = f"{len(found)} boards and courses load ({courses} courses); default course {settings.default_course}"
    return item.finding()


def _check_dir(name: str, path: Path, what: str, maildir: bool) -> Finding:
    item = _Item(name)
    if path.exists():
        if not path.is_dir():
            item.fail(f"{path} is not a directory", f"remove it or change {what}")
        elif not os.access(path, os.W_OK | os.X_OK):
            item.fail(f"{path} is not writable by {_user()}", "chown it to the user cron runs referee as")
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
    from .tick import lock_path

    path = lock_path(settings)
    item = _Item("lock file", f"{path}: its directory is writable")
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            item.fail(f"{path} exists and is not writable by {_user()}",
                      f"remove {path} (when no tick runs) or chown it to the user cron runs referee as")
    elif path.parent.is_dir():
        if not os.access(path.parent, os.W_OK | os.X_OK):
            item.fail(f"{path.parent} is not writable by {_user()}: the tick cannot create {path.name} there",
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
    from .render.fonts import BOLD, DEJAVU_DIR, REGULAR

    missing = [f for f in (REGULAR, BOLD) if not (DEJAVU_DIR / f).is_file()]
    if missing:
        return Finding("fonts", WARNING, f"{', '.join(missing)} not in {DEJAVU_DIR}: the pictures use Pillow's "
                                         "plain built-in font", "apt-get install fonts-dejavu-core")
    return Finding("fonts", OK, f"DejaVu Sans in {DEJAVU_DIR}")


# -- the mail servers -------------------------------------------------------------------------------------------
async def _tcp_probe(host: str, port: int, timeout: float) -> str | None:
    """None if something listens on host:port, else why not."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except socket.gaierror as exc:
        return f"cannot find {host}: {exc.strerror}"
    except OSError as exc:
        return os.strerror(exc.errno) if exc.errno else str(exc)
    writer.close()
    with contextlib.suppress(OSError, TimeoutError):
        await asyncio.wait_for(writer.wait_closed(), 2)
    return None


def _quote(mailbox: str) -> str:
    return f'"{mailbox}"' if any(c in mailbox for c in ' ()"{') else mailbox


def _count(lines: list[Any], word: bytes) -> int | None:
    for line in lines:
        if isinstance(line, bytes):
            m = re.search(rb"(\d+) " + word, line) or re.search(word + rb" (\d+)", line)
            if m:
                return int(m.group(1))
    return None


async def check_imap(settings: Settings, timeout: float) -> list[Finding]:
    from dataclasses import replace

    from .intake.imap import IntakeError, connect, imap_user

    host, port, tls = settings.imap_host, settings.imap_port, settings.imap_tls
    where = f"{host}:{port}"
    names = ["IMAP server", "IMAP login", "IMAP mailbox", "IMAP processed folder"]
    why = await _tcp_probe(host, port, timeout)
    if why is not None:
        return [Finding(names[0], FAILED, f"cannot connect to {where}: {why}",
                        "check imap_host and imap_port (993 for ssl, 143 for starttls) and that the server is up "
                        "and reachable from here"),
                *(Finding(n, SKIPPED, "no connection") for n in names[1:])]
    user = imap_user(settings)
    try:
        settings.secret("imap_password")
    except ConfigError as exc:
        return [Finding(names[0], OK, f"{where} answers (TLS not tried: no password to log in with)"),
                Finding(names[1], FAILED, str(exc), "put the password on the first line of imap_password_file"),
                *(Finding(n, SKIPPED, "not logged in") for n in names[2:])]
    try:
        conn = await connect(replace(settings, mail_timeout=timeout))
    except ConfigError as exc:
        return [Finding(names[0], FAILED, str(exc), "fix the setting named"),
                *(Finding(n, SKIPPED, "no connection") for n in names[1:])]
    except IntakeError as exc:
        text = str(exc)
        if "login" in text.lower():
            from .mailer.oauth2 import login_hint

            return [Finding(names[0], OK, f"{where}, TLS {tls}"),
                    Finding(names[1], FAILED, text.split(" (")[0],
                            "check imap_user (default: referee_address) and "
                            + ("the OAuth2 settings; " if settings.oauth2 else
                               "imap_password / imap_password_file; ") + login_hint(settings, "IMAP")),
                    *(Finding(n, SKIPPED, "not logged in") for n in names[2:])]
        return [Finding(names[0], FAILED, f"{text} (TLS {tls})",
                        "check imap_tls: ssl for port 993, starttls for 143; for ssl the server's certificate "
                        "must be valid for imap_host"),
                *(Finding(n, SKIPPED, "no connection") for n in names[1:])]
    how = " with an OAuth2 token (XOAUTH2)" if settings.oauth2 else ""
    out = [Finding(names[0], OK, f"{where}, TLS {tls}"), Finding(names[1], OK, f"logged in as {user}{how}")]
    try:
        mailbox = settings.imap_mailbox
        response = await conn.call(f"EXAMINE {mailbox}", conn.client.examine(_quote(mailbox)))
        if response.result == "OK":
            out.append(Finding(names[2], OK, f"{mailbox}: {_count(response.lines, b'EXISTS') or 0} message(s)"))
        else:
            out.append(Finding(names[2], FAILED, f"{mailbox} cannot be opened: {_text(response.lines)}",
                               "set imap_mailbox to an existing folder (usually INBOX)"))
        processed = settings.imap_processed.strip()
        if not processed:
            out.append(Finding(names[3], OK, "none: processed mail is flagged seen and left in place"))
        else:
            response = await conn.call(f"STATUS {processed}", conn.client.status(_quote(processed), "(MESSAGES)"))
            if response.result == "OK":
                out.append(Finding(names[3], OK, f"{processed}: {_count(response.lines, b'MESSAGES') or 0} "
                                                 "message(s)"))
            else:
                out.append(Finding(names[3], WARNING, f"{processed} does not exist yet: the first tick creates it",
                                   "nothing to do, unless the account may not create folders: then create it"))
    except IntakeError as exc:
        done = {f.item for f in out}
        out.extend(Finding(n, FAILED, str(exc), "check the server's log") for n in names if n not in done)
    finally:
        await conn.close()
    return out


def _text(lines: list[Any]) -> str:
    return " ".join(x.decode("utf-8", "replace") for x in lines if isinstance(x, bytes))[:200]


async def check_smtp(settings: Settings, timeout: float) -> list[Finding]:
    import aiosmtplib

    host, port, tls = settings.smtp_host, settings.smtp_port, settings.smtp_tls
    where = f"{host}:{port}"
    names = ["SMTP server", "SMTP login", "SMTP sender"]
    if tls not in TLS_MODES:
        return [Finding(names[0], FAILED, f"smtp_tls is {tls!r}", f"set smtp_tls to one of {', '.join(TLS_MODES)}"),
                *(Finding(n, SKIPPED, "no connection") for n in names[1:])]
    why = await _tcp_probe(host, port, timeout)
    if why is not None:
        return [Finding(names[0], FAILED, f"cannot connect to {where}: {why}",
                        "check smtp_host and smtp_port (587 for starttls, 465 for ssl) and that the server is up "
                        "and reachable from here"),
                *(Finding(n, SKIPPED, "no connection") for n in names[1:])]
    smtp = aiosmtplib.SMTP(hostname=host, port=port, timeout=timeout, use_tls=tls == "ssl",
                           start_tls=tls == "starttls")
    try:
        await smtp.connect()
    except (aiosmtplib.SMTPException, OSError) as exc:
        return [Finding(names[0], FAILED, f"{where} (TLS {tls}): {_smtp_error(exc)}",
                        "check smtp_tls: starttls for port 587, ssl for 465; for TLS the server's certificate "
                        "must be valid for smtp_host"),
                *(Finding(n, SKIPPED, "no connection") for n in names[1:])]
    out = [Finding(names[0], OK, f"{where}, TLS {tls}")]
    try:
        if settings.oauth2:
            from .mailer.oauth2 import OAuth2Error, access_token_async, login_hint

            user = settings.smtp_user or settings.referee_address
            try:
                await smtp.auth_xoauth2(user, await access_token_async(settings))
                out.append(Finding(names[1], OK, f"logged in as {user} with an OAuth2 token (XOAUTH2)"))
            except OAuth2Error as exc:
                out.append(Finding(names[1], FAILED, f"no OAuth2 token: {exc}", "fix the oauth2_* settings named"))
            except aiosmtplib.SMTPException as exc:
                out.append(Finding(names[1], FAILED, f"XOAUTH2 login as {user} refused: {_smtp_error(exc)}",
                                   login_hint(settings, "SMTP")))
        elif settings.smtp_user:
            try:
                await smtp.login(settings.smtp_user, settings.secret("smtp_password"))
                out.append(Finding(names[1], OK, f"logged in as {settings.smtp_user}"))
            except ConfigError as exc:
                out.append(Finding(names[1], FAILED, str(exc), "make the password file readable"))
            except aiosmtplib.SMTPAuthenticationError as exc:
                from .mailer.oauth2 import login_hint

                out.append(Finding(names[1], FAILED, f"login as {settings.smtp_user} refused: {_smtp_error(exc)}",
                                   "check smtp_user and smtp_password / smtp_password_file; "
                                   + login_hint(settings, "SMTP")))
            except aiosmtplib.SMTPException as exc:
                out.append(Finding(names[1], FAILED, f"login as {settings.smtp_user}: {_smtp_error(exc)}",
                                   "the server offers no login here: leave smtp_user empty, or use TLS "
                                   "(many servers offer AUTH only after STARTTLS)"))
        else:
            out.append(Finding(names[1], OK, "no smtp_user: the server must take mail from this host without login"))
        if out[-1].verdict == FAILED:
            out.append(Finding(names[2], SKIPPED, "not logged in"))
            return out
        try:
            await smtp.mail(settings.referee_address)
            out.append(Finding(names[2], OK, f"{settings.referee_address} accepted as sender (nothing sent)"))
        except aiosmtplib.SMTPResponseException as exc:
            out.append(Finding(names[2], FAILED, f"{settings.referee_address} refused as sender: {_smtp_error(exc)}",
                               "set referee_address to the address of the account smtp_user logs in as"))
        with contextlib.suppress(aiosmtplib.SMTPException):
            await smtp.rset()
    except aiosmtplib.SMTPException as exc:
        done = {f.item for f in out}
        out.extend(Finding(n, FAILED, _smtp_error(exc), "check the server's log") for n in names if n not in done)
    finally:
        try:
            await smtp.quit()
        except (aiosmtplib.SMTPException, OSError):
            smtp.close()
    return out


def _smtp_error(exc: Exception) -> str:
    code, message = getattr(exc, "code", None), getattr(exc, "message", None)
    if code is not None and message is not None:
        return f"{code} {' '.join(str(message).split())}"
    return " ".join(str(exc).split()) or type(exc).__name__


# -- a mail to ourselves (--send-test) -------------------------------------------------------------------------
SEND_TEST = "send test"


def test_address(settings: Settings, marker: str) -> str:
    """Where the send test goes: the referee's own reply-address form (``referee+selftest-<marker>@``), or
    its plain address when tokens ride in the subject only."""
    from .intake.tokens import delimiter

    if "address" not in settings.token_places:
        return settings.referee_address
    local, _, domain = settings.referee_address.rpartition("@")
    return f"{local}{delimiter(settings)}selftest-{marker}@{domain}"


def _test_mail(settings: Settings, to: str, marker: str) -> bytes:
    from email.message import EmailMessage
    from email.utils import formatdate, make_msgid

    from .orders.mailtext import outgoing_headers

    msg = EmailMessage()
    msg["From"] = f"{settings.referee_name} <{settings.referee_address}>"
    msg["To"] = to
    msg["Subject"] = f"referee send test {marker}"
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(f"selftest.{marker}", domain=settings.domain)
    for name, value in outgoing_headers(settings.referee_address, reply=False).items():
        msg[name] = value
    msg.set_content("A test by 'referee config check --send-test': it is deleted when it arrives.\n"
                    "If you see it, nothing needs doing.\n")
    return msg.as_bytes()


async def send_test(settings: Settings, wait: float) -> Finding:
    """Mail the referee's own reply address through the SMTP server and watch the IMAP mailbox until it
    arrives (then delete it), or ``wait`` seconds pass: does the provider deliver plus addresses?"""
    import secrets
    import time

    from .intake.imap import IntakeError, connect, search_uids, select
    from .mailer.transports import DeliveryError, transport_for

    if _transport(settings) != "imap":
        return Finding(SEND_TEST, SKIPPED, "only with transport 'imap' (the referee reads a mailbox it can watch)")
    marker = secrets.token_hex(6)
    to = test_address(settings, marker)
    raw = _test_mail(settings, to, marker)
    form_fix = (f"the provider does not deliver {to} to {settings.referee_address}: turn sub-addressing on "
                f"(Postfix: recipient_delimiter = {settings.address_delimiter or '+'}; Dovecot LMTP: the same "
                "setting), set address_delimiter to the delimiter the server uses, or set reply_token = "
                "\"subject\" (no sub-addressing needed); deploy/README.md has each provider's recipe")
    try:
        transport = transport_for(settings)
    except ConfigError as exc:
        return Finding(SEND_TEST, FAILED, str(exc), "fix the setting named")
    try:
        refused = await transport.send(settings.referee_address, [to], raw)
    except DeliveryError as exc:
        fix = form_fix if " 5" in f" {exc}" and "address" in settings.token_places else \
            "see the SMTP lines above and the mail server's log"
        return Finding(SEND_TEST, FAILED, f"the mail to {to} was not taken: {exc}", fix)
    finally:
        await transport.close()
    if refused:
        return Finding(SEND_TEST, FAILED, f"the mail to {to} was refused: {refused.get(to, refused)}", form_fix)
    start = time.monotonic()
    conn = None
    try:
        conn = await connect(settings)
        while True:
            await select(conn, settings.imap_mailbox)
            found = await search_uids(conn, "HEADER", "Subject", f'"{marker}"')
            if found:
                elapsed = time.monotonic() - start
                uid_set = ",".join(str(u) for u in found)
                await conn.call("UID STORE", conn.client.uid("store", uid_set, "+FLAGS", "(\\Deleted)"))
                if "UIDPLUS" in conn.capabilities:
                    await conn.call("UID EXPUNGE", conn.client.uid("expunge", uid_set))
                how = "with the token in the subject" if "address" not in settings.token_places else ""
                return Finding(SEND_TEST, OK, f"a mail to {to} {how} arrived in {settings.imap_mailbox} after "
                                              f"{elapsed:.1f} s ({len(raw)} bytes); deleted again")
            if time.monotonic() - start > wait:
                break
            await asyncio.sleep(1.0)
    except IntakeError as exc:
        return Finding(SEND_TEST, FAILED, f"sent to {to}, then: {exc}", "see the IMAP lines above")
    finally:
        if conn is not None:
            await conn.close()
    return Finding(SEND_TEST, FAILED, f"a mail to {to} was taken by {settings.smtp_host} but did not arrive in "
                                      f"{settings.imap_mailbox} within {wait:g} s", form_fix + "; look in the spam "
                                      "folder too, and try again with a longer --timeout")


# -- all of it --------------------------------------------------------------------------------------------------
@dataclass
class Report:
    config: str | None
    user: str
    findings: list[Finding]
    settings: dict[str, Any] | None = None

    @property
    def failed(self) -> bool:
        return any(f.verdict == FAILED for f in self.findings)

    def counts(self) -> dict[str, int]:
        out = {v: 0 for v in (OK, WARNING, FAILED, SKIPPED)}
        for f in self.findings:
            out[f.verdict] += 1
        return out

    def as_json(self) -> dict[str, Any]:
        return {"config": self.config, "user": self.user, "ok": not self.failed, "counts": self.counts(),
                "checks": [asdict(f) for f in self.findings], "settings": self.settings}

    def text(self) -> str:
        lines = [f"referee config check: {self.config or 'no config file'} (as user {self.user})"]
        width = max((len(f.item) for f in self.findings), default=0)
        for f in self.findings:
            lines.append(f"{f.verdict:<8} {f.item:<{width}}  {f.detail}")
            if f.fix and f.verdict in (FAILED, WARNING):
                lines.append(f"{'':<8} {'':<{width}}  fix: {f.fix}")
        c = self.counts()
        summary = f"{c[OK]} ok, {c[WARNING]} warning(s), {c[FAILED]} FAILED"
        lines.append(summary + (f", {c[SKIPPED]} skipped" if c[SKIPPED] else ""))
        return "\n".join(lines)


def masked_settings(settings: Settings) -> dict[str, Any]:
    """Every setting's value, the secrets as ``set`` / ``not set``."""
    out: dict[str, Any] = {}
    for name in setting_names():
        value = getattr(settings, name)
        if name in Settings.SECRET_FIELDS:
            value = _set(value)
        elif name == "database_url":
            from .store.db import parse_url
            from .store.errors import StoreError

            try:
                value = parse_url(value).render_as_string(hide_password=True)
            except StoreError:
                value = "(not a valid URL)"
        out[name] = value
    return out


def run_checks(path: str | None = None, env: Mapping[str, str] | None = None, *,
               timeout: float | None = None, send: bool = False) -> Report:
    """Every check, in order. ``timeout``: for each mail server (default: the ``mail_timeout`` setting).
    ``send``: also :func:`send_test` (one mail sent, when the servers passed)."""
    env = os.environ if env is None else env
    config_path = config_file_from(path, env)
    shown = str(config_path.expanduser().resolve()) if config_path is not None else None
    settings, findings = check_config(path, env)
    if settings is None:
        later = ["database", "boards", "mail servers", "lock file", "fonts"]
        findings.extend(Finding(n, SKIPPED, "the configuration did not load") for n in later)
        return Report(shown, _user(), findings)
    findings.extend(check_values(settings))
    transport = _transport(settings)
    local: list[Callable[[], Finding | list[Finding]]] = [
        lambda: check_database(settings), lambda: check_boards(settings)]
    if transport == "maildir":
        local.append(lambda: check_maildirs(settings))
    local += [lambda: check_lock(settings), lambda: check_archive(settings), check_fonts]
    for check in local:
        result = check()
        findings.extend(result if isinstance(result, list) else [result])
    if transport in ("imap", "smtp"):
        from .mailer.oauth2 import nothing_kept

        limit = timeout if timeout is not None else settings.mail_timeout
        with nothing_kept():
            findings.extend(asyncio.run(_servers(settings, limit, imap=transport == "imap")))
        if send and any(f.verdict == FAILED for f in findings if f.item.startswith(("IMAP", "SMTP"))):
            findings.append(Finding(SEND_TEST, SKIPPED, "the mail servers failed above"))
        elif send:
            with nothing_kept():
                findings.append(asyncio.run(send_test(settings, max(limit, 10.0) * 2)))
    elif transport == "maildir":
        findings.append(Finding("mail servers", SKIPPED, "not used with transport 'maildir'"))
    else:
        findings.append(Finding("mail servers", SKIPPED, f"transport {settings.transport!r} is not known"))
    return Report(shown, _user(), findings, masked_settings(settings))


async def _servers(settings: Settings, timeout: float, *, imap: bool = True) -> list[Finding]:
    """The SMTP server, and the IMAP server unless ``imap`` is False (``transport = "smtp"``)."""
    async def guarded(name: str, check: Awaitable[list[Finding]]) -> list[Finding]:
        try:
            return await check
        except Exception as exc:  # a verdict, not a traceback
            return [Finding(name, FAILED, f"{type(exc).__name__}: {exc}", "run with the same settings and "
                                                                           "look at the server's log")]

    if not imap:
        return [Finding("IMAP server", SKIPPED, "not used with transport 'smtp': mail comes in only through "
                                                "`referee ingest`, nothing is polled"),
                *await guarded("SMTP server", check_smtp(settings, timeout))]
    found_imap, found_smtp = await asyncio.gather(guarded("IMAP server", check_imap(settings, timeout)),
                                                  guarded("SMTP server", check_smtp(settings, timeout)))
    return [*found_imap, *found_smtp]



def main(config: str | None, *, as_json: bool, timeout: float | None, send: bool = False) -> int:
    """``referee config check``: print the report; the exit status (1 when anything FAILED)."""
    import json

    import click

    report = run_checks(config, timeout=timeout, send=send)
    click.echo(json.dumps(report.as_json(), indent=2, default=str) if as_json else report.text())
    return 1 if report.failed else 0
