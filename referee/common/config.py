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
import re
import tomllib
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "REFEREE_"
CONFIG_ENV = "REFEREE_CONFIG"
DEFAULT_SQLITE_NAME = "referee.sqlite3"
#: the values of ``transport`` (see :attr:`Settings.mail_transport`)
TRANSPORTS = ("maildir", "imap", "smtp")
#: the values of ``reply_token`` and ``mail_auth``
REPLY_TOKEN_PLACES = ("address", "subject", "both")
MAIL_AUTHS = ("password", "oauth2")
#: the values of ``imap_tls`` and ``smtp_tls``: TLS from the first byte, upgraded after the greeting, or none
TLS_MODES = ("ssl", "starttls", "none")
#: the usual port of each TLS mode, per server kind (``imap``, ``smtp``)
TLS_PORTS = {"imap": {"ssl": 993, "starttls": 143, "none": 143}, "smtp": {"ssl": 465, "starttls": 587, "none": 25}}


class ConfigError(ValueError):
    """A configuration file or variable that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    #: SQLAlchemy URL of the game store, e.g. ``sqlite:////var/lib/referee/referee.sqlite3`` or
    #: ``postgresql+psycopg://referee:secret@localhost/referee``. Empty: a SQLite file
    #: ``referee.sqlite3`` beside the config file, or in the current directory without one.
    database_url: str = ""

    # -- who the referee is --------------------------------------------------------------------------
    #: the address players write to and turn mails come from
    referee_address: str = "referee@localhost"
    #: the display name on the referee's mails
    referee_name: str = "RoboRally referee"
    #: domain for Message-IDs and Content-IDs (default: the domain of referee_address)
    mail_domain: str = ""
    #: the game master: commands from this address that carry ``gm_secret`` are obeyed
    gm_address: str = ""
    gm_secret: str = ""
    #: key for the tokens in reply addresses (default: derived from gm_secret and the database URL)
    signing_key: str = ""

    # -- how mail moves ----------------------------------------------------------------------------
    #: ``maildir``: inbox and outbox Maildirs, no servers (the default); ``imap``: a real mail account,
    #: polled over IMAP, mail out over SMTP; ``smtp``: mail out over SMTP, mail in only from an MTA
    #: that pipes each mail into ``referee ingest`` (nothing to poll)
    transport: str = "maildir"
    #: Maildirs of the maildir transport (relative paths are beside the config file)
    maildir_in: str = "mail/in"
    maildir_out: str = "mail/out"
    imap_host: str = "localhost"
    imap_port: int = 993
    #: ``ssl`` (port 993), ``starttls`` or ``none`` (loopback only)
    imap_tls: str = "ssl"
    imap_user: str = ""
    imap_password: str = ""
    #: a file holding the IMAP password (wins over imap_password in the file; REFEREE_IMAP_PASSWORD in the
    #: environment wins over both), kept out of the config file
    imap_password_file: str = ""
    imap_mailbox: str = "INBOX"
    #: where processed mail is moved; empty: mark it seen and leave it
    imap_processed: str = "Processed"
    smtp_host: str = "localhost"
    smtp_port: int = 587
    #: ``starttls`` (587), ``ssl`` (465) or ``none`` (loopback only)
    smtp_tls: str = "starttls"
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_password_file: str = ""
    #: ``password`` (imap_password, smtp_password) or ``oauth2``: XOAUTH2 logins with an access token from
    #: the ``oauth2_*`` settings, for providers that refuse passwords (Microsoft 365, Gmail without app passwords)
    mail_auth: str = "password"
    #: a file holding a current OAuth2 access token, kept fresh by another program (wins over a refresh token)
    oauth2_token_file: str = ""
    #: the provider's token endpoint, where a refresh token is turned into an access token
    oauth2_token_url: str = ""
    oauth2_client_id: str = ""
    oauth2_client_secret: str = ""
    oauth2_client_secret_file: str = ""
    oauth2_refresh_token: str = ""
    oauth2_refresh_token_file: str = ""
    #: scopes asked for at refresh (empty: those of the refresh token)
    oauth2_scope: str = ""
    #: where the access token (and a newer refresh token) is kept between ticks (default: beside the database)
    oauth2_cache_file: str = ""

    # -- reply addresses and signing -----------------------------------------------------------------
    #: the mail server's recipient delimiter: turn mails ask for replies to ``referee<delimiter><token>@domain``
    #: (``+`` for most providers, ``-`` for some Postfix and qmail setups)
    address_delimiter: str = "+"
    #: where a turn mail's reply token rides: ``address`` (the Reply-To plus address), ``subject`` (the token
    #: in the subject line, read back from ``Re:`` subjects; for mail servers without sub-addressing) or ``both``
    reply_token: str = "address"
    #: a PEM private key: every outgoing mail is DKIM-signed with it (empty: no signature)
    dkim_key_file: str = ""
    #: the DKIM selector: its public key is published at ``<selector>._domainkey.<domain>``
    dkim_selector: str = "referee"
    #: the signing domain (d=); default: the domain of referee_address
    dkim_domain: str = ""

    #: seconds to wait for a mail server before giving up this pass
    mail_timeout: float = 30.0
    #: incoming mails larger than this are rejected without being read
    max_mail_bytes: int = 2_000_000
    #: error replies to one sender per hour, at most
    error_replies_per_hour: int = 5
    #: the authserv-id of the receiving mail server whose Authentication-Results (and ARC) headers are
    #: trusted to tell a player's own mail from a forgery (DKIM, SPF, DMARC); empty: those headers are not
    #: read, and a forgery is known by its envelope sender alone (see docs/security.md)
    trusted_authserv_id: str = ""
    #: also read ARC-Authentication-Results of trusted_authserv_id, when the server wrote no
    #: Authentication-Results of its id; only for a server that seals ARC itself and removes ARC sets of its
    #: own id from incoming mail (off: a forged ARC set of that id is not read; see docs/security.md)
    trust_arc_results: bool = False
    #: answers of any kind to one address (and for one sender's mails) per hour, at most; a player's
    #: accepted orders and stale-orders answers are never held back (see referee.intake.limits)
    answers_per_hour: int = 20
    #: the outbound policy's budgets (referee.store.outbound, docs/security.md): mails to one address that
    #: never asked in 24 hours, and to all such addresses in an hour
    never_asked_per_day: int = 3
    never_asked_per_hour: int = 20
    #: notices to one game master in an hour; the others go in the GM's digest an hour later, never dropped
    gm_notices_per_hour: int = 20
    #: confirmation mails (SET ADDRESS, OBSERVE) one sender may cause in a day (the GM is told when over)
    confirmations_per_day: int = 10
    #: press messages one player may send in an hour (over it: NOT DONE, nothing kept)
    press_per_hour: int = 5
    #: an outbox pass sends its due mails in batches of this many (between batches it looks at the clock)
    outbox_batch: int = 500
    #: an outbox pass starts no new batch after this many seconds (the first batch always goes); what is
    #: left is logged and counted, and the next pass (the next tick) sends it. Keep it below tick_interval
    outbox_pass_seconds: float = 240.0

    # -- running -----------------------------------------------------------------------------------
    #: how often cron runs ``referee tick``; a gap much longer than this extends deadlines
    tick_interval: int = 300
    #: lock file that keeps two ticks from running at once (default: beside the database)
    lock_file: str = ""
    #: where ``referee archive build`` writes the static site
    archive_dir: str = "archive"
    #: the web address the archive is served at (e.g. https://example.org/referee/); when set, every
    #: turn mail links to its turn page and the last mail of a game to the game's page
    archive_url: str = ""
    #: build the archive after each resolved turn (``referee tick``), only the pages that changed
    archive_on_tick: bool = True
    #: log level: debug, info, warning, error (``referee --verbose`` commands show everything)
    log_level: str = "warning"
    #: folders of board and course files, looked in before the shipped boards (relative paths are beside the
    #: config file); in the environment ``REFEREE_BOARDS``, separated like PATH, which wins over the file
    boards: tuple[str, ...] = ()
    #: an SQLite database whose schema is older than this release: ``true`` upgrades it at the start of a tick
    #: (after a copy of the file is kept beside it); ``false`` (the default) refuses, in one line saying to
    #: run ``referee db upgrade``. PostgreSQL is never upgraded by a tick.
    sqlite_auto_upgrade: bool = False
    #: days a stored mail is kept whole when no live game needs it (ignored mail, mail of finished
    #: games); then only its header and what was made of it are kept. 0: keep everything
    retention_days: int = 30

    # -- defaults for new games --------------------------------------------------------------------
    default_course: str = "sprint"
    default_deadline: str = "5d"
    default_reminder: str = "24h"
    default_missing_orders: str = "autopilot"
    #: how long after the last program of a turn it waits before it is resolved (a moment to say
    #: "oops"); 0: at once
    default_settle: str = "30m"

    #: the file these settings were read from (not a setting itself)
    config_path: Path | None = None

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def base_dir(self) -> Path:
        """Where relative paths in the settings point: the config file's directory, or the cwd."""
        return self.config_path.parent if self.config_path is not None else Path.cwd()

    def path(self, value: str) -> Path:
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.base_dir / p

    @property
    def mail_transport(self) -> str:
        """``transport`` checked: one of :data:`TRANSPORTS` (any case); anything else is a :class:`ConfigError`."""
        value = self.transport.strip().lower()
        if value not in TRANSPORTS:
            raise ConfigError(f"transport must be maildir, imap or smtp, not {self.transport!r}")
        return value

    @property
    def token_places(self) -> frozenset[str]:
        """Where reply tokens go: ``{"address"}``, ``{"subject"}`` or both; ``reply_token`` checked.

        An empty ``address_delimiter`` means no sub-addressing: the subject then carries the token."""
        value = self.reply_token.strip().lower()
        if value not in REPLY_TOKEN_PLACES:
            raise ConfigError(f"reply_token must be address, subject or both, not {self.reply_token!r}")
        if not self.address_delimiter:
            return frozenset({"subject"})
        return frozenset({"address", "subject"}) if value == "both" else frozenset({value})

    def tls_mode(self, kind: str) -> str:
        """``imap_tls`` or ``smtp_tls`` (``kind`` is ``imap`` or ``smtp``) checked: one of :data:`TLS_MODES`
        (any case, spaces ignored); anything else is a :class:`ConfigError` naming the setting and the values."""
        return check_tls_mode(f"{kind}_tls", getattr(self, f"{kind}_tls"))

    @property
    def oauth2(self) -> bool:
        """Whether IMAP and SMTP log in with XOAUTH2 (``mail_auth`` checked)."""
        value = self.mail_auth.strip().lower()
        if value not in MAIL_AUTHS:
            raise ConfigError(f"mail_auth must be password or oauth2, not {self.mail_auth!r}")
        return value == "oauth2"

    @property
    def domain(self) -> str:
        return self.mail_domain or self.referee_address.rpartition("@")[2] or "localhost"

    def secret(self, name: str) -> str:
        """A password: from ``<name>_file`` when set (first line), else ``<name>``."""
        file_value = getattr(self, f"{name}_file", "")
        if file_value:
            try:
                return self.path(file_value).read_text().splitlines()[0].strip()
            except (OSError, IndexError) as exc:
                raise ConfigError(f"{name}_file {file_value}: cannot read a password from it ({exc})") from None
        return str(getattr(self, name))

    @property
    def board_dirs(self) -> list[Path]:
        """The ``boards`` folders as paths (relative ones beside the config file)."""
        return [self.path(d) for d in self.boards if d]

    #: settings never printed (config check, logs)
    SECRET_FIELDS: typing.ClassVar[frozenset[str]] = frozenset(
        {"gm_secret", "signing_key", "imap_password", "smtp_password", "oauth2_client_secret",
         "oauth2_refresh_token"})


def check_tls_mode(setting: str, value: str) -> str:
    """``value`` of the TLS setting ``setting`` as one of :data:`TLS_MODES`, else a :class:`ConfigError`."""
    mode = value.strip().lower()
    if mode not in TLS_MODES:
        raise ConfigError(f"{setting} must be one of {', '.join(TLS_MODES)}, not {value!r}")
    return mode


#: fields that are not read from the file or the environment
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


# -- what each value may be ---------------------------------------------------------------------------------
LOG_LEVELS = ("debug", "info", "warning", "error")
#: the game's policies for a missing program (as :data:`referee.store.models.MISSING_ORDERS_POLICIES`)
MISSING_ORDERS = ("random", "power_down", "repeat_locked", "autopilot")
#: characters that cannot stand between an address's local part and a token
NOT_DELIMITERS = frozenset("@<>()[],;:\\\" '.")
_ADDRESS = re.compile(r"^[^@\s<>(),;:\"\[\]]+@[^@\s<>(),;:\"\[\]]+$")


def _one_of(*allowed: str) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: str(v).strip().lower() in allowed), "one of " + ", ".join(allowed)


def _at_least(low: float) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v >= low), f"a number of at least {low:g}"


def _duration(v: Any) -> bool:
    from .clock import TimeError, parse_duration

    try:
        parse_duration(str(v))
    except TimeError:
        return False
    return True


def _delimiter(v: Any) -> bool:
    return v == "" or (len(v) == 1 and v not in NOT_DELIMITERS and not v.isalnum())


def _address(v: Any) -> bool:
    return v == "" or bool(_ADDRESS.match(v))


_PORT = ((lambda v: 0 < v < 65536), "a port number, 1 to 65535")
_DURATION = (_duration, "a duration such as 5d, 36h, 90m or 2d12h")
_EMAIL = (_address, "a mail address name@domain, without a display name")

#: setting -> (allowed?, what is allowed): every value read is checked against it when the settings load
VALUE_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "referee_address": ((lambda v: bool(_ADDRESS.match(v))), _EMAIL[1]),
    "gm_address": _EMAIL,
    "mail_domain": ((lambda v: "@" not in v and " " not in v), "a domain such as example.org"),
    "transport": _one_of(*TRANSPORTS),
    "imap_port": _PORT, "smtp_port": _PORT,
    "imap_tls": _one_of(*TLS_MODES), "smtp_tls": _one_of(*TLS_MODES),
    "mail_auth": _one_of(*MAIL_AUTHS),
    "address_delimiter": (_delimiter, 'one character such as "+" or "-" (not a letter, digit, dot or @), '
                                      'or "" when the server has no sub-addressing'),
    "reply_token": _one_of(*REPLY_TOKEN_PLACES),
    "mail_timeout": _at_least(1), "max_mail_bytes": _at_least(10_000),
    "error_replies_per_hour": _at_least(0), "answers_per_hour": _at_least(1),
    "outbox_batch": _at_least(1), "outbox_pass_seconds": _at_least(1),
    "tick_interval": _at_least(1), "retention_days": _at_least(0),
    "log_level": _one_of(*LOG_LEVELS),
    "default_deadline": _DURATION, "default_reminder": _DURATION, "default_settle": _DURATION,
    "default_missing_orders": _one_of(*MISSING_ORDERS),
}


def value_problems(settings: Settings, origins: Mapping[str, str] | None = None) -> list[str]:
    """One line for each value of ``settings`` that :data:`VALUE_RULES` does not allow: the setting, where it
    came from (``origins``: name -> file or variable), the value and what is allowed."""
    out = []
    for name, (allowed, wanted) in VALUE_RULES.items():
        value = getattr(settings, name)
        if allowed(value):
            continue
        where = f" (from the {origins[name]})" if origins and name in origins else ""
        out.append(f"setting {name} = {value!r}{where} is not allowed: it must be {wanted}")
    return out
