-- The opening explorer (issue 35): every position finished games of a preset reached in
-- their first plies, keyed by its board symmetries folded together (engine/src/symmetry.rs),
-- with the results of the games that passed through it and of each move out of it. A million
-- games make tens of millions of rows, read by key.
CREATE TABLE explorer_positions (
    variant       TEXT NOT NULL,
    position_key  BIGINT NOT NULL,
    games         BIGINT NOT NULL,
    attackers_won BIGINT NOT NULL,
    defenders_won BIGINT NOT NULL,
    draws         BIGINT NOT NULL,
    PRIMARY KEY (variant, position_key)
);
-- A move out of a position, named by the position it leads to (folded too), so a move and
-- its mirror image on a symmetric board are one line.
CREATE TABLE explorer_moves (
    variant       TEXT NOT NULL,
    position_key  BIGINT NOT NULL,
    next_key      BIGINT NOT NULL,
    games         BIGINT NOT NULL,
    attackers_won BIGINT NOT NULL,
    defenders_won BIGINT NOT NULL,
    draws         BIGINT NOT NULL,
    -- Sum of the games' average player rating, over the games both players had one.
    rating_sum    BIGINT NOT NULL,
    rated_games   BIGINT NOT NULL,
    PRIMARY KEY (variant, position_key, next_key)
);
