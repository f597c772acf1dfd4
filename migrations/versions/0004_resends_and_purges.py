"""outbox resends (possible duplicates after a crash) and incoming mail purged by the retention rule

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 23:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outgoing_mails", schema=None) as batch_op:
        batch_op.add_column(sa.Column("resends", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("incoming_mails", schema=None) as batch_op:
        batch_op.add_column(sa.Column("purged_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("incoming_mails", schema=None) as batch_op:
        batch_op.drop_column("purged_at")
    with op.batch_alter_table("outgoing_mails", schema=None) as batch_op:
        batch_op.drop_column("resends")
