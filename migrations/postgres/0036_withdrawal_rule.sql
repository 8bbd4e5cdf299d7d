-- A tournament's withdrawal rule (issue 34), chosen by its organiser: `forfeit` (the results
-- played stand, the later pairings are won by the opponents), `annul` (none of the player's
-- games count for anyone), `annul_under_half` (annul when the player had finished fewer than
-- half of their scheduled games when they withdrew).
ALTER TABLE tournaments ADD COLUMN withdrawal TEXT NOT NULL DEFAULT 'forfeit'
    CHECK (withdrawal IN ('forfeit', 'annul', 'annul_under_half'));
-- Decided once, when the player withdraws (so later results never change it): whether their
-- games are annulled.
ALTER TABLE tournament_players ADD COLUMN games_annulled BOOLEAN NOT NULL DEFAULT FALSE;
