"""A player's own choice of pictures in her turn mails (issue 42, ``SET PICTURES ALL|STAGES|NONE``), kept
per seat: ``players.pictures``, ``all`` for every seat there is (what every turn mail carried before).

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("pictures", sa.String(8), nullable=False, server_default="all"))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("pictures")
