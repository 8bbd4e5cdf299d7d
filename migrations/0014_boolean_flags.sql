-- The flags are declared BOOLEAN, as PostgreSQL's always were, so the two schemas compare
-- type for type (bot/src/store/migrations/tests_postgres.rs): a column that is a flag on one
-- backend and a number on the other can no longer pass unseen. SQLite keeps storing them as 0
-- and 1; only the declared type changes. SQLite cannot change a column's type in place, so
-- each flag is added anew, copied, the old one dropped and the new one renamed: the flags that
-- were not their table's last column (`webhooks.active`, `discord_guild_settings.threads`)
-- become its last, which no statement notices (none reads or writes columns by position).
-- PostgreSQL: nothing to change.

ALTER TABLE players ADD COLUMN discord_dm_new BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE players SET discord_dm_new = (discord_dm <> 0);
ALTER TABLE players DROP COLUMN discord_dm;
ALTER TABLE players RENAME COLUMN discord_dm_new TO discord_dm;

ALTER TABLE games ADD COLUMN rated_new BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN private_new BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE games SET rated_new = (rated <> 0), private_new = (private <> 0);
ALTER TABLE games DROP COLUMN rated;
ALTER TABLE games DROP COLUMN private;
ALTER TABLE games RENAME COLUMN rated_new TO rated;
ALTER TABLE games RENAME COLUMN private_new TO private;

ALTER TABLE challenges ADD COLUMN rated_new BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE challenges ADD COLUMN private_new BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE challenges SET rated_new = (rated <> 0), private_new = (private <> 0);
ALTER TABLE challenges DROP COLUMN rated;
ALTER TABLE challenges DROP COLUMN private;
ALTER TABLE challenges RENAME COLUMN rated_new TO rated;
ALTER TABLE challenges RENAME COLUMN private_new TO private;

-- An indexed column cannot be dropped: the index goes and comes back.
DROP INDEX webhooks_player;
ALTER TABLE webhooks ADD COLUMN active_new BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE webhooks SET active_new = (active <> 0);
ALTER TABLE webhooks DROP COLUMN active;
ALTER TABLE webhooks RENAME COLUMN active_new TO active;
CREATE INDEX webhooks_player ON webhooks(player_id, active);

ALTER TABLE discord_guild_settings ADD COLUMN threads_new BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE discord_guild_settings SET threads_new = (threads <> 0);
ALTER TABLE discord_guild_settings DROP COLUMN threads;
ALTER TABLE discord_guild_settings RENAME COLUMN threads_new TO threads;

ALTER TABLE player_preferences ADD COLUMN board_flipped_new BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE player_preferences SET board_flipped_new = (board_flipped <> 0);
ALTER TABLE player_preferences DROP COLUMN board_flipped;
ALTER TABLE player_preferences RENAME COLUMN board_flipped_new TO board_flipped;
