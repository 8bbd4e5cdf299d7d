-- A bank clock whose increment shrinks in long games (issue 34): every `after_moves` moves of
-- a side its increment shrinks by `percent`, never below `minimum_increment_ms`. NULL (all
-- three): an increment that never shrinks, as every game stored before. Challenges and
-- tournaments keep their clock as JSON, which takes the new fields as it is.
ALTER TABLE games ADD COLUMN clock_shrink_after_moves INTEGER;
ALTER TABLE games ADD COLUMN clock_shrink_percent INTEGER;
ALTER TABLE games ADD COLUMN clock_minimum_increment_ms INTEGER;
