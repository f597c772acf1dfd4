"""hostile mail: the ``unreadable`` outcome of incoming mail, and the intake's counters (intake_marks)

Revision ID: 0003
Revises: 0001
Create Date: 2026-11-22 23:55:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "outcome IN ('new', 'accepted', 'rejected', 'ignored', 'error')"
_NEW = "outcome IN ('new', 'accepted', 'rejected', 'ignored', 'error', 'unreadable')"


def _outcomes(condition: str) -> None:
    with op.batch_alter_table("incoming_mails", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_incoming_mails_outcome"), type_="check")
        batch_op.create_check_constraint("outcome", condition)


def upgrade() -> None:
    _outcomes(_NEW)
    op.create_table(
        "intake_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("incoming_mail_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["incoming_mail_id"],
            ["incoming_mails.id"],
            name=op.f("fk_intake_marks_incoming_mail_id_incoming_mails"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_intake_marks")),
    )
    with op.batch_alter_table("intake_marks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_intake_marks_kind_key_at"), ["kind", "key", "at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("intake_marks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_intake_marks_kind_key_at"))
    op.drop_table("intake_marks")
    op.execute("UPDATE incoming_mails SET outcome = 'ignored' WHERE outcome = 'unreadable'")
    _outcomes(_OLD)
