-- name: fact_ids_for_entities
-- fact_ids_for_metrics narrowed to the companies a deck's claims name, by the first word of the
-- entity key (two names same_entity() matches always share it): the rows read follow the deck.
-- Written so the plan needs no statistics: right after a drop nothing has analysed the new rows,
-- and a join planned on guesses re-read the whole room's facts once per document (0.3 s, not 0.04 s).
-- A superseded or removed version's facts are flagged superseded in the statement that retires it.
WITH f AS MATERIALIZED (
    SELECT id, document_id FROM fact
    WHERE room = $1 AND NOT superseded AND split_part(entity_key, ' ', 1) = ANY($4::text[])
      AND metric = ANY($2::text[])
    UNION ALL
    SELECT id, document_id FROM fact
    WHERE room = $1 AND NOT superseded AND split_part(entity_key, ' ', 1) = ANY($4::text[])
      AND metric LIKE 'label:%' AND metric LIKE ANY($3::text[]) AND metric <> ALL($2::text[])
)
SELECT f.id FROM f
-- The room's order, which the rules break ties by: documents by path, each in the order it prints.
ORDER BY (SELECT d.path FROM document d WHERE d.id = f.document_id), f.id;

-- name: facts_by_id
-- The stored rows of facts a run has not decoded before (see services.verifier.DecodedFacts).
SELECT f.id, f.document_id, d.path AS document, f.entity, f.metric, f.label, f.basis, f.period, f.period_start,
       f.period_end, f.value, f.unit, f.scale, f.currency, f.as_printed, f.source::text AS source,
       f.dimensions::text AS dimensions
FROM fact f JOIN document d ON d.id = f.document_id
WHERE f.room = $1 AND f.id = ANY($2::bigint[]);
