"""A game's fixed deadline clock time, a player's time zone (issue 18)

Existing games keep their settle delay; new games default to 30 minutes (the model's default).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline_time", sa.String(5), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("timezone", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("timezone")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline_time")
