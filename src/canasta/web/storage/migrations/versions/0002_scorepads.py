"""Scorepads of real tables (canasta.web.scorepad).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "canasta_scorepads",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("team_size", sa.Integer(), nullable=True),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("canasta_scorepads")
