-- Annotations of finished games (issue 35): a comment on a move of the game, or a variation
-- (a line played instead of that move, checked by the referee, its moves with their own
-- comments). Written by the game's players, by whoever imported it, or read from an imported
-- record; `role` leaves room for commentators.
CREATE TABLE game_annotations (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    -- The principal-line move it is about, 1-based.
    ply        INTEGER NOT NULL,
    -- NULL for an annotation that came with an imported record.
    author     INTEGER REFERENCES players(id),
    role       TEXT    NOT NULL CHECK (role IN ('player', 'importer', 'commentator', 'record')),
    comment    TEXT,
    -- JSON: the variation's moves, each {"move", "comment", "variations"}; NULL for a comment.
    variation  TEXT,
    created_at INTEGER NOT NULL,
    CHECK ((comment IS NULL) <> (variation IS NULL))
);
CREATE INDEX game_annotations_game ON game_annotations(game_id, ply, id);
