-- Every player has a handle: unique, compared and stored lowercased (see domain/handle.rs for
-- the rule), apart from the display name in `name`. Existing players get one derived from their
-- name when this migration runs (its Rust hook, in store/migrations.rs: SQLite cannot apply the
-- rule itself); a UNIQUE index allows the NULLs the hook then replaces.
ALTER TABLE players ADD COLUMN handle TEXT;
CREATE UNIQUE INDEX players_handle ON players(handle);
