-- name: publish_event
SELECT tickmark_publish($1, $2, $3, $4::jsonb);

-- name: publish_events
SELECT tickmark_publish_many($1::text[], $2::text[], $3::bigint[], $4::jsonb[]);

-- name: events_after
SELECT id, type, room, run_id, body::text AS body FROM event
WHERE id > $1
  AND ($2::text IS NULL OR room = $2)
  AND ($3::bigint IS NULL OR run_id = $3)
  AND ($4::text[] IS NULL OR type = ANY($4))
ORDER BY id
LIMIT $5;

-- name: last_event_id
SELECT coalesce(max(id), 0) FROM event;
