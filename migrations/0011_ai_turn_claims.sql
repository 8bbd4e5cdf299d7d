-- Several instances on one database: the AI turn an instance is thinking about, so no other
-- instance thinks about it too. A claim stands until `claimed_until` (ms, the service's clock)
-- and is renewed while the AI thinks; a claim that lapsed (its instance died) or that is for
-- another ply (that turn was played) may be taken over.
CREATE TABLE ai_turn_claims (
    game_id       INTEGER PRIMARY KEY REFERENCES games(id),
    ply           INTEGER NOT NULL,
    claimed_by    TEXT    NOT NULL,
    claimed_until INTEGER NOT NULL
);
