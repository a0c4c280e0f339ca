-- name: store_blob
INSERT INTO blob (sha256, data) VALUES ($1, $2) ON CONFLICT DO NOTHING;

-- name: get_blob
SELECT data FROM blob WHERE sha256 = $1;

-- name: see_file
INSERT INTO room_file (room, path, sha256, size) VALUES ($1, $2, $3, $4)
ON CONFLICT (room, path) DO UPDATE
SET sha256 = EXCLUDED.sha256, size = EXCLUDED.size, removed = false, seen_at = now();

-- name: latest_file
SELECT sha256, removed FROM room_file WHERE room = $1 AND path = $2;

-- name: file_gone
UPDATE room_file SET removed = true, seen_at = now()
WHERE room = $1 AND path = $2 AND NOT removed
RETURNING sha256;

-- name: present_files
SELECT room, path FROM room_file WHERE NOT removed;

-- name: lock_path
-- Session-level: versions of one path are parsed one at a time, so an older one never wins.
SELECT pg_advisory_lock(hashtextextended($1, 7411203));

-- name: unlock_path
SELECT pg_advisory_unlock(hashtextextended($1, 7411203));

-- name: mark_deck_ready
UPDATE document SET status = 'parsed', format = $2, parsed_at = now() WHERE id = $1;

-- name: create_queued_run
INSERT INTO run (room, deck_document_id, deck_path, trigger, status)
VALUES ($1, $2, $3, $4, 'queued')
RETURNING id;

-- name: create_reverify_run
INSERT INTO run (room, deck_document_id, deck_path, trigger, cause_document_id, baseline_run_id, cause_event_id,
                 facts_through_event_id, status)
VALUES ($1, $2, $3, 'reverify', $4, $5, $6, $7, 'queued')
ON CONFLICT (deck_document_id, cause_event_id) WHERE trigger = 'reverify' DO NOTHING
RETURNING id;

-- name: find_reverify_run
SELECT id, status FROM run WHERE deck_document_id = $1 AND cause_event_id = $2 AND trigger = 'reverify';

-- name: run_for_job
SELECT r.id, r.room, r.deck_path, r.status, r.trigger, r.cause_document_id, r.baseline_run_id, d.sha256
FROM run r LEFT JOIN document d ON d.id = r.deck_document_id
WHERE r.id = $1;

-- name: mark_run_running
UPDATE run SET status = 'running', started_at = coalesce(started_at, now()) WHERE id = $1;

-- name: reverify_candidates
-- The latest finished run of each current deck in the room: what a new filing is compared against,
-- with the last facts change that run already judged the deck against.
SELECT DISTINCT ON (r.deck_document_id) r.id AS run_id, r.deck_document_id, r.deck_path,
       coalesce(tickmark_run_covers(r), 0) AS covers
FROM run r JOIN document d ON d.id = r.deck_document_id
WHERE r.room = $1 AND r.status = 'finished' AND d.kind = 'deck'
  AND d.superseded_by IS NULL AND d.status <> 'removed'
ORDER BY r.deck_document_id, r.id DESC;

-- name: run_claim_bodies
SELECT claim_id, entity_key, body::text AS body FROM claim WHERE run_id = $1;

-- name: changed_slots_of
-- The fact slots each document version in $1 touches, with those of the versions it replaced.
SELECT DISTINCT c.id AS document_id, f.entity_key, f.metric, f.period
FROM unnest($1::bigint[]) AS c(id)
JOIN LATERAL (SELECT c.id AS version UNION ALL SELECT d.id FROM document d WHERE d.superseded_by = c.id) v ON true
JOIN fact f ON f.document_id = v.version;

-- name: last_facts_change
-- The room's latest facts change (new facts, or a document removed): where a re-verification
-- starting now stops taking changes in.
SELECT max(id) FROM event
WHERE room = $1 AND (type = 'facts.updated' OR (type = 'document.changed' AND (body->>'removed')::boolean));

-- name: verdict_flips
SELECT n.claim_id, b.verdict AS before, n.verdict AS after, n.reason, n.body->>'text' AS text
FROM verdict n JOIN verdict b ON b.run_id = $2 AND b.claim_id = n.claim_id
WHERE n.run_id = $1 AND b.verdict <> n.verdict
ORDER BY n.claim_id;

-- name: record_flip
INSERT INTO verdict_change (run_id, claim_id, room, baseline_run_id, before, after, cause_document_id)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT DO NOTHING
RETURNING claim_id;

-- name: document_path
SELECT path FROM document WHERE id = $1;

-- name: try_dispatch_lock
SELECT pg_try_advisory_lock(7411202);

-- name: consumer_offset
SELECT last_event_id FROM consumer_offset WHERE name = $1;

-- name: advance_consumer
INSERT INTO consumer_offset (name, last_event_id) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET last_event_id = greatest(consumer_offset.last_event_id, EXCLUDED.last_event_id);

-- name: run_trigger
SELECT trigger, deck_path FROM run WHERE id = $1;

-- name: runs_older_than_event_in_flight
-- Runs of the room created before the event and not yet finished: they may have read the room's
-- evidence before the event's facts committed, so a re-verification waits for them.
SELECT count(*) FROM run
WHERE room = $1 AND status IN ('queued', 'running')
  AND created_at < (SELECT created_at FROM event WHERE id = $2);
