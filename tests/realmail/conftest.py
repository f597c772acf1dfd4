"""Fixtures for the real-mail tests: Dovecots set up as providers are (a ``-`` recipient delimiter, XOAUTH2
logins checked by an OAuth2 provider on loopback), SMTP servers delivering into them, and a SQLite store
(these tests are about mail, not the database: the store tests cover PostgreSQL)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.store import Store
from tests.servers.dovecot import DOMAIN, Dovecot, running_dovecot
from tests.servers.smtp import SmtpServer, start_smtp

from .servers import OAuthSmtpHandler, Provider, start_oauth_smtp


@pytest.fixture
def sqlite_store(sqlite_template: Path, tmp_path: Path) -> Iterator[Store]:
    path = tmp_path / "referee.sqlite3"
    shutil.copy(sqlite_template, path)
    with Store(f"sqlite:///{path}") as store:
        yield store


@pytest.fixture(scope="session")
def dash_dovecot() -> Iterator[Dovecot]:
    """A Dovecot whose recipient delimiter is ``-`` (``referee-anything@`` is delivered to ``referee@``)."""
    with running_dovecot("referee-dovecot-dash-", delimiter="-") as server:
        yield server


@pytest.fixture(scope="session")
def dash_smtp(dash_dovecot: Dovecot) -> Iterator[SmtpServer]:
    server = start_smtp(dash_dovecot.lmtp_port)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def provider() -> Iterator[Provider]:
    """The OAuth2 provider: refresh token ``rt-referee`` belongs to referee@, ``rt-alice`` to alice@."""
    p = Provider(refresh_tokens={"rt-referee": f"referee@{DOMAIN}", "rt-alice": f"alice@{DOMAIN}"}).start()
    yield p
    p.stop()


@pytest.fixture(scope="session")
def oauth_dovecot(provider: Provider) -> Iterator[Dovecot]:
    """A Dovecot that takes XOAUTH2 logins, each token checked with the provider (Dovecot's oauth2 passdb)."""
    with running_dovecot("referee-dovecot-oauth-", tokeninfo_url=f"{provider.url}/tokeninfo?access_token=") as server:
        yield server


@pytest.fixture(scope="session")
def oauth_smtp(oauth_dovecot: Dovecot, provider: Provider) -> Iterator[tuple[int, OAuthSmtpHandler]]:
    controller, handler, port = start_oauth_smtp(oauth_dovecot.lmtp_port, provider)
    yield port, handler
    controller.stop()
