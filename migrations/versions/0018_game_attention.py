"""When each game next needs the tick (issue 46): ``games.attention_at``, indexed with the game's status
(the tick reads the running games whose time has come; retention the finished games)

The tick reads only the games whose time has come instead of every running game. Every running game starts
with a time in the past, so the first tick after the upgrade looks at each once and sets its real time
(:mod:`referee.store.attention`).

Revision ID: 0018
Revises: 0016
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("attention_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_games_status_attention_at", ["status", "attention_at"])
    games = sa.table("games", sa.column("status", sa.String), sa.column("attention_at", sa.DateTime(timezone=True)))
    op.execute(games.update().where(games.c.status == "running").values(attention_at=datetime(1970, 1, 1, tzinfo=UTC)))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_status_attention_at")
        batch.drop_column("attention_at")
