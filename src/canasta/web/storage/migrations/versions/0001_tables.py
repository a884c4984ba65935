"""Tables, seats, hands (deck orders, records) and actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "canasta_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("team_size", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_canasta_tables_status", "canasta_tables", ["status"])
    op.create_table(
        "canasta_seats",
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("controller", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "canasta_hands",
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("deck", sa.JSON(), nullable=False),
        sa.Column("scores_before", sa.JSON(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("end_reason", sa.String(40), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
    )
    op.create_table(
        "canasta_actions",
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("canasta_actions")
    op.drop_table("canasta_hands")
    op.drop_table("canasta_seats")
    op.drop_index("ix_canasta_tables_status", "canasta_tables")
    op.drop_table("canasta_tables")
