-- Per-room access: bearer tokens (only their sha256 is stored), and row-level security keyed on
-- the room. Request handling that carries a token runs each transaction as tickmark_app with
-- tickmark.room set (services/access.py); that role cannot bypass RLS and sees one room's rows.
-- The service's own background work (workers, dispatcher, watcher) connects as the owner of
-- these tables, which RLS does not restrict (no FORCE), so it keeps working across every room.

CREATE TABLE api_token (
    id          bigserial PRIMARY KEY,
    room        text NOT NULL REFERENCES room(name),
    name        text NOT NULL DEFAULT '',
    token_hash  text NOT NULL UNIQUE,
    prefix      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

-- Roles belong to the cluster, not the database: another database on the same server may have
-- created it already (the tests run many), possibly at the same moment.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tickmark_app') THEN
        CREATE ROLE tickmark_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;

-- A non-superuser owner must be a member to SET ROLE; a superuser needs nothing.
DO $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE format('GRANT tickmark_app TO %I', current_user);
    END IF;
EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'could not grant tickmark_app to %: %; room-scoped requests will fail', current_user, SQLERRM;
END
$$;

GRANT SELECT ON room, document, section, doc_table, fact, run, claim, verdict, verdict_change, event,
                webhook, delivery, delivery_attempt, room_file TO tickmark_app;
GRANT INSERT ON room TO tickmark_app;
GRANT INSERT, UPDATE ON webhook TO tickmark_app;
GRANT USAGE ON SEQUENCE webhook_id_seq TO tickmark_app;
-- blob, parse_cache and api_token are never granted: bytes are shared by content across rooms,
-- and tokens are looked up by the owner before any room is chosen.

ALTER TABLE room ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON room
    USING (name = current_setting('tickmark.room', true))
    WITH CHECK (name = current_setting('tickmark.room', true));

ALTER TABLE document ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON document USING (room = current_setting('tickmark.room', true));
ALTER TABLE fact ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON fact USING (room = current_setting('tickmark.room', true));
ALTER TABLE run ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON run USING (room = current_setting('tickmark.room', true));
ALTER TABLE claim ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON claim USING (room = current_setting('tickmark.room', true));
ALTER TABLE verdict ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON verdict USING (room = current_setting('tickmark.room', true));
ALTER TABLE verdict_change ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON verdict_change USING (room = current_setting('tickmark.room', true));
ALTER TABLE event ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON event USING (room = current_setting('tickmark.room', true));
ALTER TABLE room_file ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON room_file USING (room = current_setting('tickmark.room', true));
ALTER TABLE webhook ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON webhook
    USING (room = current_setting('tickmark.room', true))
    WITH CHECK (room = current_setting('tickmark.room', true));
ALTER TABLE delivery ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON delivery USING (room = current_setting('tickmark.room', true));

-- Rows without a room column follow their parent, whose own policy filters the subquery.
ALTER TABLE section ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON section USING (EXISTS (SELECT 1 FROM document d WHERE d.id = document_id));
ALTER TABLE doc_table ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON doc_table USING (EXISTS (SELECT 1 FROM document d WHERE d.id = document_id));
ALTER TABLE delivery_attempt ENABLE ROW LEVEL SECURITY;
CREATE POLICY room_scope ON delivery_attempt USING (EXISTS (SELECT 1 FROM delivery d WHERE d.id = delivery_id));
