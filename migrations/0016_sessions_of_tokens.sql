-- A browser session opened by pasting an API token ends when that token is revoked: a stolen
-- token, once revoked, leaves no session behind.
ALTER TABLE web_sessions ADD COLUMN opened_with_token INTEGER REFERENCES api_tokens(id) ON DELETE CASCADE;
