"""The fast path of the hostile-mail tests: mails stored straight into the database (as a poll would
store them, in one batch) and processed, with the referee's own GM handler; no mail server."""

from __future__ import annotations

from datetime import datetime

import pytest

from referee.common.config import Settings
from referee.intake.process import ProcessReport, process_pending, referee_gm_handler
from referee.store import Store
from referee.store.incoming_batch import record_batch
from referee.store.types import utcnow

from .helpers import GM, GM_SECRET, REFEREE


def hostile_settings(db_url: str, **changes: object) -> Settings:
    base = Settings(database_url=db_url, referee_address=REFEREE, referee_name="RoboRally referee", gm_address=GM,
                    gm_secret=GM_SECRET, signing_key="intake-tests", transport="maildir",
                    error_replies_per_hour=5)
    return base.with_overrides(**changes)


@pytest.fixture
def quiet(db_url: str) -> Settings:
    """Settings for the fast path (no mail server is used)."""
    return hostile_settings(db_url)


def deliver(store: Store, settings: Settings, *raws: bytes, now: datetime | None = None) -> ProcessReport:
    """Store ``raws`` as one poll would, then process every waiting mail."""
    now = now or utcnow()
    with store.write() as s:
        record_batch(s, [(None, raw, now) for raw in raws], source="maildir", mailbox="maildir:test")
    return process_pending(store, settings, now=now, gm_handler=referee_gm_handler)
