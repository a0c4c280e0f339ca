-- name: facts_for_entities
-- facts_for_metrics narrowed to the companies a deck's claims name, by the first word of the
-- entity key (two names same_entity() matches always share it): the rows read follow the deck.
SELECT f.id, f.document_id, d.path AS document, f.entity, f.metric, f.label, f.basis, f.period,
       f.period_start, f.period_end, f.value, f.unit, f.scale, f.currency, f.as_printed,
       f.source::text AS source, f.dimensions::text AS dimensions
FROM fact f JOIN document d ON d.id = f.document_id
WHERE f.room = $1 AND NOT f.superseded AND d.superseded_by IS NULL
  AND split_part(f.entity_key, ' ', 1) = ANY($4::text[])
  AND (f.metric = ANY($2::text[]) OR (f.metric LIKE 'label:%' AND f.metric LIKE ANY($3::text[])));
