"""Duplicate tournaments for people: the tournament, its entrants (a seat of a team, a
person with a token and an optional account, or a bot), the secrets of each round's deals and
its tables (canasta.web.tournaments).

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0006"
branch_labels = None
depends_on = None


def _owner() -> sa.Column[str]:
    return sa.Column("tournament_id", sa.String(32),
                     sa.ForeignKey("canasta_tournaments.id", ondelete="CASCADE"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "canasta_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("team_size", sa.Integer(), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(), nullable=True),
        sa.Column("host_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_canasta_tournaments_status", "canasta_tournaments", ["status"])
    op.create_table(
        "canasta_tournament_entrants",
        _owner(),
        sa.Column("team", sa.Integer(), primary_key=True),
        sa.Column("slot", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("account_id", sa.String(64), nullable=True),
    )
    op.create_index("ix_canasta_tournament_entrants_token_hash",
                    "canasta_tournament_entrants", ["token_hash"])
    op.create_table(
        "canasta_tournament_deals",
        _owner(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
    )
    op.create_table(
        "canasta_tournament_tables",
        _owner(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("side0", sa.Integer(), nullable=False),
        sa.Column("side1", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    for name in ("canasta_tournament_tables", "canasta_tournament_deals",
                 "canasta_tournament_entrants"):
        op.drop_table(name)
    op.drop_index("ix_canasta_tournaments_status", "canasta_tournaments")
    op.drop_table("canasta_tournaments")
