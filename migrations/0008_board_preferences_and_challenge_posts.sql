-- How a player likes their boards drawn in the views only they see (Discord's private replies):
-- `board_flipped` turns the board half a turn, so the player can look from the other edge.
-- A player without a row has the defaults.
CREATE TABLE player_preferences (
    player_id     INTEGER PRIMARY KEY REFERENCES players(id),
    board_flipped INTEGER NOT NULL DEFAULT 0
);
-- The Discord message that shows a challenge with its Accept/Decline/Cancel buttons, so the
-- Discord front end can take the buttons off when the challenge expires (after a restart too).
CREATE TABLE discord_challenge_posts (
    challenge_id INTEGER PRIMARY KEY REFERENCES challenges(id),
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER NOT NULL
);
