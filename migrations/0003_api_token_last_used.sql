-- When each API token was last used (ms, the service's clock): written at most once a minute
-- per token, so a busy token costs no write per request. NULL: not used since this column came.
ALTER TABLE api_tokens ADD COLUMN last_used_at INTEGER;
