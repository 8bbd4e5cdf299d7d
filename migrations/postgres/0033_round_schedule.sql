-- Rounds at set times (issue 34): with `round_days`, round N starts no earlier than the
-- tournament's start plus (N - 1) times that many days (and never before the round before it
-- is done); without it, each round starts as soon as the one before ends.
ALTER TABLE tournaments ADD COLUMN round_days BIGINT;
