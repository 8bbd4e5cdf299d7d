-- Discord outbox: what the bot must post in a channel, written in the same transaction as the
-- event it announces, delivered in order per channel, at least once, and marked delivered only
-- after Discord accepted it.
CREATE TABLE discord_outbox (
    id              INTEGER PRIMARY KEY,
    event_id        INTEGER NOT NULL REFERENCES events(id),
    channel_id      INTEGER NOT NULL,   -- Discord channel or thread (snowflake)
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'shown', 'abandoned')),
    -- A front end that shows this event in its own reply holds the post until then; the post
    -- goes out if the reply fails or the hold ends unconfirmed (a crash between the two).
    held_until      INTEGER,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    done_at         INTEGER
);
CREATE INDEX discord_outbox_pending ON discord_outbox(status, channel_id, id);
