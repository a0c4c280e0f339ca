-- name: note_room_folder
-- The folder a room is watched from: a room whose folder is gone from that same place at start-up
-- was renamed or deleted while nothing ran; a room last watched elsewhere is not ours to retire.
UPDATE room SET folder = $2 WHERE name = $1 AND folder IS DISTINCT FROM $2;

-- name: room_folders
SELECT name, folder FROM room WHERE folder IS NOT NULL;

-- name: present_files_under
-- Files last seen at a path or anywhere below it ('' is the whole room): what a removed folder took.
SELECT path FROM room_file
WHERE room = $1 AND NOT removed AND ($2 = '' OR path = $2 OR starts_with(path, $2 || '/'))
ORDER BY path;

-- name: gone_but_current
-- Files recorded as gone whose document is still current: a removal cut short by a crash.
SELECT DISTINCT f.room, f.path FROM room_file f
JOIN document d ON d.room = f.room AND d.path = f.path
WHERE f.removed AND d.superseded_by IS NULL AND d.status <> 'removed'
ORDER BY f.room, f.path;

-- name: current_filing_paths
SELECT DISTINCT path FROM document
WHERE room = $1 AND kind = 'filing' AND superseded_by IS NULL AND status <> 'removed';
