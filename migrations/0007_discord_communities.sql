-- Discord communities: per-server settings, games played in threads, turn notifications.

-- A Discord server's own defaults and rules, set with /settings by members who may manage the
-- server. A missing row (or a NULL column) means the bot's defaults.
CREATE TABLE discord_guild_settings (
    guild_id        INTEGER PRIMARY KEY,   -- Discord guild (snowflake)
    default_variant TEXT,                  -- preset id for /play and /challenge
    default_clock   TEXT,                  -- a clock as the API writes it: {"kind":"per_move","seconds":259200}
    ai_level        INTEGER,               -- /play's default AI level
    threads         INTEGER NOT NULL DEFAULT 1,  -- a thread per game where the bot may
    moderator_role  INTEGER,               -- Discord role whose members may /abort games
    updated_at      INTEGER NOT NULL
);

-- The channels of a server where games may start; none listed: any channel.
CREATE TABLE discord_game_channels (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

-- A game played in a Discord thread: the thread, and the channel it hangs off (where the
-- game goes back if the thread is deleted or the bot loses access to it).
CREATE TABLE discord_game_threads (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id),
    thread_id  INTEGER NOT NULL,
    parent_id  INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX discord_game_threads_thread ON discord_game_threads(thread_id);

-- A player's choice of a direct message on their turn and reminders (opt-in).
ALTER TABLE players ADD COLUMN discord_dm INTEGER NOT NULL DEFAULT 0;

-- Turn reminders sent: one row per game, ply and reminder, so each is sent once, across
-- restarts. `kind` is 'deadline' (threshold: seconds before the deadline) or 'inactivity'
-- (threshold: seconds since the turn began).
CREATE TABLE turn_reminders (
    game_id        INTEGER NOT NULL REFERENCES games(id),
    ply            INTEGER NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('deadline', 'inactivity')),
    threshold_secs INTEGER NOT NULL,
    sent_at        INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, kind, threshold_secs)
);

-- A post owed to a player's direct messages rather than a channel: the Discord user. Its
-- `channel_id` then holds the same user id, which keeps each person's messages in order and
-- apart from every channel (snowflakes are unique across kinds).
ALTER TABLE discord_outbox ADD COLUMN dm_user_id INTEGER;
