-- Team matches (issue 34): two teams, N boards, each board's pair playing both sides at once.

CREATE TABLE team_matches (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    organiser   INTEGER NOT NULL REFERENCES players(id),
    variant     TEXT,
    rules       TEXT NOT NULL,
    -- The clock of every game, as challenges keep it.
    clock       TEXT NOT NULL,
    rated       BOOLEAN NOT NULL,
    -- The most players a team takes (one per board).
    max_boards  INTEGER NOT NULL,
    status      TEXT NOT NULL,
    -- Once finished: the team with more points; NULL with equal points (a draw).
    winner      TEXT,
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);

-- The two teams: a name, and for a team of a Discord server that server and the channel its
-- news and its games' copies are posted in.
CREATE TABLE team_match_teams (
    match_id   INTEGER NOT NULL REFERENCES team_matches(id),
    team       TEXT NOT NULL,
    name       TEXT NOT NULL,
    guild_id   INTEGER,
    channel_id INTEGER,
    PRIMARY KEY (match_id, team)
);

-- Who plays on which board (numbered from 1 in the order they were named or joined).
CREATE TABLE team_match_players (
    match_id  INTEGER NOT NULL REFERENCES team_matches(id),
    team      TEXT NOT NULL,
    board     INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (match_id, player_id),
    UNIQUE (match_id, team, board)
);

-- The two games of each board.
CREATE TABLE team_match_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    match_id INTEGER NOT NULL REFERENCES team_matches(id),
    board    INTEGER NOT NULL
);
CREATE INDEX team_match_games_match ON team_match_games(match_id, board);
