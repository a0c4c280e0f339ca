-- The streaming pipeline: bytes the workers read from anywhere, the watcher's view of each room,
-- re-verification runs, verdict flips, and how far the bus-to-jobs dispatcher has read.

-- Content-addressed bytes of watched files and uploaded decks, so a worker on any host can parse
-- or verify them without the room folder mounted.
CREATE TABLE blob (
    sha256      text PRIMARY KEY,
    data        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- The last settled version of each file the watcher saw. A parse job whose sha256 is no longer
-- the latest here is stale (the file changed again) and does nothing.
CREATE TABLE room_file (
    room        text NOT NULL REFERENCES room(name),
    path        text NOT NULL,
    sha256      text NOT NULL,
    size        bigint NOT NULL,
    removed     boolean NOT NULL DEFAULT false,
    seen_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (room, path)
);

-- A re-verification compares against the deck's previous finished run.
ALTER TABLE run ADD COLUMN baseline_run_id bigint REFERENCES run(id);
-- One re-verification per (deck version, causing document): a re-taken job finds its run.
CREATE UNIQUE INDEX run_reverify_once ON run (deck_document_id, cause_document_id)
    WHERE trigger = 'reverify';
CREATE INDEX run_deck ON run (deck_document_id, id DESC);

-- Each flip is recorded once; verdict.changed is published in the same transaction.
CREATE TABLE verdict_change (
    run_id           bigint NOT NULL REFERENCES run(id),
    claim_id         text NOT NULL,
    room             text NOT NULL,
    baseline_run_id  bigint NOT NULL REFERENCES run(id),
    before           text NOT NULL,
    after            text NOT NULL,
    cause_document_id bigint REFERENCES document(id),
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, claim_id)
);

-- Durable consumers of the event log: the id up to which each has acted.
CREATE TABLE consumer_offset (
    name           text PRIMARY KEY,
    last_event_id  bigint NOT NULL
);
-- The dispatcher starts at the log's head: events from before this schema never fire webhooks.
INSERT INTO consumer_offset (name, last_event_id)
SELECT 'dispatch', coalesce(max(id), 0) FROM event;

CREATE INDEX delivery_webhook ON delivery (webhook_id, id DESC);
