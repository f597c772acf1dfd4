"""Game masters as people of the installation (issue 31): the GMs the operator adds, each with their own
key (kept as a SHA-256 digest), and the co-masters of a game.

An existing installation's games need no copying: a game keeps its ``gm_address``; one without (made at
the command line) or whose master is no GM of the installation belongs to the configured GM
(``gm_address`` / ``gm_secret``), who therefore runs every old game exactly as before
(:func:`referee.games.masters.master_of`).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_masters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("added_by", sa.String(length=200), nullable=False),
        sa.Column("secret_changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_masters")),
        sa.UniqueConstraint("address", name=op.f("uq_game_masters_address")),
    )
    with op.batch_alter_table("game_masters") as batch:
        batch.create_index(batch.f("ix_game_masters_secret_hash"), ["secret_hash"], unique=False)
    op.create_table(
        "game_comasters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("added_by", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_comasters_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_comasters")),
        sa.UniqueConstraint("game_id", "address", name=op.f("uq_game_comasters_game_id_address")),
    )
    with op.batch_alter_table("game_comasters") as batch:
        batch.create_index(batch.f("ix_game_comasters_game_id"), ["game_id"], unique=False)
        batch.create_index(batch.f("ix_game_comasters_address"), ["address"], unique=False)


def downgrade() -> None:
    op.drop_table("game_comasters")
    op.drop_table("game_masters")
