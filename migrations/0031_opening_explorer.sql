-- The opening explorer (issue 35): every position finished games of a preset reached in
-- their first plies, keyed by its board symmetries folded together (engine/src/symmetry.rs),
-- with the results of the games that passed through it and of each move out of it. Keyed
-- tables (WITHOUT ROWID): a million games make tens of millions of rows, read by key.
CREATE TABLE explorer_positions (
    variant       TEXT NOT NULL,
    position_key  INTEGER NOT NULL,
    games         INTEGER NOT NULL,
    attackers_won INTEGER NOT NULL,
    defenders_won INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    PRIMARY KEY (variant, position_key)
) WITHOUT ROWID;
-- A move out of a position, named by the position it leads to (folded too), so a move and
-- its mirror image on a symmetric board are one line.
CREATE TABLE explorer_moves (
    variant       TEXT NOT NULL,
    position_key  INTEGER NOT NULL,
    next_key      INTEGER NOT NULL,
    games         INTEGER NOT NULL,
    attackers_won INTEGER NOT NULL,
    defenders_won INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    -- Sum of the games' average player rating, over the games both players had one.
    rating_sum    INTEGER NOT NULL,
    rated_games   INTEGER NOT NULL,
    PRIMARY KEY (variant, position_key, next_key)
) WITHOUT ROWID;
