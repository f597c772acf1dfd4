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

import typing
from dataclasses import dataclass, replace
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
