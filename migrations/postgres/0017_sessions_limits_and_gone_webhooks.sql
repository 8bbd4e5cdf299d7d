-- A player lists their browser sessions and ends them one by one: each session says how it
-- was opened (a sign-in link or a pasted API token), when it was last seen (written at most
-- once a minute) and the browser's User-Agent as it signed in. Sessions opened before this
-- version say what `opened_with_token` tells of them.
-- A sign-in link asked for with an API token remembers that token, and the session the link
-- opens records it as `opened_with_token`: revoking a stolen token ends those sessions too.
ALTER TABLE login_links ADD COLUMN created_with_token BIGINT REFERENCES api_tokens(id) ON DELETE CASCADE;
ALTER TABLE web_sessions ADD COLUMN opened_by TEXT NOT NULL DEFAULT 'sign_in_link'
    CHECK (opened_by IN ('sign_in_link', 'api_token'));
UPDATE web_sessions SET opened_by = 'api_token' WHERE opened_with_token IS NOT NULL;
ALTER TABLE web_sessions ADD COLUMN last_seen_at BIGINT;
ALTER TABLE web_sessions ADD COLUMN user_agent TEXT;

-- Limits several instances on one database share (PostgreSQL; SQLite's one instance counts in
-- memory): each hit of a limit (a failed sign-in, a registration) from a client address, at
-- its time (ms), counted over the last minute by every instance together. Rows older than the
-- minute are deleted as new ones come.
CREATE TABLE shared_limit_hits (
    kind   TEXT    NOT NULL CHECK (kind IN ('sign_in_failure', 'registration')),
    client TEXT    NOT NULL,
    at     BIGINT  NOT NULL
);
CREATE INDEX shared_limit_hits_client ON shared_limit_hits(kind, client, at);
CREATE INDEX shared_limit_hits_at ON shared_limit_hits(at);

-- A webhook whose endpoint has failed since `failing_since` (ms; null: its last delivery
-- arrived) is given up `webhooks.give_up_after_secs` later: its pending deliveries are marked
-- failed, no new ones are queued, and its listing says so (`gave_up_at`).
ALTER TABLE webhooks ADD COLUMN failing_since BIGINT;
ALTER TABLE webhooks ADD COLUMN gave_up_at BIGINT;
