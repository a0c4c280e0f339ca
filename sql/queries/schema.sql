-- name: lock_migrations
-- Session-level: two processes starting at once apply each migration exactly once.
SELECT pg_advisory_lock(7411200);

-- name: unlock_migrations
SELECT pg_advisory_unlock(7411200);

-- name: create_schema_version
CREATE TABLE IF NOT EXISTS schema_version (
    version    int PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- name: applied_versions
SELECT version FROM schema_version ORDER BY version;

-- name: record_version
INSERT INTO schema_version (version, name) VALUES ($1, $2);
