-- Every change to a game's row counts up its version (see migrations/0012_game_versions.sql).
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
