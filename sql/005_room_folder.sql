-- Where a room was last watched from, so start-up can tell a room folder renamed or deleted
-- while nothing ran (its files are retired) from a room watched under another TICKMARK_ROOMS.
ALTER TABLE room ADD COLUMN folder text;
