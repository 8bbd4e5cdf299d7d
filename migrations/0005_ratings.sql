-- Ratings: Glicko-2, one rating per player and pool (a pool is a preset variant's id: each
-- preset is rated apart; games on custom rules strings are never rated). Updated once per game,
-- in the transaction that ends it (see service/ratings.rs for the constants).
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    pool       TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,   -- rated games played in this pool
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, pool)
) WITHOUT ROWID;
CREATE INDEX ratings_leaderboard ON ratings(pool, rating DESC);

-- Every change of a rating, with the game that made it.
CREATE TABLE rating_history (
    id                INTEGER PRIMARY KEY,
    player_id         INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    pool              TEXT    NOT NULL,
    game_id           INTEGER NOT NULL REFERENCES games(id),
    rating_before     REAL    NOT NULL,
    deviation_before  REAL    NOT NULL,
    volatility_before REAL    NOT NULL,
    rating_after      REAL    NOT NULL,
    deviation_after   REAL    NOT NULL,
    volatility_after  REAL    NOT NULL,
    created_at        INTEGER NOT NULL
);
CREATE INDEX rating_history_player ON rating_history(player_id, pool, id);
CREATE INDEX rating_history_game ON rating_history(game_id);

-- Players seen in each Discord guild (anyone who used a command there, or was challenged
-- there): what `/leaderboard server_only:true` shows. Written once per player and guild.
CREATE TABLE discord_guild_players (
    guild_id  INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    seen_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player_id)
) WITHOUT ROWID;
