-- name: blob_exists
SELECT EXISTS (SELECT 1 FROM blob WHERE sha256 = $1);
