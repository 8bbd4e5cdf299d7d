-- The variant balance page (issue 35): how finished games of each preset ended, per rating
-- band of their players' average rating when the game ended, before it was rated (band 1400
-- holds 1400 to 1599; band -1 the games where a side had no rating: the AI, an imported
-- name, a player not rated in the variant yet). Counted as games end, beside the explorer;
-- the games finished before are counted by the migration's Rust.
CREATE TABLE explorer_balance (
    variant       TEXT NOT NULL,
    band          INTEGER NOT NULL,
    games         INTEGER NOT NULL,
    attackers_won INTEGER NOT NULL,
    defenders_won INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    PRIMARY KEY (variant, band)
) WITHOUT ROWID;
