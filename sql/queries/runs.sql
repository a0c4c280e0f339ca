-- name: create_run
INSERT INTO run (room, deck_document_id, deck_path, trigger, cause_document_id, status, started_at)
VALUES ($1, $2, $3, $4, $5, 'running', now())
RETURNING id;

-- name: insert_claim
INSERT INTO claim (run_id, claim_id, room, page, entity_key, metric, period, body)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
ON CONFLICT (run_id, claim_id) DO UPDATE SET body = EXCLUDED.body;

-- name: insert_verdict
INSERT INTO verdict (run_id, claim_id, room, verdict, reason, body)
VALUES ($1, $2, $3, $4, $5, $6::jsonb)
ON CONFLICT (run_id, claim_id) DO UPDATE
SET verdict = EXCLUDED.verdict, reason = EXCLUDED.reason, body = EXCLUDED.body;

-- name: finish_run
UPDATE run SET status = $2, error = $3, counts = $4::jsonb, result = $5::jsonb, finished_at = now()
WHERE id = $1;

-- name: get_run
SELECT id, room, deck_path, status, error, counts::text AS counts, result::text AS result, trigger,
       created_at, started_at, finished_at
FROM run WHERE id = $1;

-- name: run_progress
-- What an interrupted run already did: its stored claims, and the verdicts reached so far.
SELECT c.claim_id, v.body::text AS verdict
FROM claim c LEFT JOIN verdict v ON v.run_id = c.run_id AND v.claim_id = c.claim_id
WHERE c.run_id = $1;
