"""Optional accounts, their sessions and preferences, Glicko-2 ratings per variant, rated
matches and each account's matches (canasta.web.storage.accounts).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _account() -> sa.ForeignKey:
    return sa.ForeignKey("canasta_accounts.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "canasta_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("prefs", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "canasta_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), _account(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_canasta_sessions_account_id", "canasta_sessions", ["account_id"])
    op.create_index("ix_canasta_sessions_expires_at", "canasta_sessions", ["expires_at"])
    op.create_table(
        "canasta_ratings",
        sa.Column("account_id", sa.String(32), _account(), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "canasta_rated_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("settled_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_canasta_rated_tables_status", "canasta_rated_tables", ["status"])
    op.create_table(
        "canasta_account_matches",
        sa.Column("account_id", sa.String(32), _account(), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_canasta_account_matches_created_at", "canasta_account_matches",
                    ["created_at"])


def downgrade() -> None:
    for name in ("canasta_account_matches", "canasta_rated_tables", "canasta_ratings",
                 "canasta_sessions", "canasta_accounts"):
        op.drop_table(name)
