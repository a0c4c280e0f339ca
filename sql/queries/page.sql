-- name: page_document_file
SELECT room, path, sha256, format, kind FROM document WHERE id = $1;

-- name: page_room_runs
-- The room page lists recent runs so an analyst can get back to one.
SELECT id, deck_path, trigger, status, counts::text AS counts, created_at, finished_at
FROM run WHERE room = $1
ORDER BY id DESC
LIMIT $2;

-- name: page_run_deck
-- The deck version a run read, so its pages can be drawn; a CLI run stores no deck bytes.
SELECT r.room, r.deck_path, d.sha256, d.format
FROM run r LEFT JOIN document d ON d.id = r.deck_document_id
WHERE r.id = $1;

-- name: page_deck_bytes
-- The owner reads blobs (they are shared by content across rooms), after the run's room is checked.
SELECT data FROM blob WHERE sha256 = $1;

-- name: page_claim_history
-- A claim's verdict in every run of the same deck version, oldest first: what each re-verification
-- said, the filing that caused it, and the flip it recorded. $2 NULL gives every claim of the run.
SELECT v.claim_id, r.id AS run_id, r.trigger, r.status, r.created_at, r.finished_at,
       v.verdict, v.reason, cd.path AS cause_document, vc.before, vc.created_at AS changed_at
FROM run me
JOIN run r ON r.deck_document_id = me.deck_document_id
JOIN verdict v ON v.run_id = r.id AND ($2::text IS NULL OR v.claim_id = $2)
LEFT JOIN document cd ON cd.id = r.cause_document_id
LEFT JOIN verdict_change vc ON vc.run_id = r.id AND vc.claim_id = v.claim_id
WHERE me.id = $1
ORDER BY v.claim_id, r.id;

-- name: page_run_claim_bodies
-- Every claim of a run as extracted (page, box, printed figure), finished or still running.
SELECT body::text AS body FROM claim WHERE run_id = $1;
