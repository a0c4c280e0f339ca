-- A filing reverted to bytes seen before is the same document row again, so "one re-verification
-- per (deck, causing document)" would skip it. Key re-verification by the event that caused it.
ALTER TABLE run ADD COLUMN cause_event_id bigint REFERENCES event(id);
DROP INDEX run_reverify_once;
CREATE UNIQUE INDEX run_reverify_once ON run (deck_document_id, cause_event_id) WHERE trigger = 'reverify';
