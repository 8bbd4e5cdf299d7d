-- A Discord server's lifecycle (issue 31): the server of each channel the bot is used in,
-- the servers the bot was removed from, and games whose clocks are paused meanwhile.

-- The server (guild) of each channel or thread where a command was used or a game thread was
-- made, so that a server's games and rows can be found when the bot is removed from it
-- (GUILD_DELETE names only the server).
CREATE TABLE discord_channel_guilds (
    channel_id BIGINT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    noted_at   BIGINT NOT NULL
);
CREATE INDEX discord_channel_guilds_guild ON discord_channel_guilds(guild_id);

-- A server the bot was removed from, and when (service clock, ms): its games stay paused
-- until the bot comes back or discord.removed_server_grace_days pass; then the row goes with
-- the rest of the server's data. The primary key makes the removal count once, whichever
-- instance saw it.
CREATE TABLE discord_removed_guilds (
    guild_id   BIGINT PRIMARY KEY,
    removed_at BIGINT NOT NULL
);

-- When a game's clocks were paused (its Discord server removed the bot); NULL while they run.
ALTER TABLE games ADD COLUMN paused_at BIGINT;
