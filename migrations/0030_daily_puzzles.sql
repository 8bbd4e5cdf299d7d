-- The daily puzzle a Discord server may turn on in /settings (issue 35): where it is posted,
-- and the last day it was (so a restart never posts a day's puzzle twice).
CREATE TABLE puzzle_daily_channels (
    guild_id   INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    -- Days since 1970-01-01 (UTC, service clock) of the last post; NULL: none yet.
    last_day   INTEGER
);
