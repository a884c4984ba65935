"""Scorepad ownership: a scorepad keeps the hash of its keeper's key; only a request carrying
the key adds or removes hands, the plain link reads. Scorepads made before keep none (their
link goes on changing them, as it did when they were made). And the moves a bot made for an
absent person are marked (``canasta_actions.stand_in``), so that the match record says which
hands a bot played for a seat; moves stored before are unmarked (NULL).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("canasta_scorepads", sa.Column("owner_hash", sa.String(64), nullable=True))
    op.add_column("canasta_actions", sa.Column("stand_in", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("canasta_actions") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("canasta_scorepads") as batch:
        batch.drop_column("owner_hash")
