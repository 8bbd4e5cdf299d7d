-- Every move now reads its game in the writer's transaction and is checked there, so nothing
-- guards a write by a game's version any more (it was added by 0012_game_versions.sql for moves
-- written without a read). Dropped rather than left unused: an instance of an older build that
-- still writes without a read would trust a version nobody counts up; without the column its
-- statements fail instead of writing over a move it did not see.
ALTER TABLE games DROP COLUMN version;
