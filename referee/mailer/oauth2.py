"""OAuth2 access tokens for XOAUTH2 logins to IMAP and SMTP (``mail_auth = "oauth2"``).

Two ways to have a token:

- ``oauth2_token_file``: a file holding a current access token, which another program keeps fresh.
- ``oauth2_refresh_token`` (or ``..._file``) with ``oauth2_token_url``, ``oauth2_client_id`` (and for most
  providers ``oauth2_client_secret``): the referee asks the provider's token endpoint for an access token
  (an HTTP POST, ``grant_type=refresh_token``, RFC 6749 section 6) when it has none that is still good for a
  minute. The token, its expiry and any newer refresh token the provider hands out (Microsoft's rotate) are
  kept in ``oauth2_cache_file`` (owner-only), so a tick every five minutes asks about once an hour.

No secret is ever part of an error message or a log line: errors name the setting to check and what the
provider said (its ``error`` and ``error_description``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from ..common.config import ConfigError, Settings
from ..common.private import open_private

#: an access token is used only while it is good for at least this many more seconds
MARGIN = 60
#: what to write in an error about the OAuth2 settings
CHECK = ("check oauth2_token_url, oauth2_client_id, oauth2_client_secret and oauth2_refresh_token "
         "(a refresh token is voided by a password change or after months unused: make a new one)")


#: False while :func:`nothing_kept` runs (``config check`` creates no files)
_KEEP: ContextVar[bool] = ContextVar("referee_oauth2_keep", default=True)


@contextlib.contextmanager
def nothing_kept() -> Iterator[None]:
    """Within it, a refreshed token is used but not written to the cache file."""
    token = _KEEP.set(False)
    try:
        yield
    finally:
        _KEEP.reset(token)


class OAuth2Error(Exception):
    """No access token could be had; the message says why, without secrets."""


def cache_path(settings: Settings) -> Path:
    """``oauth2_cache_file``, else ``oauth2-token.json`` beside the database (SQLite) or the config file."""
    if settings.oauth2_cache_file:
        return settings.path(settings.oauth2_cache_file)
    url = settings.database_url
    if url.startswith("sqlite") and ":///" in url and ":memory:" not in url:
        return Path(url.partition(":///")[2].partition("?")[0]).parent / "oauth2-token.json"
    return settings.base_dir / "oauth2-token.json"


def _read_cache(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_cache(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with os.fdopen(open_private(tmp), "w") as fh:
        json.dump(data, fh)
    os.replace(tmp, path)


def _token_file(settings: Settings) -> str:
    path = settings.path(settings.oauth2_token_file)
    try:
        token = path.read_text().strip().splitlines()[0].strip()
    except (OSError, IndexError):
        raise OAuth2Error(f"oauth2_token_file {path}: cannot read an access token from it "
                          "(is the program that refreshes it running?)") from None
    if not token:
        raise OAuth2Error(f"oauth2_token_file {path} is empty")
    return token


def _post(url: str, form: dict[str, str], timeout: float) -> dict[str, Any]:
    """POST ``form`` to the token endpoint; the JSON answer (an error answer raises OAuth2Error)."""
    body = urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read(1_000_000)
    except urllib.error.HTTPError as exc:
        said = _provider_said(exc.read(100_000))
        raise OAuth2Error(f"the token endpoint {url} refused the refresh: HTTP {exc.code}{said}; {CHECK}") from None
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise OAuth2Error(f"cannot reach the token endpoint {url}: {reason}") from None
    try:
        data = json.loads(raw)
    except ValueError:
        raise OAuth2Error(f"the token endpoint {url} did not answer with JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("access_token"), str) or not data["access_token"]:
        raise OAuth2Error(f"the token endpoint {url} gave no access_token{_provider_said(raw)}; {CHECK}")
    return data


def _provider_said(raw: bytes) -> str:
    try:
        data = json.loads(raw)
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    parts = [str(data[k])[:200] for k in ("error", "error_description") if isinstance(data.get(k), str)]
    return f" ({': '.join(parts)})" if parts else ""


def access_token(settings: Settings, *, now: float | None = None) -> str:
    """A current access token (from the token file, the cache, or a refresh). Raises :class:`OAuth2Error`."""
    if settings.oauth2_token_file:
        return _token_file(settings)
    try:
        refresh = settings.secret("oauth2_refresh_token")
        client_secret = settings.secret("oauth2_client_secret")
    except ConfigError as exc:
        raise OAuth2Error(str(exc)) from None
    if not refresh or not settings.oauth2_token_url or not settings.oauth2_client_id:
        raise OAuth2Error("mail_auth is oauth2 but there is no token: set oauth2_token_file, or "
                          "oauth2_token_url, oauth2_client_id and oauth2_refresh_token (or oauth2_refresh_token_file)")
    now = time.time() if now is None else now
    path = cache_path(settings)
    cache = _read_cache(path)
    # a cache made for another client or endpoint is not used
    same = cache.get("client_id") == settings.oauth2_client_id and cache.get("token_url") == settings.oauth2_token_url
    if same and isinstance(cache.get("access_token"), str) and float(cache.get("expires_at", 0)) > now + MARGIN:
        return str(cache["access_token"])
    if same and isinstance(cache.get("refresh_token"), str) and cache.get("configured") == _fingerprint(refresh):
        refresh_now = str(cache["refresh_token"])  # the provider's newer one, for the same configured token
    else:
        refresh_now = refresh
    form = {"grant_type": "refresh_token", "refresh_token": refresh_now, "client_id": settings.oauth2_client_id}
    if client_secret:
        form["client_secret"] = client_secret
    if settings.oauth2_scope:
        form["scope"] = settings.oauth2_scope
    data = _post(settings.oauth2_token_url, form, settings.mail_timeout)
    expires_in = data.get("expires_in", 3600)
    try:
        lifetime = float(expires_in)
    except (TypeError, ValueError):
        lifetime = 3600.0
    new_cache = {"client_id": settings.oauth2_client_id, "token_url": settings.oauth2_token_url,
                 "access_token": data["access_token"], "expires_at": now + lifetime,
                 "configured": _fingerprint(refresh)}
    newer = data.get("refresh_token")
    new_cache["refresh_token"] = newer if isinstance(newer, str) and newer else refresh_now
    try:
        if _KEEP.get():
            _write_cache(path, new_cache)
    except OSError as exc:
        raise OAuth2Error(f"oauth2_cache_file {path}: cannot write it ({exc.strerror or exc})") from None
    return str(data["access_token"])


def _fingerprint(secret: str) -> str:
    """Which configured refresh token a cache belongs to, without keeping the token itself twice."""
    return hashlib.sha256(secret.encode()).hexdigest()[:16]


async def access_token_async(settings: Settings) -> str:
    """:func:`access_token` off the event loop (the refresh is a blocking HTTP request)."""
    return await asyncio.to_thread(access_token, settings)


def login_hint(settings: Settings, server: str) -> str:
    """What to check after a refused login, for the way this configuration logs in."""
    if settings.mail_auth.strip().lower() == "oauth2":
        return (f"the {server} server refused the OAuth2 token: check that the account allows IMAP/SMTP with OAuth2 "
                "(Microsoft 365: 'Authenticated SMTP' and IMAP enabled for the mailbox), that the token's scope "
                f"covers mail, and {CHECK}")
    return (f"check the user name and the password of the {server} account; providers with 2-step verification "
            "(Gmail, Fastmail, iCloud, Yahoo) take only an app password made for the referee, not the account's "
            "own password; Microsoft 365 and Outlook.com refuse passwords: use mail_auth = \"oauth2\"")
