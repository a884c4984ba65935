"""Storage: the tables, hands, actions and scorepads in SQLite or PostgreSQL (SQLAlchemy, with
the Alembic migrations in ``migrations/``), the leases of tables, and the group commit of
moves."""
