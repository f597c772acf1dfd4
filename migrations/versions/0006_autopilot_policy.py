"""games.missing_orders may be 'autopilot' (issue 17: the autopilot plays for missing players)

Only the check constraint changes; existing games keep their policy.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD = "missing_orders IN ('random', 'power_down', 'repeat_locked')"
NEW = "missing_orders IN ('random', 'power_down', 'repeat_locked', 'autopilot')"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_missing_orders"), type_="check")
        batch.create_check_constraint("missing_orders", NEW)


def downgrade() -> None:
    op.execute("UPDATE games SET missing_orders = 'random' WHERE missing_orders = 'autopilot'")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_missing_orders"), type_="check")
        batch.create_check_constraint("missing_orders", OLD)
