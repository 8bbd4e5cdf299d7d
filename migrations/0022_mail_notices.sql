-- Turn notices by mail (issue 33): who asked for them and where, the notices owed, and the
-- mails waiting to go out; and indexes for the web's public games and player search.

-- One per player who gave an address. Notices go only to a confirmed address with notices on.
CREATE TABLE mail_subscriptions (
    player_id          INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    address            TEXT NOT NULL,
    -- SHA-256 of the confirmation link's token until it is used (single use), and its end.
    confirm_hash       BLOB UNIQUE,
    confirm_expires_at INTEGER,
    confirmed_at       INTEGER,
    -- The one-click unsubscribe link's token, in every mail: it can only turn notices off.
    unsubscribe_token  TEXT NOT NULL UNIQUE,
    notices_on         BOOLEAN NOT NULL,
    -- Quiet hours in the player's day (minutes from midnight), NULL: none; and their UTC
    -- offset in minutes.
    quiet_start_min    INTEGER,
    quiet_end_min      INTEGER,
    utc_offset_min     INTEGER NOT NULL DEFAULT 0,
    -- Service clock (ms) of the player's last page, or open tab, on the web.
    last_seen_at       INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL
);

-- A notice owed: `player_id`'s turn at `ply` of `game_id` since `turn_at`, one per game (a
-- newer turn replaces it), not before `not_before` (quiet hours, the hourly allowance).
CREATE TABLE mail_turn_notices (
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,
    turn_at    INTEGER NOT NULL,
    not_before INTEGER NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX mail_turn_notices_due ON mail_turn_notices(turn_at);

-- Mails made and waiting to go out (or sent, or given up), retried with back-off.
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('confirmation', 'turns')),
    address         TEXT NOT NULL,
    subject         TEXT NOT NULL,
    -- Emptied once sent: a confirmation link is not kept.
    body            TEXT NOT NULL,
    unsubscribe_url TEXT,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'abandoned')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    done_at         INTEGER
);
CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at);
CREATE INDEX mail_outbox_player ON mail_outbox(player_id, kind, created_at);

-- The web's list of public games (`/games`): by status, public ones, most recently changed
-- first, read from the index in order instead of sorting every game.
CREATE INDEX games_public_recent ON games(status, private, updated_at, id);
-- The player search by name (`/players?q=`): a range of lowercased names (`rows/players.rs`).
CREATE INDEX players_lower_name ON players(lower(name));
