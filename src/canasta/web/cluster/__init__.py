"""Several processes on one database: leases, the news between processes (Redis pub/sub) and
the upkeep of the tables in memory."""
