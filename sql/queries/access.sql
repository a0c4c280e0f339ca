-- name: scope_to_room
-- For the rest of the caller's transaction: the RLS-bound role, and the one room it may see.
SELECT set_config('role', 'tickmark_app', true), set_config('tickmark.room', $1, true);

-- name: create_token
INSERT INTO api_token (room, name, token_hash, prefix) VALUES ($1, $2, $3, $4)
RETURNING id, created_at;

-- name: token_room
SELECT id, room FROM api_token WHERE token_hash = $1 AND revoked_at IS NULL;

-- name: revoke_token
UPDATE api_token SET revoked_at = now()
WHERE (id = $1 OR prefix = $2) AND revoked_at IS NULL
RETURNING id, room;

-- name: list_tokens
SELECT id, room, name, prefix, created_at, revoked_at FROM api_token ORDER BY id;

-- name: live_tokens
SELECT id FROM api_token WHERE id = ANY($1::bigint[]) AND revoked_at IS NULL;
