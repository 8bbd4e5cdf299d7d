-- Every change to a game's row counts up its version. An instance that keeps the games it
-- moved in (so a move needs no read) writes the next move only where the version is still the
-- one it kept: a game changed meanwhile, by this instance or another, is read again.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
