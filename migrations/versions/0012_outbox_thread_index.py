"""An index for a player's mail thread (issue 19): the outbox looked up by game, player, kind and turn
without reading the mails themselves.

On SQLite a row's columns after ``raw`` (the whole mail, often 200 KB) are reached only by walking the
mail's overflow pages, so every turn's look-up of each player's earlier mails (In-Reply-To, References)
read every mail of the game again: 4 ms a turn at turn 16 of a sprint game, growing with the game.
The index holds every column that look-up needs.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_outgoing_mails_thread", "outgoing_mails",
                    ["game_id", "player_id", "kind", "turn_number", "message_id"])


def downgrade() -> None:
    op.drop_index("ix_outgoing_mails_thread", table_name="outgoing_mails")
