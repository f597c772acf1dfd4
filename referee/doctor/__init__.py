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
mail comes in through ``referee ingest`` only, so IMAP is reported as not used and its settings are not
looked at by the server checks; ``--send-test`` then watches the store for the test mail piped in by
``referee ingest`` (or the IMAP mailbox, when one is configured to log in to).

The parts: the settings' own checks are :mod:`referee.mailer.config_checks` (file, environment, values); here
:mod:`.local` (database, boards, directories, fonts), :mod:`.servers` (IMAP and SMTP), :mod:`.send_test`
and :mod:`.report` (every check in order, the output, the exit status).
"""

from __future__ import annotations

from ..common.config_load import setting_names
from ..mailer.config_checks import FAILED, OK, SKIPPED, WARNING, Finding, check_config
from ..mailer.value_checks import check_values
from .local import check_archive, check_boards, check_database, check_fonts, check_lock, check_maildirs
from .report import Report, main, masked_settings, run_checks
from .send_test import SEND_TEST, send_test, test_address
from .servers import check_imap, check_smtp

__all__ = [
    "FAILED",
    "OK",
    "SEND_TEST",
    "SKIPPED",
    "WARNING",
    "Finding",
    "Report",
    "check_archive",
    "check_boards",
    "check_config",
    "check_database",
    "check_fonts",
    "check_imap",
    "check_lock",
    "check_maildirs",
    "check_smtp",
    "check_values",
    "main",
    "masked_settings",
    "run_checks",
    "send_test",
    "setting_names",
    "test_address",
]
