-- Timeout protection (issue 34): vacation days, taken on request or spent a day at a time when
-- a correspondence clock would otherwise run out.

-- Each vacation: asked for (`automatic` false; running while `ended_at` is NULL, until
-- `ends_at` at the latest) or a day spent by the scheduler (`automatic` true, written ended:
-- its deadlines were moved at once). `days` is what it costs the player's balance.
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players(id),
    started_at INTEGER NOT NULL,
    ends_at    INTEGER NOT NULL,
    ended_at   INTEGER,
    days       INTEGER NOT NULL,
    automatic  BOOLEAN NOT NULL
);
CREATE INDEX vacations_player ON vacations(player_id, started_at);
-- At most one running vacation per player; the scheduler ends them by `ends_at`.
CREATE UNIQUE INDEX vacations_running ON vacations(player_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_ending ON vacations(ends_at) WHERE ended_at IS NULL;

-- A tournament's vacation rule (no row: vacation allowed): at most `max_days` days of stopped
-- clocks per player in its games (0: forbidden).
CREATE TABLE tournament_vacation_rules (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    max_days      INTEGER NOT NULL
);

-- How long each player's clocks stood still in a capped tournament's games.
CREATE TABLE tournament_vacation_used (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    used_ms       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
