"""A game keeps its rules version (issue 44): ``games.rules_version``, and every turn records the version it
was dealt under.

A game plays under the rules version it started with until its GM moves it (``SET RULES 4``); a turn is
resolved under the version it was dealt under. Every game and every open turn made by an earlier release was
dealt under rules version 3 (the version that release played), so they keep it; a GM moves a game on.

Revision ID: 0017
Revises: 0014
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the rules version the release before this migration played (every running game and open turn has it)
BEFORE = 3


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rules_version", sa.Integer(), nullable=False, server_default=str(BEFORE)))
    op.execute(sa.text("UPDATE turns SET rules_version = :v WHERE status = 'open' AND rules_version IS NULL")
               .bindparams(v=BEFORE))


def downgrade() -> None:
    op.execute(sa.text("UPDATE turns SET rules_version = NULL WHERE status = 'open'"))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rules_version")
