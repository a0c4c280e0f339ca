-- name: ensure_room
INSERT INTO room (name) VALUES ($1) ON CONFLICT DO NOTHING;

-- name: current_document
SELECT id, sha256, status FROM document
WHERE room = $1 AND path = $2 AND superseded_by IS NULL AND status <> 'removed'
ORDER BY id DESC LIMIT 1;

-- name: upsert_document
INSERT INTO document (room, path, sha256, size, kind, status)
VALUES ($1, $2, $3, $4, $5, 'pending')
ON CONFLICT (room, path, sha256) DO UPDATE SET superseded_by = NULL
RETURNING id, status;

-- name: cached_parse
SELECT result FROM parse_cache WHERE sha256 = $1 AND parser_version = $2;

-- name: store_parse
INSERT INTO parse_cache (sha256, parser_version, result, elapsed_ms) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;

-- name: clear_document_rows
-- A job re-run after a crash starts from a clean slate for this document version.
WITH s AS (DELETE FROM section WHERE document_id = $1),
     t AS (DELETE FROM doc_table WHERE document_id = $1)
DELETE FROM fact WHERE document_id = $1;

-- name: mark_parsed
UPDATE document SET status = 'parsed', format = $2, entity = $3, entity_key = $4, form = $5,
       fiscal_year_end = $6, periods = $7, names = $8, error_reason = NULL, error_detail = NULL, parsed_at = now()
WHERE id = $1;

-- name: mark_failed
UPDATE document SET status = 'failed', format = $2, error_reason = $3, error_detail = $4, parsed_at = now()
WHERE id = $1;

-- name: supersede_older_versions
-- Older versions of the same path point at the new one; their facts stay, flagged superseded.
WITH old AS (
    UPDATE document SET superseded_by = $1
    WHERE room = $2 AND path = $3 AND id <> $1 AND superseded_by IS NULL
    RETURNING id
), f AS (
    UPDATE fact SET superseded = true WHERE document_id IN (SELECT id FROM old)
)
SELECT id FROM old;

-- name: mark_removed
WITH d AS (
    UPDATE document SET status = 'removed'
    WHERE room = $1 AND path = $2 AND superseded_by IS NULL AND status <> 'removed'
    RETURNING id, sha256
), f AS (
    UPDATE fact SET superseded = true WHERE document_id IN (SELECT id FROM d)
)
SELECT id, sha256 FROM d;

-- name: room_coverage
SELECT id, path, entity, form, periods, fiscal_year_end, parsed_at, kind, names
FROM document
WHERE room = $1 AND superseded_by IS NULL AND status = 'parsed' AND kind = 'filing'
ORDER BY path;

-- name: room_documents
SELECT id, path, kind, format, entity, form, status, error_reason, error_detail, periods, sha256, size,
       parsed_at, created_at
FROM document WHERE room = $1 AND superseded_by IS NULL ORDER BY path;

-- name: fact_ids_for_metrics
-- The room's current facts of the metrics in $2 and the label metrics matching $3, in the room's
-- order; planned as fact_ids_for_entities is (see there).
WITH f AS MATERIALIZED (
    SELECT id, document_id FROM fact WHERE room = $1 AND NOT superseded AND metric = ANY($2::text[])
    UNION ALL
    SELECT id, document_id FROM fact
    WHERE room = $1 AND NOT superseded AND metric LIKE 'label:%' AND metric LIKE ANY($3::text[])
      AND metric <> ALL($2::text[])
)
SELECT f.id FROM f
ORDER BY (SELECT d.path FROM document d WHERE d.id = f.document_id), f.id;

-- name: document_table
SELECT t.grid::text AS grid, t.title, t.scale, t.scale_source, t.page, t.section, d.path, d.room
FROM doc_table t JOIN document d ON d.id = t.document_id
WHERE t.document_id = $1 AND t.table_id = $2;
