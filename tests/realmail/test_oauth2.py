"""XOAUTH2 logins, as Microsoft 365 and Gmail want them: the referee refreshes its access token at the
provider's token endpoint and logs in to IMAP (a Dovecot whose oauth2 passdb asks the provider about each
token) and SMTP (a submission server that does the same). Secrets never appear in what is said."""

from __future__ import annotations

import json
import stat

import pytest

from referee.intake.imap import IntakeError, poll_async
from referee.mailer.oauth2 import OAuth2Error, access_token, cache_path
from referee.mailer.transports import ServerDown, transport_for
from tests.intake.helpers import REFEREE, address, append, mail, settings_for

from .helpers import last_mail

# the XOAUTH2 submission server demands a login without TLS: it is on loopback
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")


def oauth_settings(dovecot, store, provider, tmp_path, **changes):
    url = store.url.render_as_string(hide_password=False)
    base = settings_for(dovecot, url, mail_auth="oauth2", imap_password="", oauth2_token_url=f"{provider.url}/token",
                        oauth2_client_id=provider.client_id, oauth2_client_secret=provider.client_secret,
                        oauth2_refresh_token="rt-referee", oauth2_cache_file=str(tmp_path / "oauth2.json"))
    return base.with_overrides(**changes)


async def test_the_referee_polls_its_mailbox_with_a_refreshed_token_and_refreshes_only_when_it_runs_out(
        sqlite_store, oauth_dovecot, provider, tmp_path):
    oauth_dovecot.empty("referee")
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path)
    await append(oauth_dovecot, [mail(address("alice"), "HELP\n")])
    before = len(provider.refreshes)

    first = await poll_async(settings, sqlite_store)
    second = await poll_async(settings, sqlite_store)

    assert (first.stored, second.stored) == (1, 0)
    assert len(provider.refreshes) == before + 1  # the second tick used the cached token
    sent = provider.refreshes[-1]
    assert (sent["grant_type"], sent["refresh_token"], sent["client_id"]) == ("refresh_token", "rt-referee",
                                                                              provider.client_id)
    cache = cache_path(settings)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    # an hour on, the token has run out: the next login asks for a new one
    token = json.loads(cache.read_text())
    assert access_token(settings, now=token["expires_at"] - 30) != token["access_token"]
    assert len(provider.refreshes) == before + 2


async def test_a_rotated_refresh_token_is_kept_and_used_next_time(sqlite_store, oauth_dovecot, provider, tmp_path):
    """Microsoft hands out a new refresh token with each access token; the old one may stop working."""
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path, oauth2_refresh_token="rt-rotating")
    provider.refresh_tokens["rt-rotating"] = REFEREE
    provider.rotate = True
    try:
        first = access_token(settings, now=1_000_000.0)
        del provider.refresh_tokens["rt-rotating"]  # voided by the rotation
        second = access_token(settings, now=1_000_000.0 + 7200)
    finally:
        provider.rotate = False
    assert first != second
    assert provider.refreshes[-1]["refresh_token"] != "rt-rotating"


async def test_a_revoked_refresh_token_says_what_to_check_and_shows_no_secret(
        sqlite_store, oauth_dovecot, provider, tmp_path):
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path, oauth2_refresh_token="rt-revoked-xyz")
    with pytest.raises(IntakeError) as caught:
        await poll_async(settings, sqlite_store)
    said = str(caught.value)
    assert "invalid_grant" in said and "oauth2_refresh_token" in said
    assert "rt-revoked-xyz" not in said and provider.client_secret not in said


async def test_a_token_the_server_refuses_ends_the_login_with_what_to_check(
        sqlite_store, oauth_dovecot, provider, tmp_path):
    """The token file holds a token the provider never issued: Dovecot says no (its error comes as a SASL
    continuation the client must answer), and the login fails at once instead of hanging."""
    token_file = tmp_path / "token"
    token_file.write_text("at-never-issued\n")
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path, oauth2_token_file=str(token_file),
                              mail_timeout=10.0)
    with pytest.raises(IntakeError) as caught:
        await poll_async(settings, sqlite_store)
    said = str(caught.value)
    assert "refused" in said and "OAuth2" in said
    assert "at-never-issued" not in said


async def test_mail_goes_out_over_smtp_with_xoauth2(sqlite_store, oauth_dovecot, oauth_smtp, provider, tmp_path):
    port, handler = oauth_smtp
    oauth_dovecot.empty("alice")
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path, smtp_port=port, transport="imap")
    transport = transport_for(settings)
    try:
        await transport.send(REFEREE, [address("alice")], mail(REFEREE, "Your hand: ...\n", to=address("alice"),
                                                                 subject="RR-1 turn 1"))
    finally:
        await transport.close()
    assert handler.logins[-1] == f"{REFEREE}:ok"
    assert (await last_mail(oauth_dovecot, "alice"))["Subject"] == "RR-1 turn 1"


async def test_an_smtp_login_with_a_bad_token_stops_the_pass_and_says_what_to_check(
        sqlite_store, oauth_dovecot, oauth_smtp, provider, tmp_path):
    port, handler = oauth_smtp
    token_file = tmp_path / "token"
    token_file.write_text("at-stale\n")
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path, smtp_port=port,
                              oauth2_token_file=str(token_file))
    transport = transport_for(settings)
    with pytest.raises(ServerDown) as caught:
        await transport.send(REFEREE, [address("alice")], mail(REFEREE, "x\n", to=address("alice")))
    await transport.close()
    assert "535" in str(caught.value) and "OAuth2" in str(caught.value) and "at-stale" not in str(caught.value)
    assert handler.logins[-1] == f"{REFEREE}:refused"


def test_without_a_token_source_the_error_names_the_settings(tmp_path):
    from referee.common.config import Settings

    settings = Settings(mail_auth="oauth2", oauth2_cache_file=str(tmp_path / "c.json"))
    with pytest.raises(OAuth2Error, match="oauth2_token_file"):
        access_token(settings)


def test_config_check_with_the_token_endpoint_down_blames_the_endpoint_not_the_imap_server(
        sqlite_store, oauth_dovecot, provider, tmp_path):
    import asyncio

    from referee.doctor.servers import check_imap
    from tests.servers.ports import free_port

    down = f"http://127.0.0.1:{free_port()}/token"
    settings = oauth_settings(oauth_dovecot, sqlite_store, provider, tmp_path, oauth2_token_url=down)
    found = {f.item: f for f in asyncio.run(check_imap(settings, 10.0))}
    assert found["IMAP server"].verdict == "ok"
    login = found["IMAP login"]
    assert login.verdict == "FAILED" and f"cannot reach the token endpoint {down}" in login.detail
    assert login.fix.startswith("the IMAP server is fine") and "oauth2_token_url" in login.fix
