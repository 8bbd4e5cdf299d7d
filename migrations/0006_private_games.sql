-- A game is public unless its creator asked for a private one: anyone may read a public game
-- (its view, board, record and event stream) without a token; a private one shows only to its
-- players. Set at the challenge, copied to its game, never changed.
ALTER TABLE challenges ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
-- A game's event stream reads its events in order.
CREATE INDEX events_game ON events(game_id, id);
