"""turns.board_before / turns.board_after: what the board's elements remember (issues 13-15)

A piston's position, a turret's facing, a barricade's hits: ``BoardState.to_dict()`` at the start
and at the end of a turn. NULL means nothing is remembered (every turn before this revision, and
every board whose elements keep no state).

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
        batch.add_column(sa.Column("board_before", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("board_after", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("board_after")
        batch.drop_column("board_before")
