"""Every check in order, the report, and ``referee config check``'s output and exit status."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ..common.config import Settings
from ..common.config_load import config_file_from, setting_names
from ..cron.cadence import observed_gaps
from ..mailer.config_checks import FAILED, OK, SKIPPED, WARNING, Finding, check_config, user_name
from ..mailer.value_checks import check_values, set_or_not, tick_cadence, transport_of
from .local import (
    check_archive,
    check_boards,
    check_database,
    check_engine,
    check_fonts,
    check_game_courses,
    check_lock,
    check_maildirs,
)
from .send_test import SEND_TEST, send_test
from .servers import check_imap, check_smtp


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
            value = set_or_not(value)
        elif name == "database_url":
            from ..store.db import parse_url
            from ..store.errors import StoreError

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
        later = ["database", "boards", "mail servers", "lock file", "fonts", "engine"]
        findings.extend(Finding(n, SKIPPED, "the configuration did not load") for n in later)
        return Report(shown, user_name(), findings)
    findings.extend(check_values(settings))
    transport = transport_of(settings)
    database = check_database(settings)
    local: list[Callable[[], Finding | list[Finding]]] = [
        lambda: database, lambda: tick_cadence(settings, observed_gaps(settings)), lambda: check_boards(settings)]
    if database.verdict == OK and "empty" not in database.detail and "does not exist" not in database.detail:
        local.append(lambda: check_game_courses(settings))
    if transport == "maildir":
        local.append(lambda: check_maildirs(settings))
    local += [lambda: check_lock(settings), lambda: check_archive(settings), check_fonts, check_engine]
    for check in local:
        result = check()
        findings.extend(result if isinstance(result, list) else [result])
    if transport in ("imap", "smtp"):
        from ..mailer.oauth2 import nothing_kept

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
    return Report(shown, user_name(), findings, masked_settings(settings))


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

