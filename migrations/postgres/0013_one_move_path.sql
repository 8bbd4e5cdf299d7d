-- The games' version column is no longer used (see migrations/0013_one_move_path.sql).
ALTER TABLE games DROP COLUMN version;
