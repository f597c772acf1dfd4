"""turns.option_deck: the game's option deck at the start of each turn (issue 16: option cards)

Turns opened before option cards keep NULL: the engine then shuffles the turn seed's deck, less the
cards held, the first time the turn draws or loses a card, so replays of old turns stay the same.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("option_deck", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("option_deck")
