-- Append a claim's events in one statement: one advisory lock, one insert, one NOTIFY. A
-- re-verification publishes thousands of rule events; one tickmark_publish call each was the
-- largest item in PostgreSQL's time for a room drop. Ids follow the array order, as the listeners
-- read bodies from the table by id and the payload (the last id) is only a wake-up.
CREATE FUNCTION tickmark_publish_many(p_types text[], p_rooms text[], p_run_ids bigint[], p_bodies jsonb[])
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    last_id bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(7411201);
    WITH added AS (
        INSERT INTO event (type, room, run_id, body)
        SELECT t, r, run, b FROM unnest(p_types, p_rooms, p_run_ids, p_bodies) WITH ORDINALITY AS e(t, r, run, b, n)
        ORDER BY n
        RETURNING id
    )
    SELECT max(id) INTO last_id FROM added;
    PERFORM pg_notify('tickmark_events', last_id::text);
    RETURN last_id;
END;
$$;

-- Watched files' bytes and parse results are written once and read whole; pglz spent ~0.1 s of
-- the server's CPU per 2 MB filing compressing them (lz4 is not in every build). Stored out of
-- line uncompressed instead: a room of a hundred 10-Ks costs a few hundred MB more disk.
ALTER TABLE blob ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE parse_cache ALTER COLUMN result SET STORAGE EXTERNAL;
