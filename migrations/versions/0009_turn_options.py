"""turns.option_orders and turns.first_hands: option cards' orders for a turn, and Recompile's first hands

``option_orders``: robot -> the option orders for this turn (``{subject: answer}``), fixed when the
turn is resolved, so a replay asks the engine the same. ``first_hands``: robot -> the hand dealt
first, for robots whose players recompiled (their ``hands`` entry is the second hand).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("option_orders", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("first_hands", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("first_hands")
        batch.drop_column("option_orders")
