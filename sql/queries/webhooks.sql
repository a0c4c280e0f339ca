-- name: create_webhook
INSERT INTO webhook (room, url, format, secret) VALUES ($1, $2, $3, $4)
RETURNING id, created_at;

-- name: list_webhooks
SELECT w.id, w.url, w.format, w.created_at,
       count(d.id) FILTER (WHERE d.status = 'delivered') AS delivered,
       count(d.id) FILTER (WHERE d.status = 'pending') AS pending,
       count(d.id) FILTER (WHERE d.status = 'failed') AS failed,
       max(d.delivered_at) AS last_delivered_at
FROM webhook w LEFT JOIN delivery d ON d.webhook_id = w.id
WHERE w.room = $1 AND w.active
GROUP BY w.id ORDER BY w.id;

-- name: deactivate_webhook
-- Kept, not deleted: its deliveries and their attempts still refer to it.
UPDATE webhook SET active = false WHERE room = $1 AND id = $2 AND active RETURNING id;

-- name: active_webhooks
SELECT id FROM webhook WHERE room = $1 AND active ORDER BY id;

-- name: create_delivery
INSERT INTO delivery (webhook_id, room, event_id, idempotency_key) VALUES ($1, $2, $3, $4)
ON CONFLICT (idempotency_key) DO NOTHING
RETURNING id;

-- name: delivery_for_job
SELECT d.id, d.status, d.attempts, d.idempotency_key, d.event_id, w.id AS webhook_id, w.url, w.format,
       w.secret, w.active, e.type, e.room, e.run_id, e.body::text AS body
FROM delivery d JOIN webhook w ON w.id = d.webhook_id JOIN event e ON e.id = d.event_id
WHERE d.id = $1;

-- name: record_attempt
INSERT INTO delivery_attempt (delivery_id, attempt, status_code, error, duration_ms)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT DO NOTHING;

-- name: delivery_done
UPDATE delivery SET status = $2, attempts = $3, last_error = $4,
       delivered_at = CASE WHEN $2 = 'delivered' THEN now() END
WHERE id = $1;

-- name: delivery_attempts
SELECT a.delivery_id, a.attempt, a.at, a.status_code, a.error, a.duration_ms
FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id
WHERE d.webhook_id = $1 ORDER BY a.delivery_id, a.attempt;
