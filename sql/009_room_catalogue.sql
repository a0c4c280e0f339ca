-- The room catalogue reads every name a filing prints for its registrant (legal name, short forms,
-- ticker), so a deck that says "Mastercard" or "P&G" resolves to the room's entity.
ALTER TABLE document ADD COLUMN names text[] NOT NULL DEFAULT '{}';
