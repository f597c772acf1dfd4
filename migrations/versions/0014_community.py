"""The community (issue 31): sign-up, a player's own commands, press and observers.

A game's sign-up and press settings, the JOINs waiting for the GM, resignations, absences, press,
observers, confirmations an address owes, and what a player lets WHOIS show. New tables only.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('address_prefs',
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('show_address', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('address', name=op.f('pk_address_prefs'))
    )
    op.create_table('confirmations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('old_address', sa.String(length=320), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('done_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("kind IN ('address', 'observe')", name=op.f('ck_confirmations_kind')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_confirmations_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_confirmations'))
    )
    op.create_table('game_community',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('open', sa.Boolean(), nullable=False),
    sa.Column('seats', sa.Integer(), nullable=True),
    sa.Column('until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('autostart', sa.Boolean(), nullable=False),
    sa.Column('press', sa.String(length=8), nullable=False),
    sa.Column('press_archive', sa.Boolean(), nullable=False),
    sa.Column('on_resign', sa.String(length=16), nullable=False),
    sa.Column('on_absence', sa.String(length=16), nullable=False),
    sa.CheckConstraint("on_absence IN ('wait', 'autopilot')", name=op.f('ck_game_community_on_absence')),
    sa.CheckConstraint("on_resign IN ('open', 'autopilot')", name=op.f('ck_game_community_on_resign')),
    sa.CheckConstraint("press IN ('off', 'grey', 'white')", name=op.f('ck_game_community_press')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'],
        name=op.f('fk_game_community_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_game_community'))
    )
    op.create_table('observers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('token', sa.String(length=80), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('active', 'left')", name=op.f('ck_observers_status')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_observers_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_observers')),
    sa.UniqueConstraint('game_id', 'address', name=op.f('uq_observers_game_id_address'))
    )
    op.create_table('absences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('starts', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
        name=op.f('fk_absences_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_absences'))
    )
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_absences_player_id'), ['player_id'], unique=False)

    op.create_table('departures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('robot', sa.String(length=32), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('policy', sa.String(length=16), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_departures_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'],
        name=op.f('fk_departures_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_departures')),
    sa.UniqueConstraint('player_id', name=op.f('uq_departures_player_id'))
    )
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_departures_game_id'), ['game_id'], unique=False)

    op.create_table('signups',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('robot', sa.String(length=32), nullable=False),
    sa.Column('seat_of', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('pending', 'accepted', 'refused')", name=op.f('ck_signups_status')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_signups_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['seat_of'], ['players.id'], name=op.f('fk_signups_seat_of_players'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signups'))
    )
    with op.batch_alter_table('signups', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signups_game_id_status'), ['game_id', 'status'], unique=False)

    op.create_table('press',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('sender_id', sa.Integer(), nullable=True),
    sa.Column('to_id', sa.Integer(), nullable=True),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('turn_number', sa.Integer(), nullable=True),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('incoming_mail_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_press_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['incoming_mail_id'], ['incoming_mails.id'],
        name=op.f('fk_press_incoming_mail_id_incoming_mails'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['sender_id'], ['players.id'],
        name=op.f('fk_press_sender_id_players'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['to_id'], ['players.id'], name=op.f('fk_press_to_id_players'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_press'))
    )
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_press_game_id_at'), ['game_id', 'at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_press_game_id_at'))

    op.drop_table('press')
    with op.batch_alter_table('signups', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signups_game_id_status'))

    op.drop_table('signups')
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_departures_game_id'))

    op.drop_table('departures')
    with op.batch_alter_table('absences', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_absences_player_id'))

    op.drop_table('absences')
    op.drop_table('observers')
    op.drop_table('game_community')
    op.drop_table('confirmations')
    op.drop_table('address_prefs')
