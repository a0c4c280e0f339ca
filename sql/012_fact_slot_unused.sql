-- No query reads facts by (room, entity_key, metric, period): verifications read a room's facts by
-- company and metric (fact_room_entity, fact_room_metric) and re-verifications a document's
-- (fact_document). The slot index only cost every stored fact one more index entry.
DROP INDEX IF EXISTS fact_slot;
