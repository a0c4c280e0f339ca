-- Per-room lookups a verification or re-verification makes, indexed so their cost follows the
-- deck's claims, not the size of the room.
-- facts_for_metrics: the current facts of a room for the claims' registry metrics.
CREATE INDEX fact_room_metric ON fact (room, metric) WHERE NOT superseded;
-- changed_slots: the versions a document replaced.
CREATE INDEX document_superseded_by ON document (superseded_by) WHERE superseded_by IS NOT NULL;
-- reverify_candidates and latest_finished_run: a deck's finished runs, newest first.
CREATE INDEX run_deck_finished ON run (deck_document_id, id DESC) WHERE status = 'finished';
-- facts_for_entities: a room's facts of the companies a deck names.
CREATE INDEX fact_room_entity ON fact (room, (split_part(entity_key, ' ', 1)), metric) WHERE NOT superseded;
