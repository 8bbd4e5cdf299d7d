-- Imported games (issue 35): games read from a record (an OpenTafl .otg or an archive's move
-- list), checked move by move by the referee, stored finished, unrated and public.
--
-- The players a record names are not taflbot accounts: each name is kept once in
-- imported_players, and an imported game's seat is stored as the negated id of its imported
-- player in the seat's *_ai_level column. (The CHECK that a seat is one player or one AI level
-- cannot change on SQLite without rebuilding games; rows::games reads a negative level back as
-- Seat::Imported, and no query of AI games looks at finished games.)
CREATE TABLE imported_players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

CREATE TABLE imported_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    format      TEXT    NOT NULL CHECK (format IN ('otg', 'moves')),
    -- The record's tags but the players and the rules: JSON [["event", "..."], ...].
    tags        TEXT    NOT NULL,
    imported_by INTEGER REFERENCES players(id),
    imported_at INTEGER NOT NULL
);
