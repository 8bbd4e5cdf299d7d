-- A player whose Discord direct messages were refused (50007) has their turn DMs turned off
-- and is owed one note saying so, given under their next command by whichever instance
-- answers it.
ALTER TABLE players ADD COLUMN discord_dms_closed_untold BOOLEAN NOT NULL DEFAULT FALSE;
