"""Table settings (turn clock, bot level, hints, undo, public listing), seats a bot plays
while their person is away, seats left open for the lobby, and undone actions.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (a constant default): SQLite does it in place, without recreating the
    # table, whose foreign keys would cascade
    op.add_column("canasta_tables", sa.Column("settings", sa.JSON(), nullable=True))
    op.add_column("canasta_tables", sa.Column("public", sa.Boolean(), nullable=False,
                                              server_default=sa.false()))
    op.create_index("ix_canasta_tables_public", "canasta_tables", ["public"])
    op.add_column("canasta_seats", sa.Column("away", sa.Boolean(), nullable=False,
                                             server_default=sa.false()))
    op.add_column("canasta_actions", sa.Column("undone", sa.Boolean(), nullable=False,
                                               server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("canasta_actions") as batch:
        batch.drop_column("undone")
    with op.batch_alter_table("canasta_seats") as batch:
        batch.drop_column("away")
    op.drop_index("ix_canasta_tables_public", "canasta_tables")
    with op.batch_alter_table("canasta_tables") as batch:
        batch.drop_column("public")
        batch.drop_column("settings")
