-- Puzzles mined from analysed games (issue 35): the positions, the players' puzzle ratings,
-- their attempts, and which games were mined.

-- A position where the side to move has one winning line. `rules` is the OpenTafl rules
-- string of the source game, `position` the OpenTafl position record and `solution` the line,
-- moves apart by spaces, the solver's first. Rated with Glicko-2 like a player.
CREATE TABLE puzzles (
    id           INTEGER PRIMARY KEY,
    variant      TEXT NOT NULL,
    rules        TEXT NOT NULL,
    position     TEXT NOT NULL,
    side_to_move TEXT NOT NULL,
    solution     TEXT NOT NULL,
    theme        TEXT NOT NULL,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    -- Plies of the source game played before the position.
    ply          INTEGER NOT NULL,
    rating       REAL NOT NULL,
    deviation    REAL NOT NULL,
    volatility   REAL NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    solved       INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    UNIQUE (game_id, ply)
);
CREATE INDEX puzzles_variant_rating ON puzzles(variant, rating);

-- A player's puzzle rating (one for every variant: see docs/study.md).
CREATE TABLE puzzle_ratings (
    player_id  INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
);

-- A player's first finished try at a puzzle, the one that was rated; later tries are answered
-- but change nothing.
CREATE TABLE puzzle_attempts (
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles(id),
    player_id     INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    solved        BOOLEAN NOT NULL,
    moves         TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating_after  REAL NOT NULL,
    attempted_at  INTEGER NOT NULL,
    PRIMARY KEY (puzzle_id, player_id)
);
CREATE INDEX puzzle_attempts_player ON puzzle_attempts(player_id);

-- A game whose analysis the miner has searched (whatever it found), so neither the hook nor
-- the batch searches it again.
CREATE TABLE puzzle_mined_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    analysis_id INTEGER NOT NULL REFERENCES analyses(id),
    puzzles     INTEGER NOT NULL,
    mined_at    INTEGER NOT NULL
);
