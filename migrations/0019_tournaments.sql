-- Tournaments (issue 34): round robin, double round robin, Swiss, groups then knockout.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    organiser   INTEGER NOT NULL REFERENCES players(id),
    -- The format and its parameters, as the API writes them ({"format":"swiss","rounds":5}).
    format      TEXT NOT NULL,
    variant     TEXT,
    rules       TEXT NOT NULL,
    -- The clock of every game, as challenges keep it.
    clock       TEXT NOT NULL,
    rated       BOOLEAN NOT NULL,
    min_players INTEGER NOT NULL,
    max_players INTEGER NOT NULL,
    -- Service clock (ms): the start, when sign-up closes by itself; NULL: the organiser starts it.
    starts_at   INTEGER,
    status      TEXT NOT NULL,
    -- The round being played (0 before the start).
    round       INTEGER NOT NULL DEFAULT 0,
    winner      INTEGER REFERENCES players(id),
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);

-- Who plays: the rating at sign-up seeds them; a withdrawal keeps the row (its games count).
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    seed_rating   INTEGER NOT NULL,
    joined_at     INTEGER NOT NULL,
    withdrawn_at  INTEGER,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_players_player ON tournament_players(player_id);

-- Each pairing of each round: its game, or (a pairing with a player who had withdrawn) a
-- forfeit won by `forfeit_winner` without a game.
CREATE TABLE tournament_games (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    round          INTEGER NOT NULL,
    attackers      INTEGER NOT NULL REFERENCES players(id),
    defenders      INTEGER NOT NULL REFERENCES players(id),
    game_id        INTEGER UNIQUE REFERENCES games(id),
    forfeit_winner INTEGER REFERENCES players(id)
);
CREATE INDEX tournament_games_round ON tournament_games(tournament_id, round);

-- Who sat a round out (an odd count): a bye scores a win.
CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    player_id     INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (tournament_id, round)
);
