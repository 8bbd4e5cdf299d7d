-- Tournaments joined from several Discord servers (issue 34).

-- Where a player joined a tournament from Discord: the server and channel that get the
-- tournament's news and a thread for each of the player's games.
CREATE TABLE tournament_discord_places (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    player_id     BIGINT NOT NULL REFERENCES players(id),
    guild_id      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- A game shown in a Discord channel besides its own place (a tournament game is shown in the
-- server of each of its players): the channel it hangs off, and where its posts go now (a
-- thread of that channel once one is opened, else the channel itself).
CREATE TABLE discord_game_mirrors (
    game_id    BIGINT NOT NULL REFERENCES games(id),
    parent_id  BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, parent_id)
);
CREATE INDEX discord_game_mirrors_channel ON discord_game_mirrors(channel_id);
