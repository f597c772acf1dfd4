"""The checks of the mail servers: connection, TLS and login as the intake and the outbox make them, the
mailbox and the processed folder (IMAP), the sender address (SMTP; ``RSET`` before any mail)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
from typing import Any

from ..common.config import ConfigError, Settings
from ..mailer.config_checks import FAILED, OK, SKIPPED, WARNING, Finding


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

    from ..intake.imap import IntakeError, connect, imap_user

    host, port, tls = settings.imap_host, settings.imap_port, settings.imap_tls.strip().lower()
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
        if "no OAuth2 token:" in text:   # the IMAP server answered; the token endpoint did not give a token
            reach = "cannot reach the token endpoint" in text
            return [Finding(names[0], OK, f"{where}, TLS {tls}"),
                    Finding(names[1], FAILED, text,
                            "the IMAP server is fine: the OAuth2 token could not be had. "
                            + ("Check oauth2_token_url and that this machine reaches it (network, proxy, firewall)"
                               if reach else "Fix the oauth2_* settings named")),
                    *(Finding(n, SKIPPED, "not logged in") for n in names[2:])]
        if "login" in text.lower():
            from ..mailer.oauth2 import login_hint

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

    host, port = settings.smtp_host, settings.smtp_port
    where = f"{host}:{port}"
    names = ["SMTP server", "SMTP login", "SMTP sender"]
    try:
        tls = settings.tls_mode("smtp")
    except ConfigError as exc:
        return [Finding(names[0], FAILED, str(exc), "fix the setting named"),
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
            from ..mailer.oauth2 import OAuth2Error, access_token_async, login_hint

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
                from ..mailer.oauth2 import login_hint

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


