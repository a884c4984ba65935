"""Deal commitments: each hand keeps the secrets its deck was shuffled from (the seed and
nonce of canasta.core.dealproof), whose hash is published before the hand and which are
revealed once it is over. Hands dealt before keep none (their records carry no proof).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("canasta_hands", sa.Column("deal", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("canasta_hands") as batch:
        batch.drop_column("deal")
