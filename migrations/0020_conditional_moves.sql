-- Conditional moves (issue 34): a player's queued answers to the opponent's next moves,
-- hidden from the opponent. `ply` is the game's ply when they were queued: they answer only
-- the opponent's move that comes next, and a game that went another way drops them.
CREATE TABLE conditional_moves (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    ply        INTEGER NOT NULL,
    -- JSON: [["d1-d3","e5-e7"], ...]: each line the opponent's move, my answer, and so on.
    lines      TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
