"""Seats' former holders (issue 41): who held a robot and left it (resigned, replaced, ejected), when, and
a digest of the key she held, so that her later mail is answered in words of its own and nothing of it is
taken. A seat may be resigned more than once (a new player takes it over, then resigns too): the unique
constraint on ``departures.player_id`` goes.

Revision ID: 0016
Revises: 0017
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('former_holders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('robot', sa.String(length=32), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('how', sa.String(length=16), nullable=False),
    sa.Column('key_digest', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("how IN ('resigned', 'replaced', 'ejected')", name=op.f('ck_former_holders_how')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_former_holders_game_id_games'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_former_holders_player_id_players'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_former_holders'))
    )
    with op.batch_alter_table('former_holders', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_former_holders_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_former_holders_address'), ['address'], unique=False)
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_departures_player_id'), type_='unique')
        batch_op.create_index(batch_op.f('ix_departures_player_id'), ['player_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_departures_player_id'))
        batch_op.create_unique_constraint(batch_op.f('uq_departures_player_id'), ['player_id'])
    with op.batch_alter_table('former_holders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_former_holders_address'))
        batch_op.drop_index(batch_op.f('ix_former_holders_player_id'))
    op.drop_table('former_holders')
