-- Computer analyses of games: one per game, per search budget and per number of plies (a game
-- still going may be analysed again later, further on). Each searched position is kept as it
-- is computed, so an analysis cut short by a restart resumes where it stopped.
CREATE TABLE analyses (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ms_per_ply INTEGER NOT NULL,
    plies INTEGER NOT NULL,
    status TEXT NOT NULL,
    requested_by INTEGER REFERENCES players(id),
    requested_at INTEGER NOT NULL,
    finished_at INTEGER,
    UNIQUE (game_id, ms_per_ply, plies)
);
CREATE INDEX analyses_pending ON analyses(status, id);
-- position 0 is the start, n the position after ply n; eval is the engine's evaluation (JSON).
CREATE TABLE analysis_positions (
    analysis_id INTEGER NOT NULL REFERENCES analyses(id),
    position INTEGER NOT NULL,
    eval TEXT NOT NULL,
    PRIMARY KEY (analysis_id, position)
);
