-- name: api_rooms
SELECT r.name,
       count(d.id) FILTER (WHERE d.kind = 'filing' AND d.status = 'parsed') AS filings_parsed,
       count(d.id) FILTER (WHERE d.kind = 'filing' AND d.status = 'failed') AS filings_failed,
       count(d.id) FILTER (WHERE d.kind = 'filing' AND d.status = 'pending') AS filings_pending,
       count(d.id) FILTER (WHERE d.kind = 'deck') AS decks,
       (SELECT max(id) FROM run WHERE run.room = r.name) AS last_run_id
FROM room r
LEFT JOIN document d ON d.room = r.name AND d.superseded_by IS NULL AND d.status <> 'removed'
GROUP BY r.name ORDER BY r.name;

-- name: api_room_exists
SELECT EXISTS (SELECT 1 FROM room WHERE name = $1);

-- name: api_run
SELECT id, room, deck_path, status, error, counts::text AS counts, result::text AS result, trigger,
       cause_document_id, baseline_run_id, created_at, started_at, finished_at
FROM run WHERE id = $1;

-- name: api_run_claims
SELECT c.claim_id, c.page, c.body::text AS claim, v.body::text AS verdict
FROM claim c LEFT JOIN verdict v ON v.run_id = c.run_id AND v.claim_id = c.claim_id
WHERE c.run_id = $1;

-- name: api_run_end_event
SELECT id FROM event WHERE run_id = $1 AND type = 'run.finished' ORDER BY id LIMIT 1;
