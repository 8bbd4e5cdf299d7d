-- taflbot schema, version 1. Times are milliseconds since the Unix epoch (UTC).

CREATE TABLE players (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    discord_user_id INTEGER UNIQUE,
    created_at      INTEGER NOT NULL
);

-- API tokens are stored as the SHA-256 of the token; the token itself is shown once.
CREATE TABLE api_tokens (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    token_hash BLOB    NOT NULL UNIQUE,
    label      TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX api_tokens_player ON api_tokens(player_id);

CREATE TABLE games (
    id                  INTEGER PRIMARY KEY,
    variant             TEXT,              -- preset id, or NULL when only a rules string is given
    rules               TEXT    NOT NULL,  -- OpenTafl rules string (always stored: presets may change)
    attackers_player    INTEGER REFERENCES players(id),
    attackers_ai_level  INTEGER,
    defenders_player    INTEGER REFERENCES players(id),
    defenders_ai_level  INTEGER,
    status              TEXT    NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
    winner              TEXT    CHECK (winner IN ('attackers', 'defenders')),
    result_reason       TEXT,              -- king_escaped, resignation, timeout, draw_agreed, ...
    ply                 INTEGER NOT NULL DEFAULT 0,
    side_to_move        TEXT    NOT NULL CHECK (side_to_move IN ('attackers', 'defenders')),
    position            TEXT    NOT NULL,  -- OpenTafl position after `ply` moves
    clock_kind          TEXT    NOT NULL CHECK (clock_kind IN ('unlimited', 'per_move', 'bank')),
    clock_per_move_ms   INTEGER,
    clock_bank_ms       INTEGER,
    clock_increment_ms  INTEGER,
    attackers_bank_ms   INTEGER,
    defenders_bank_ms   INTEGER,
    turn_started_at     INTEGER NOT NULL,
    deadline_at         INTEGER,           -- when the player to move runs out of time
    reminded_ply        INTEGER,           -- the ply whose deadline reminder was sent
    draw_offer_by       TEXT    CHECK (draw_offer_by IN ('attackers', 'defenders')),
    context             TEXT,              -- front end's opaque place (e.g. a Discord channel)
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    finished_at         INTEGER,
    CHECK ((attackers_player IS NULL) <> (attackers_ai_level IS NULL)),
    CHECK ((defenders_player IS NULL) <> (defenders_ai_level IS NULL))
);
CREATE INDEX games_attackers ON games(attackers_player, status);
CREATE INDEX games_defenders ON games(defenders_player, status);
CREATE INDEX games_deadline ON games(status, deadline_at);
CREATE INDEX games_context ON games(context, status);

CREATE TABLE moves (
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply           INTEGER NOT NULL,    -- 1-based
    side          TEXT    NOT NULL,
    notation      TEXT    NOT NULL,    -- canonical, e.g. e5-e8xe9/f8
    mv            TEXT    NOT NULL,    -- e5-e8
    captures      TEXT    NOT NULL,    -- JSON array of squares
    position_hash INTEGER NOT NULL,    -- Zobrist hash after the move (as signed 64-bit)
    played_by     INTEGER REFERENCES players(id),  -- NULL for the AI
    played_at     INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE TABLE challenges (
    id                 INTEGER PRIMARY KEY,
    challenger         INTEGER NOT NULL REFERENCES players(id),
    opponent           INTEGER REFERENCES players(id),  -- NULL: open to anyone, or the AI
    opponent_ai_level  INTEGER,
    variant            TEXT,
    rules              TEXT    NOT NULL,
    challenger_side    TEXT    NOT NULL CHECK (challenger_side IN ('attackers', 'defenders', 'random')),
    clock              TEXT    NOT NULL,  -- JSON clock spec
    status             TEXT    NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id            INTEGER REFERENCES games(id),
    context            TEXT,
    created_at         INTEGER NOT NULL,
    expires_at         INTEGER NOT NULL,
    resolved_at        INTEGER
);
CREATE INDEX challenges_opponent ON challenges(opponent, status);
CREATE INDEX challenges_challenger ON challenges(challenger, status);
CREATE INDEX challenges_expiry ON challenges(status, expires_at);

-- A repeated request with the same key gets the stored answer.
CREATE TABLE idempotency_keys (
    player_id    INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    key          TEXT    NOT NULL,
    request_hash BLOB    NOT NULL,
    response     TEXT    NOT NULL,  -- JSON of the successful answer
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (player_id, key)
) WITHOUT ROWID;

-- Every change, in order. AUTOINCREMENT: ids are never reused, so stream clients can resume.
CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT    NOT NULL,
    game_id    INTEGER,
    challenge_id INTEGER,
    player_a   INTEGER,  -- the (up to two) human players concerned
    player_b   INTEGER,
    payload    TEXT    NOT NULL,  -- JSON
    created_at INTEGER NOT NULL
);
CREATE INDEX events_player_a ON events(player_a, id);
CREATE INDEX events_player_b ON events(player_b, id);

CREATE TABLE webhooks (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    url        TEXT    NOT NULL,
    secret     TEXT    NOT NULL,
    active     INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);
CREATE INDEX webhooks_player ON webhooks(player_id, active);

-- Transactional outbox: written in the same transaction as the event it delivers.
CREATE TABLE deliveries (
    id              INTEGER PRIMARY KEY,
    webhook_id      INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id        INTEGER NOT NULL REFERENCES events(id),
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    delivered_at    INTEGER,
    UNIQUE (webhook_id, event_id)
);
CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
