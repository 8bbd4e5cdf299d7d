-- The AI levels as rated players (issue 34): each level that has played a rated game has a
-- player row, made on first use (a free handle `taflbot-ai-N`), whose ratings per variant come
-- from its rated games against people. The row never signs in (no Discord account, no sign-in
-- link, so no token); this table is what marks it as the AI.
CREATE TABLE ai_players (
    level     BIGINT PRIMARY KEY,
    player_id BIGINT NOT NULL UNIQUE REFERENCES players(id)
);
