-- A re-verification takes in every facts change of its room committed by the time it holds the
-- deck's lock, not only the one that caused it: a drop of ten filings re-judges a deck a few times
-- instead of ten, and the jobs of the changes it took in find them covered and stop.
ALTER TABLE run ADD COLUMN facts_through_event_id bigint;

-- The last facts change of the room a finished run judged the deck against: a full run read the
-- whole room when it was submitted (event ids follow commit order, as publishing holds the log's
-- lock until commit); a re-verification took in every change up to its facts_through_event_id
-- (its cause alone before this migration).
CREATE FUNCTION tickmark_run_covers(r run) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN r.trigger = 'reverify' THEN coalesce(r.facts_through_event_id, r.cause_event_id)
                ELSE (SELECT min(e.id) FROM event e WHERE e.run_id = r.id AND e.type = 'deck.submitted') END
$$;
