-- Core schema: documents and what parsing found in them, runs and verdicts, the event log,
-- webhooks. Every row carries its room so access can be scoped per room.

CREATE TABLE room (
    name        text PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per version of a file in a room. A changed file gets a new row and the old one is
-- pointed at it through superseded_by; nothing is deleted.
CREATE TABLE document (
    id              bigserial PRIMARY KEY,
    room            text NOT NULL REFERENCES room(name),
    path            text NOT NULL,
    sha256          text NOT NULL,
    size            bigint NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('filing', 'deck')),
    format          text,
    entity          text,
    entity_key      text,
    form            text,
    fiscal_year_end text,
    periods         text[] NOT NULL DEFAULT '{}',
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'parsed', 'failed', 'removed')),
    error_reason    text,
    error_detail    text,
    superseded_by   bigint REFERENCES document(id),
    parsed_at       timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (room, path, sha256)
);
CREATE INDEX document_current ON document (room, path) WHERE superseded_by IS NULL;

-- Parse results keyed by content: the same bytes are never parsed twice, whichever room or
-- path they arrive under. The blob is the msgspec encoding of parsers.model.ParsedDocument.
CREATE TABLE parse_cache (
    sha256          text NOT NULL,
    parser_version  text NOT NULL,
    result          bytea NOT NULL,
    elapsed_ms      double precision NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (sha256, parser_version)
);

CREATE TABLE section (
    document_id bigint NOT NULL REFERENCES document(id),
    node_id     text NOT NULL,
    parent      text,
    title       text NOT NULL,
    level       int NOT NULL,
    page_first  int,
    page_last   int,
    PRIMARY KEY (document_id, node_id)
);

CREATE TABLE doc_table (
    document_id  bigint NOT NULL REFERENCES document(id),
    table_id     text NOT NULL,
    section      text,
    title        text NOT NULL,
    scale        int NOT NULL,
    scale_source text NOT NULL,
    page         int,
    grid         jsonb NOT NULL,
    PRIMARY KEY (document_id, table_id)
);

CREATE TABLE fact (
    id           bigserial PRIMARY KEY,
    document_id  bigint NOT NULL REFERENCES document(id),
    room         text NOT NULL,
    entity       text NOT NULL,
    entity_key   text NOT NULL,
    metric       text NOT NULL,
    label        text NOT NULL,
    basis        text NOT NULL,
    period       text NOT NULL,
    period_start date,
    period_end   date,
    value        numeric NOT NULL,
    unit         text NOT NULL,
    scale        int NOT NULL,
    currency     text,
    as_printed   text NOT NULL,
    source       jsonb NOT NULL,
    dimensions   jsonb NOT NULL DEFAULT '{}',
    superseded   boolean NOT NULL DEFAULT false
);
CREATE INDEX fact_slot ON fact (room, entity_key, metric, period) WHERE NOT superseded;
CREATE INDEX fact_document ON fact (document_id);

CREATE TABLE run (
    id                bigserial PRIMARY KEY,
    room              text NOT NULL REFERENCES room(name),
    deck_document_id  bigint REFERENCES document(id),
    deck_path         text NOT NULL,
    trigger           text NOT NULL CHECK (trigger IN ('upload', 'watch', 'cli', 'reverify')),
    cause_document_id bigint REFERENCES document(id),
    status            text NOT NULL DEFAULT 'queued'
                      CHECK (status IN ('queued', 'running', 'finished', 'failed')),
    error             text,
    counts            jsonb NOT NULL DEFAULT '{}',
    result            jsonb,
    created_at        timestamptz NOT NULL DEFAULT now(),
    started_at        timestamptz,
    finished_at       timestamptz
);
CREATE INDEX run_room ON run (room, id DESC);

CREATE TABLE claim (
    run_id    bigint NOT NULL REFERENCES run(id),
    claim_id  text NOT NULL,
    room      text NOT NULL,
    page      int NOT NULL,
    entity_key text,
    metric    text,
    period    text,
    body      jsonb NOT NULL,
    PRIMARY KEY (run_id, claim_id)
);

CREATE TABLE verdict (
    run_id     bigint NOT NULL,
    claim_id   text NOT NULL,
    room       text NOT NULL,
    verdict    text NOT NULL
               CHECK (verdict IN ('supported', 'contradicted', 'different-basis', 'no-evidence')),
    reason     text NOT NULL,
    body       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, claim_id),
    FOREIGN KEY (run_id, claim_id) REFERENCES claim(run_id, claim_id)
);

-- The durable log behind the bus. Ids are handed out under a transaction-level advisory lock
-- (see publish_event) so that they become visible in id order and a reader that has seen id N
-- never later finds a committed id below N.
CREATE TABLE event (
    id          bigserial PRIMARY KEY,
    type        text NOT NULL,
    room        text,
    run_id      bigint,
    body        jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_room ON event (room, id);
CREATE INDEX event_run ON event (run_id, id) WHERE run_id IS NOT NULL;

CREATE TABLE webhook (
    id          bigserial PRIMARY KEY,
    room        text NOT NULL REFERENCES room(name),
    url         text NOT NULL,
    format      text NOT NULL CHECK (format IN ('slack', 'teams', 'json')),
    secret      text NOT NULL,
    active      boolean NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE delivery (
    id               bigserial PRIMARY KEY,
    webhook_id       bigint NOT NULL REFERENCES webhook(id),
    room             text NOT NULL,
    event_id         bigint NOT NULL REFERENCES event(id),
    idempotency_key  text NOT NULL UNIQUE,
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         int NOT NULL DEFAULT 0,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz
);

CREATE TABLE delivery_attempt (
    delivery_id  bigint NOT NULL REFERENCES delivery(id),
    attempt      int NOT NULL,
    at           timestamptz NOT NULL DEFAULT now(),
    status_code  int,
    error        text,
    duration_ms  double precision,
    PRIMARY KEY (delivery_id, attempt)
);

-- Append one event and wake the listeners, in the caller's transaction. The advisory lock is
-- held until that transaction ends, so ids become visible in id order; the NOTIFY payload is
-- the id alone (Postgres caps payloads at 8000 bytes), listeners read the body from the table.
CREATE FUNCTION tickmark_publish(p_type text, p_room text, p_run_id bigint, p_body jsonb)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(7411201);
    INSERT INTO event (type, room, run_id, body) VALUES (p_type, p_room, p_run_id, p_body)
    RETURNING id INTO new_id;
    PERFORM pg_notify('tickmark_events', new_id::text);
    RETURN new_id;
END;
$$;
