"""The chat of a table (canasta.web.play.chat): its messages, each person's mutes and blocks,
and the reports of messages, which the table's record carries.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_TABLE = sa.ForeignKey("canasta_tables.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "canasta_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), _TABLE, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(32), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_canasta_chat_table_id", "canasta_chat", ["table_id"])
    op.create_table(
        "canasta_chat_mutes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("canasta_tables.id",
                                                           ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("target", sa.Integer(), primary_key=True),
        sa.Column("mode", sa.String(8), nullable=False),
    )
    op.create_table(
        "canasta_chat_reports",
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("canasta_chat.id",
                                                            ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("canasta_tables.id",
                                                           ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_canasta_chat_reports_table_id", "canasta_chat_reports", ["table_id"])


def downgrade() -> None:
    op.drop_table("canasta_chat_reports")
    op.drop_table("canasta_chat_mutes")
    op.drop_table("canasta_chat")
