-- The engine's view of the opening explorer's positions (issue 35): one search of a fixed
-- node budget per folded position (engine/src/symmetry.rs), run in the background for the
-- positions the explorer is asked about. The best move is stored in the folded image's
-- orientation (the image whose hash is the key) and turned to the viewer's when shown.
CREATE TABLE explorer_evaluations (
    variant       TEXT NOT NULL,
    position_key  BIGINT NOT NULL,
    -- The defenders' winning chance in percent, counted from the score of the variant's
    -- start as a game's analysis counts it.
    chance        DOUBLE PRECISION NOT NULL,
    best          TEXT,
    -- A proved result ("escape in 3"), when the search found one.
    forced        TEXT,
    depth         BIGINT NOT NULL,
    nodes         BIGINT NOT NULL,
    evaluated_at  BIGINT NOT NULL,
    PRIMARY KEY (variant, position_key)
);
