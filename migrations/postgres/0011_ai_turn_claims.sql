-- The AI turn an instance is thinking about (see migrations/0011_ai_turn_claims.sql).
CREATE TABLE ai_turn_claims (
    game_id       BIGINT PRIMARY KEY REFERENCES games(id),
    ply           BIGINT NOT NULL,
    claimed_by    TEXT   NOT NULL,
    claimed_until BIGINT NOT NULL
);
