-- The web client's sign-in: one-time sign-in links and browser sessions. Both are stored as
-- the SHA-256 of their secret (the secret itself is shown once, in the link or the cookie).

-- A sign-in link: good once (used_at set when it is redeemed), until expires_at (ms).
CREATE TABLE login_links (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    token_hash BLOB    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX login_links_player ON login_links(player_id);

-- A browser session: the cookie's hash, and the CSRF token every state-changing request of
-- the session must carry. Signing out deletes the row.
CREATE TABLE web_sessions (
    id           INTEGER PRIMARY KEY,
    player_id    INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    session_hash BLOB    NOT NULL UNIQUE,
    csrf_token   TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX web_sessions_player ON web_sessions(player_id);
