-- IDENTIFY pacing shared by every instance of one bot (issue 31): Discord allows one gateway
-- session start per 5 s in each max_concurrency bucket (shard_id % max_concurrency) for the
-- whole application, so instances on one PostgreSQL database take their turns from here (see
-- bot/src/service/discord/identify_turns.rs). SQLite (one instance) paces in memory and leaves
-- the table empty.

-- When each bucket's next IDENTIFY may go (ms since the epoch, the instances' wall clock): a
-- shard claims the turn at or after it and moves it one spacing on, in one statement, so an
-- instance that dies after its claim only wastes its turn.
CREATE TABLE discord_identify_turns (
    bucket  INTEGER PRIMARY KEY,
    next_at INTEGER NOT NULL
);
