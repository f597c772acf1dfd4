"""``imap_tls`` and ``smtp_tls`` have one definition (``referee.common.config.TLS_MODES``): the config check, the
outbox's SMTP transport and the intake's IMAP connection accept the same values, in any case, and refuse
anything else with the same message naming the setting and the values it may take."""

from __future__ import annotations

import pytest

from referee.common.config import TLS_MODES, ConfigError, Settings
from referee.intake.imap import connect
from referee.mailer.config_checks import FAILED, OK
from referee.mailer.transports import SmtpTransport, smtp_client
from referee.mailer.value_checks import check_values

BASE = Settings(referee_address="referee@example.test", gm_address="gm@example.test",
                gm_secret="a-long-gm-secret-for-tests", transport="imap", imap_host="127.0.0.1",
                smtp_host="127.0.0.1", imap_password="pw")


def _item(settings: Settings, name: str) -> tuple[str, str, str]:
    found = {f.item: f for f in check_values(settings)}[name]
    return found.verdict, found.detail, found.fix


def test_the_three_modes_are_those_of_the_sample_and_the_docs() -> None:
    assert TLS_MODES == ("ssl", "starttls", "none")


@pytest.mark.parametrize("written, meant", [("ssl", "ssl"), ("STARTTLS", "starttls"), (" none ", "none")])
def test_a_mode_is_read_in_any_case(written: str, meant: str) -> None:
    settings = BASE.with_overrides(smtp_tls=written, imap_tls=written)
    assert settings.tls_mode("smtp") == settings.tls_mode("imap") == meant
    assert SmtpTransport(settings).tls == meant
    client = smtp_client(settings, 5.0)
    assert (client.use_tls, client._start_tls_on_connect) == (meant == "ssl", meant == "starttls")


def test_a_wrong_smtp_mode_is_refused_alike_by_the_check_and_the_outbox() -> None:
    settings = BASE.with_overrides(smtp_tls="tls")
    message = "smtp_tls must be one of ssl, starttls, none, not 'tls'"
    with pytest.raises(ConfigError) as refused:
        SmtpTransport(settings)
    assert str(refused.value) == message
    verdict, detail, fix = _item(settings, "SMTP settings")
    assert verdict == FAILED and message in detail
    assert fix == "set smtp_tls to one of ssl, starttls, none"
    assert _item(settings, "IMAP settings")[0] == OK


async def test_a_wrong_imap_mode_is_refused_before_any_connection() -> None:
    settings = BASE.with_overrides(imap_tls="yes", imap_port=1)  # nothing listens on port 1
    with pytest.raises(ConfigError, match=r"^imap_tls must be one of ssl, starttls, none, not 'yes'$"):
        await connect(settings)
    verdict, detail, _ = _item(settings, "IMAP settings")
    assert verdict == FAILED and "imap_tls must be one of ssl, starttls, none, not 'yes'" in detail
