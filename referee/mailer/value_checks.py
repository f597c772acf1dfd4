"""Each setting's value checked for ``referee config check`` (the file and the environment are
:mod:`.config_checks`'s): servers, secrets, OAuth2, reply addresses, DKIM, game defaults, the tick's cadence."""

from __future__ import annotations

from ..common.config import TLS_MODES, TLS_PORTS, ConfigError, Settings
from ..common.config_values import LOG_LEVELS, NOT_DELIMITERS
from ..common.private import readable_by_others
from .config_checks import Finding, Item, is_loopback, looks_like_address


def transport_of(settings: Settings) -> str | None:
    """The transport (``maildir``, ``imap`` or ``smtp``), or None when the setting names none of them."""
    try:
        return settings.mail_transport
    except ConfigError:
        return None


def check_values(settings: Settings) -> list[Finding]:
    out: list[Finding] = []
    transport = transport_of(settings)
    mail = transport in ("imap", "smtp")  # a real mail account: SMTP out, players write to the address

    item = Item("transport")
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

    item = Item("addresses")
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

    item = Item("GM")
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
    item.ok_text = (f"gm_address {settings.gm_address or 'not set'}, gm_secret {set_or_not(settings.gm_secret)}, "
                    f"signing_key {'set' if settings.signing_key else 'derived from gm_secret and the database URL'}")
    out.append(item.finding())

    if transport == "imap":
        out.append(_server_values(settings, "imap"))
    if mail:
        out.append(_server_values(settings, "smtp"))
        out.append(_oauth2_values(settings) if settings.mail_auth.strip().lower() == "oauth2"
                   else _secrets(settings, imap=transport == "imap"))
    out.append(_reply_addresses(settings, mail))
    out.append(_dkim(settings, mail))

    item = Item("limits")
    checks: list[tuple[str, float, float]] = [
        ("mail_timeout", settings.mail_timeout, 1), ("max_mail_bytes", settings.max_mail_bytes, 10_000),
        ("error_replies_per_hour", settings.error_replies_per_hour, 0), ("tick_interval", settings.tick_interval, 10),
        ("answers_per_hour", settings.answers_per_hour, 1), ("outbox_batch", settings.outbox_batch, 1),
        ("outbox_pass_seconds", settings.outbox_pass_seconds, 1),
    ]
    for name, value, low in checks:
        if value < low:
            item.fail(f"{name} = {value} is below {low:g}", f"raise {name}")
    if settings.mail_timeout * 2 > settings.tick_interval:
        item.warn(f"mail_timeout ({settings.mail_timeout:g} s) is long for a tick every {settings.tick_interval} s",
                  "lower mail_timeout")
    if settings.outbox_pass_seconds >= settings.tick_interval:
        item.warn(f"outbox_pass_seconds ({settings.outbox_pass_seconds:g}) is not below tick_interval "
                  f"({settings.tick_interval}): a busy outbox makes the next tick wait for the lock",
                  "lower outbox_pass_seconds")
    if settings.log_level.lower() not in LOG_LEVELS:
        item.fail(f"log_level {settings.log_level!r} is not one of {', '.join(LOG_LEVELS)}", "set log_level = \"info\"")
    item.ok_text = (f"tick every {settings.tick_interval} s, mail timeout {settings.mail_timeout:g} s, "
                    f"mails up to {settings.max_mail_bytes} bytes, log level {settings.log_level}; outbox sent in "
                    f"batches of {settings.outbox_batch}, a pass up to {settings.outbox_pass_seconds:g} s")
    out.append(item.finding())

    out.append(_game_defaults(settings))
    return out


def tick_cadence(settings: Settings, seen: list[float] | None) -> Finding:
    """The ticks' real cadence (``seen``: the gaps between the recent runs, in seconds, as the tick records
    them; None: not known) against ``tick_interval``: a warning when they come less often. Outages are
    judged by the real cadence (:mod:`referee.cron.cadence`), so this is for the operator's eyes."""
    from statistics import median

    item = Item("tick cadence")
    if not seen:
        item.ok_text = "no ticks recorded yet: their cadence is compared with tick_interval once the tick has run"
        return item.finding()
    real = median(seen)
    if real > settings.tick_interval * 1.5:
        item.warn(f"ticks come every {real / 60:.0f} minutes (the median of the last {len(seen)} gaps), less often "
                  f"than tick_interval ({settings.tick_interval} s)",
                  f"set tick_interval = {int(real)} to match the crontab, or run the tick more often")
    item.ok_text = f"ticks every {real / 60:.1f} minutes (the median of the last {len(seen)} gaps)"
    return item.finding()


def set_or_not(value: str) -> str:
    return "set" if value else "not set"


def _server_values(settings: Settings, kind: str) -> Finding:
    host, port = getattr(settings, f"{kind}_host"), getattr(settings, f"{kind}_port")
    ports = TLS_PORTS[kind]
    item = Item(f"{kind.upper()} settings", f"{host}:{port}, TLS {getattr(settings, f'{kind}_tls')}")
    if not host:
        item.fail(f"{kind}_host is empty", f"set {kind}_host")
    try:
        tls = settings.tls_mode(kind)
    except ConfigError as exc:
        tls, bad_tls = "", str(exc)
    if not 0 < port < 65536:
        item.fail(f"{kind}_port {port} is not a port number",
                  f"set {kind}_port (usually {ports.get(tls, ports['ssl'])})")
    if not tls:
        item.fail(bad_tls, f"set {kind}_tls to one of {', '.join(TLS_MODES)}")
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
    item = Item("passwords")
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
        shown.append(f"{name} {set_or_not(value)}{where}")
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
    item = Item("OAuth2")
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
            shown.append(f"{name} {set_or_not(settings.secret(name))}")
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
    from .oauth2 import cache_path

    item.ok_text = (f"refresh at {settings.oauth2_token_url}, client {settings.oauth2_client_id}, "
                    f"{', '.join(shown)}; token cached in {cache_path(settings)}")
    return item.finding()


def _reply_addresses(settings: Settings, mail: bool) -> Finding:
    """``address_delimiter`` and ``reply_token``: what a turn mail's reply address looks like."""
    item = Item("reply addresses")
    delimiter = settings.address_delimiter
    if len(delimiter) > 1 or (delimiter and (delimiter in NOT_DELIMITERS or delimiter.isalnum())):
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
    from .dkim import signer_for

    item = Item("DKIM")
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
    from ..common.clock import TimeError, parse_duration
    from ..store.models import MISSING_ORDERS_POLICIES

    item = Item("game defaults")
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


