-- name: page_document_file
SELECT room, path, sha256, format, kind FROM document WHERE id = $1;

-- name: page_room_runs
-- The room page lists recent runs so an analyst can get back to one.
SELECT id, deck_path, trigger, status, counts::text AS counts, created_at, finished_at
FROM run WHERE room = $1
ORDER BY id DESC
LIMIT $2;
