-- name: try_lock_deck
-- Session-level: one re-verification of a deck at a time, so each compares against the one before.
SELECT pg_try_advisory_lock(hashtextextended($1::text, 7411204));

-- name: unlock_deck
SELECT pg_advisory_unlock(hashtextextended($1::text, 7411204));

-- name: latest_finished_run
SELECT r.id, coalesce(tickmark_run_covers(r), 0) AS covers
FROM run r WHERE r.deck_document_id = $1 AND r.status = 'finished' ORDER BY r.id DESC LIMIT 1;

-- name: reverify_causes
-- The facts changes a re-verification run takes in, oldest first: every one of its room after
-- what its baseline had judged, up to its facts_through_event_id, and its own cause.
SELECT e.id AS event_id, (e.body->>'document_id')::bigint AS document_id, d.path
FROM run r JOIN run b ON b.id = r.baseline_run_id
JOIN event e ON e.room = r.room
  AND e.id > least(coalesce(tickmark_run_covers(b), 0), r.cause_event_id - 1)
  AND e.id <= coalesce(r.facts_through_event_id, r.cause_event_id)
LEFT JOIN document d ON d.id = (e.body->>'document_id')::bigint
WHERE r.id = $1 AND e.body ? 'document_id'
  AND (e.type = 'facts.updated' OR (e.type = 'document.changed' AND (e.body->>'removed')::boolean))
ORDER BY e.id;

-- name: reverify_run
SELECT r.id, r.room, r.deck_path, r.status, r.baseline_run_id, r.cause_document_id, r.deck_document_id,
       b.result IS NOT NULL AS baseline_done
FROM run r LEFT JOIN run b ON b.id = r.baseline_run_id
WHERE r.id = $1 AND r.trigger = 'reverify';

-- name: copy_claims
-- A re-verification reads the deck's claims from its baseline instead of reading the deck again.
INSERT INTO claim (run_id, claim_id, room, page, entity_key, metric, period, body)
SELECT $1, claim_id, room, page, entity_key, metric, period, body FROM claim WHERE run_id = $2
ON CONFLICT (run_id, claim_id) DO NOTHING
RETURNING claim_id, page, body::text AS body;

-- name: baseline_claims
SELECT c.claim_id, c.entity_key, c.body::text AS body, v.verdict, v.body::text AS verdict_body
FROM claim c LEFT JOIN verdict v ON v.run_id = c.run_id AND v.claim_id = c.claim_id
WHERE c.run_id = $1;

-- name: copy_verdicts
-- Claims the new facts cannot move keep their baseline verdicts.
INSERT INTO verdict (run_id, claim_id, room, verdict, reason, body)
SELECT $1, claim_id, room, verdict, reason, body FROM verdict WHERE run_id = $2 AND claim_id = ANY($3::text[])
ON CONFLICT (run_id, claim_id) DO NOTHING
RETURNING claim_id, verdict, reason, body::text AS body;

-- name: reverify_deck
SELECT deck_document_id FROM run WHERE id = $1 AND trigger = 'reverify';

-- name: first_runs_in_flight
-- Runs of the room created before the event and not yet finished, re-verifications aside (those
-- take the deck's lock, so a later one waits for them and compares against their result): they
-- may have read the room before the event's facts committed, so a re-verification waits for them.
SELECT count(*) FROM run
WHERE room = $1 AND status IN ('queued', 'running') AND trigger <> 'reverify'
  AND created_at < (SELECT created_at FROM event WHERE id = $2);

-- name: seconds_since_reverified
-- How long ago the deck's last re-verification finished; NULL when it has had none.
SELECT extract(epoch FROM clock_timestamp() - max(finished_at))::float8
FROM run WHERE deck_document_id = $1 AND trigger = 'reverify' AND status = 'finished';

-- name: room_parses_pending
-- Whether files of the room are queued or being parsed: more facts are on their way. A parse job
-- leaves the queue when it ends, or stays there as failed (held), which is no longer on its way.
SELECT EXISTS (SELECT 1 FROM pgqueuer
               WHERE entrypoint = 'parse' AND status IN ('queued', 'picked')
                 AND convert_from(payload, 'UTF8')::jsonb->>'room' = $1);
