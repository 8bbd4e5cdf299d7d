//! Games: seats, status, result, clocks and deadlines.

use crate::{Conn, Dialect, Params, Row, ToSqlValue, params};

use super::*;
use crate::domain::ImportedPlayerId;

/// A seat as its two columns: the player, or the AI's level.
fn seat_columns(seat: Seat) -> (Option<PlayerId>, Option<i64>) {
    match seat {
        Seat::Player(p) => (Some(p), None),
        Seat::Ai(level) => (None, Some(i64::from(level))),
        Seat::Imported(id) => (None, Some(-id.get())),
    }
}

/// The AI's level is read as a `u8`: a stored level beyond it is corrupt data, an error,
/// never the strongest AI. A negative level is an imported game's seat, the negated id of its
/// imported player (migration 29: the CHECK that a seat is one player or one AI stays).
fn seat_from_columns(player: Option<PlayerId>, ai: Option<i64>) -> Result<Seat> {
    match (player, ai) {
        (Some(p), None) => Ok(Seat::Player(p)),
        (None, Some(level)) if level < 0 => Ok(Seat::Imported(ImportedPlayerId(-level))),
        (None, Some(level)) => u8::try_from(level)
            .map(Seat::Ai)
            .map_err(|_| StoreError::Corrupt(format!("AI level {level} is out of range"))),
        _ => Err(StoreError::Corrupt(
            "a seat is neither one player nor one AI level".into(),
        )),
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClockRow {
    pub kind: String,
    pub per_move_ms: Option<i64>,
    pub bank_ms: Option<i64>,
    pub increment_ms: Option<i64>,
    /// A bank clock's shrinking increment (all three or none).
    pub shrink_after_moves: Option<u32>,
    pub shrink_percent: Option<u32>,
    pub minimum_increment_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub variant: Option<String>,
    pub rules: String,
    pub attackers: Seat,
    pub defenders: Seat,
    pub status: GameStatus,
    pub winner: Option<Side>,
    pub result_reason: Option<ResultReason>,
    pub ply: u32,
    pub side_to_move: Side,
    pub position: String,
    pub clock: ClockRow,
    pub attackers_bank_ms: Option<i64>,
    pub defenders_bank_ms: Option<i64>,
    pub turn_started_at: i64,
    pub deadline_at: Option<i64>,
    pub reminded_ply: Option<u32>,
    pub draw_offer_by: Option<Side>,
    pub context: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// Counts for the players' ratings (set when the game starts, never changed).
    pub rated: bool,
    /// Shown only to its players (set when the game starts, never changed).
    pub private: bool,
    /// When its clocks were paused (its Discord server removed the bot); `None` while they
    /// run. A paused game takes no move and never runs out of time.
    pub paused_at: Option<i64>,
}

#[cfg(any(test, feature = "test-helpers"))]
impl GameRow {
    /// A game for tests: `attackers` to move at ply 4 against `defenders`, no clock but a
    /// deadline an hour after `now`.
    pub fn sample(attackers: PlayerId, defenders: PlayerId, now: i64) -> GameRow {
        GameRow {
            id: GameId(7),
            variant: Some("copenhagen".into()),
            rules: String::new(),
            attackers: Seat::Player(attackers),
            defenders: Seat::Player(defenders),
            status: GameStatus::Active,
            winner: None,
            result_reason: None,
            ply: 4,
            side_to_move: Side::Attackers,
            position: String::new(),
            clock: ClockRow {
                kind: "unlimited".into(),
                ..ClockRow::default()
            },
            attackers_bank_ms: None,
            defenders_bank_ms: None,
            turn_started_at: now - 10,
            deadline_at: Some(now + 3_600_000),
            reminded_ply: None,
            draw_offer_by: None,
            context: None,
            created_at: 0,
            updated_at: 0,
            finished_at: None,
            rated: false,
            private: false,
            paused_at: None,
        }
    }
}

const GAME_COLS: &str = "id, variant, rules, attackers_player, attackers_ai_level, \
    defenders_player, defenders_ai_level, status, winner, result_reason, ply, side_to_move, \
    position, clock_kind, clock_per_move_ms, clock_bank_ms, clock_increment_ms, \
    attackers_bank_ms, defenders_bank_ms, turn_started_at, deadline_at, reminded_ply, \
    draw_offer_by, context, created_at, updated_at, finished_at, rated, private, paused_at, \
    clock_shrink_after_moves, clock_shrink_percent, clock_minimum_increment_ms";

fn game_from(r: &Row<'_>) -> Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        rules: r.get(2)?,
        attackers: seat_from_columns(r.get(3)?, r.get(4)?)?,
        defenders: seat_from_columns(r.get(5)?, r.get(6)?)?,
        status: r.get(7)?,
        winner: r.get::<Option<SideColumn>>(8)?.map(|s| s.0),
        result_reason: r.get(9)?,
        ply: r.get(10)?,
        side_to_move: r.get::<SideColumn>(11)?.0,
        position: r.get(12)?,
        clock: ClockRow {
            kind: r.get(13)?,
            per_move_ms: r.get(14)?,
            bank_ms: r.get(15)?,
            increment_ms: r.get(16)?,
            shrink_after_moves: r.get(30)?,
            shrink_percent: r.get(31)?,
            minimum_increment_ms: r.get(32)?,
        },
        attackers_bank_ms: r.get(17)?,
        defenders_bank_ms: r.get(18)?,
        turn_started_at: r.get(19)?,
        deadline_at: r.get(20)?,
        reminded_ply: r.get(21)?,
        draw_offer_by: r.get::<Option<SideColumn>>(22)?.map(|s| s.0),
        context: r.get(23)?,
        created_at: r.get(24)?,
        updated_at: r.get(25)?,
        finished_at: r.get(26)?,
        rated: r.get(27)?,
        private: r.get(28)?,
        paused_at: r.get(29)?,
    })
}

/// Inserts `game` (its id is ignored) and returns the new id.
pub fn insert_game(c: &Conn<'_>, g: &GameRow) -> Result<GameId> {
    let (ap, aa) = seat_columns(g.attackers);
    let (dp, da) = seat_columns(g.defenders);
    let id = c.insert_returning_id(
        "INSERT INTO games (variant, rules, attackers_player, attackers_ai_level, \
         defenders_player, defenders_ai_level, status, winner, result_reason, ply, side_to_move, \
         position, clock_kind, clock_per_move_ms, clock_bank_ms, clock_increment_ms, \
         attackers_bank_ms, defenders_bank_ms, turn_started_at, deadline_at, reminded_ply, \
         draw_offer_by, context, created_at, updated_at, finished_at, rated, private) VALUES \
         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, \
          ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28) RETURNING id",
        params![
            g.variant,
            g.rules,
            ap,
            aa,
            dp,
            da,
            g.status,
            g.winner.map(SideColumn),
            g.result_reason,
            g.ply,
            SideColumn(g.side_to_move),
            g.position,
            g.clock.kind,
            g.clock.per_move_ms,
            g.clock.bank_ms,
            g.clock.increment_ms,
            g.attackers_bank_ms,
            g.defenders_bank_ms,
            g.turn_started_at,
            g.deadline_at,
            g.reminded_ply,
            g.draw_offer_by.map(SideColumn),
            g.context,
            g.created_at,
            g.updated_at,
            g.finished_at,
            g.rated,
            g.private,
        ],
    )?;
    // Written apart, and only when there is one, so the rows above still write a database
    // of an older schema (the migration tests' old data).
    if g.clock.shrink_after_moves.is_some() {
        c.execute(
            "UPDATE games SET clock_shrink_after_moves = ?2, clock_shrink_percent = ?3, \
             clock_minimum_increment_ms = ?4 WHERE id = ?1",
            params![
                id,
                g.clock.shrink_after_moves,
                g.clock.shrink_percent,
                g.clock.minimum_increment_ms
            ],
        )?;
    }
    Ok(GameId(id))
}

/// The statement that writes a game's mutable state back; its placeholders are
/// [`with_game_state`]'s. A macro, so the statement that also inserts a move can be one
/// literal with it.
macro_rules! update_game_sql {
    () => {
        "UPDATE games SET status = ?2, winner = ?3, result_reason = ?4, ply = ?5, \
         side_to_move = ?6, position = ?7, attackers_bank_ms = ?8, defenders_bank_ms = ?9, \
         turn_started_at = ?10, deadline_at = ?11, reminded_ply = ?12, draw_offer_by = ?13, \
         updated_at = ?14, finished_at = ?15 WHERE id = ?1"
    };
}

/// Runs `run` with game `g`'s state as `update_game_sql!`'s placeholders ?1 to ?15 take it.
fn with_game_state<T>(g: &GameRow, run: impl FnOnce(Params<'_>) -> T) -> T {
    run(params![
        g.id,
        g.status,
        g.winner.map(SideColumn),
        g.result_reason,
        g.ply,
        SideColumn(g.side_to_move),
        g.position,
        g.attackers_bank_ms,
        g.defenders_bank_ms,
        g.turn_started_at,
        g.deadline_at,
        g.reminded_ply,
        g.draw_offer_by.map(SideColumn),
        g.updated_at,
        g.finished_at,
    ])
}

/// Writes the mutable state of `g` back.
pub fn update_game(c: &Conn<'_>, g: &GameRow) -> Result<()> {
    with_game_state(g, |state| c.execute(update_game_sql!(), state))?;
    Ok(())
}

/// A game about to be moved in, read with what the move also needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct GameForMove {
    pub game: GameRow,
    /// The Discord user of each seat (attackers, defenders) who asked for a direct message on
    /// their turn (`None`: the AI, no Discord account, or not asked).
    pub dm_users: [Option<u64>; 2],
    /// The answer stored under the move's idempotency key, if any: the hash of the request it
    /// answered, and the answer.
    pub stored_answer: Option<(Vec<u8>, String)>,
    /// The lines queued at the game's ply (by the player waiting for this move), if any.
    pub conditional: Option<ConditionalMovesRow>,
    /// Whether the player to move is on vacation (a move of theirs ends it).
    pub mover_on_vacation: bool,
}

/// Game `id` as a move needs it: one query where a move would otherwise read the stored
/// answer of its idempotency key (`key`: the player and the key), the game, then the player
/// to move.
pub fn game_for_move(
    c: &Conn<'_>,
    id: GameId,
    key: Option<(PlayerId, &str)>,
) -> Result<Option<GameForMove>> {
    let columns = GAME_COLS
        .split(',')
        .map(|col| format!("g.{}", col.trim()))
        .collect::<Vec<_>>()
        .join(", ");
    let count = GAME_COLS.split(',').count();
    let stored = |column: &str| {
        format!(
            "(SELECT k.{column} FROM idempotency_keys k \
             WHERE k.player_id = ?2 AND k.key = CAST(?3 AS TEXT))"
        )
    };
    // Looked up by key: as a join, PostgreSQL's planner scans `players` for the few who
    // asked for direct messages rather than looking the two seats up.
    let dm_user = |seat: &str| {
        format!(
            "(SELECT p.discord_user_id FROM players p \
             WHERE p.id = {seat} AND p.discord_dm = TRUE)"
        )
    };
    // Only the player waiting for the move at `g.ply` can have queued lines at that ply (a
    // player queues them on the opponent's turn), so at most one row matches.
    let queued = |column: &str| {
        format!(
            "(SELECT cm.{column} FROM conditional_moves cm \
             WHERE cm.game_id = g.id AND cm.ply = g.ply LIMIT 1)"
        )
    };
    let on_vacation = "(SELECT COUNT(*) FROM vacations v WHERE v.ended_at IS NULL AND \
         v.player_id = CASE WHEN g.side_to_move = 'attackers' THEN g.attackers_player \
         ELSE g.defenders_player END)";
    c.query_opt(
        &format!(
            "SELECT {columns}, {}, {}, {}, {}, {}, {}, {on_vacation} FROM games g WHERE g.id = ?1",
            dm_user("g.attackers_player"),
            dm_user("g.defenders_player"),
            stored("request_hash"),
            stored("response"),
            queued("player_id"),
            queued("lines"),
        ),
        params![id, key.map(|(player, _)| player), key.map(|(_, key)| key)],
        |r| {
            let user = |i: usize| -> Result<Option<u64>> {
                Ok(r.get::<Option<i64>>(i)?.map(|u| u as u64))
            };
            let hash: Option<Vec<u8>> = r.get(count + 2)?;
            let answer: Option<String> = r.get(count + 3)?;
            let queued_by: Option<PlayerId> = r.get(count + 4)?;
            let queued_lines: Option<String> = r.get(count + 5)?;
            let vacations: i64 = r.get(count + 6)?;
            let game = game_from(r)?;
            let conditional = match queued_by.zip(queued_lines) {
                Some((player_id, lines)) => Some(ConditionalMovesRow {
                    game_id: game.id,
                    player_id,
                    ply: game.ply,
                    lines: super::conditional_moves::lines_from_json(&lines)?,
                }),
                None => None,
            };
            Ok(GameForMove {
                game,
                dm_users: [user(count)?, user(count + 1)?],
                stored_answer: hash.zip(answer),
                conditional,
                mover_on_vacation: vacations > 0,
            })
        },
    )
}

/// Writes move `m` of game `g` and the game's new state: one statement on PostgreSQL, sent
/// with the job's next one (round trips saved on every move), two on SQLite.
pub fn insert_move_and_update_game(c: &Conn<'_>, m: &MoveRow, g: &GameRow) -> Result<()> {
    if c.dialect() != Dialect::Postgres {
        super::insert_move(c, g.id, m)?;
        return update_game(c, g);
    }
    let captures =
        serde_json::to_string(&m.captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let hash = m.position_hash as i64;
    let side = SideColumn(m.side);
    let the_move = params![
        m.ply,
        side,
        m.notation,
        m.mv,
        captures,
        hash,
        m.played_by,
        m.played_at
    ];
    with_game_state(g, |state| {
        let all: Vec<&dyn ToSqlValue> = state.iter().chain(the_move).copied().collect();
        c.execute_pipelined(
            concat!(
                "WITH m AS (INSERT INTO moves (game_id, ply, side, notation, mv, captures, \
                 position_hash, played_by, played_at) \
                 VALUES (?1, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)) ",
                update_game_sql!()
            ),
            &all,
        )
    })
}

pub fn game(c: &Conn<'_>, id: GameId) -> Result<Option<GameRow>> {
    c.query_opt(
        &format!("SELECT {GAME_COLS} FROM games WHERE id = ?1"),
        params![id],
        game_from,
    )
}

/// Games of `player`: every active one, then the `finished_limit` most recently finished.
pub fn games_of_player(
    c: &Conn<'_>,
    player: PlayerId,
    finished_limit: u32,
) -> Result<Vec<GameRow>> {
    let mut out: Vec<GameRow> = c.query_all(
        &format!(
            "SELECT {GAME_COLS} FROM games WHERE status = 'active' AND \
             (attackers_player = ?1 OR defenders_player = ?1)"
        ),
        params![player],
        game_from,
    )?;
    let finished: Vec<GameRow> = c.query_all(
        &format!(
            "SELECT {GAME_COLS} FROM games WHERE status <> 'active' AND \
             (attackers_player = ?1 OR defenders_player = ?1) \
             ORDER BY updated_at DESC, id DESC LIMIT ?2"
        ),
        params![player, finished_limit],
        game_from,
    )?;
    out.extend(finished);
    Ok(out)
}

/// Active games started in a front end's `context` (e.g. one Discord channel).
pub fn active_games_in_context(c: &Conn<'_>, context: &str) -> Result<Vec<GameRow>> {
    c.query_all(
        &format!(
            "SELECT {GAME_COLS} FROM games WHERE context = ?1 AND status = 'active' ORDER BY id"
        ),
        params![context],
        game_from,
    )
}

/// Active games whose deadline is at or before `now`.
pub fn games_past_deadline(c: &Conn<'_>, now: i64) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT id FROM games WHERE status = 'active' AND paused_at IS NULL AND deadline_at IS NOT NULL \
             AND deadline_at <= ?1 ORDER BY deadline_at",
        params![now],
        |r| r.get(0),
    )
}

/// Active games whose deadline falls within `before_ms` of `now` and whose reminder for
/// the current ply has not been sent.
pub fn games_needing_reminder(c: &Conn<'_>, now: i64, before_ms: i64) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT id FROM games WHERE status = 'active' AND paused_at IS NULL AND deadline_at IS NOT NULL \
             AND deadline_at > ?1 AND deadline_at <= CAST(?1 AS BIGINT) + ?2 \
             AND (reminded_ply IS NULL OR reminded_ply <> ply) ORDER BY deadline_at",
        params![now, before_ms],
        |r| r.get(0),
    )
}

/// Active games where the AI is to move.
pub fn games_awaiting_ai(c: &Conn<'_>) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT id FROM games WHERE status = 'active' AND paused_at IS NULL AND \
             ((side_to_move = 'attackers' AND attackers_ai_level IS NOT NULL) OR \
              (side_to_move = 'defenders' AND defenders_ai_level IS NOT NULL)) ORDER BY id",
        params![],
        |r| r.get(0),
    )
}

/// A player's finished games in one variant (`None`: custom rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultsRow {
    pub variant: Option<String>,
    pub played: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A row of variant, played, wins, losses, draws (as [`results_by_variant`] selects them).
pub(super) fn results_from(r: &Row<'_>) -> Result<ResultsRow> {
    Ok(ResultsRow {
        variant: r.get(0)?,
        played: r.get(1)?,
        wins: r.get(2)?,
        losses: r.get(3)?,
        draws: r.get(4)?,
    })
}

/// A player's finished games per variant, by variant. Each count is a `SUM` of `CASE ... THEN
/// 1 ELSE 0`: against the AI one side's player is NULL, and the `CASE` turns that NULL into a
/// 0 (a NULL in a sum would make the whole sum NULL; PostgreSQL cannot sum booleans).
/// With `with_private` false, only public games: what others may read of the player.
pub fn results_by_variant(
    c: &Conn<'_>,
    player: PlayerId,
    with_private: bool,
) -> Result<Vec<ResultsRow>> {
    let public_only = if with_private {
        ""
    } else {
        "AND private = FALSE "
    };
    c.query_all(
        &format!(
            "SELECT variant, COUNT(*), \
         SUM(CASE WHEN (attackers_player = ?1 AND winner = 'attackers') OR \
             (defenders_player = ?1 AND winner = 'defenders') THEN 1 ELSE 0 END), \
         SUM(CASE WHEN (attackers_player = ?1 AND winner = 'defenders') OR \
             (defenders_player = ?1 AND winner = 'attackers') THEN 1 ELSE 0 END), \
         SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) \
         FROM games WHERE status = 'finished' AND (attackers_player = ?1 OR defenders_player = ?1) \
         {public_only}GROUP BY variant ORDER BY variant"
        ),
        params![player],
        results_from,
    )
}

/// The active games of `player`, most recently changed first.
pub fn active_games_of(c: &Conn<'_>, player: PlayerId) -> Result<Vec<GameRow>> {
    c.query_all(
        &format!(
            "SELECT {GAME_COLS} FROM games WHERE status = 'active' AND \
         (attackers_player = ?1 OR defenders_player = ?1) ORDER BY updated_at DESC, id DESC"
        ),
        params![player],
        game_from,
    )
}

/// Which of a player's games to list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFilter {
    pub status: Option<GameStatus>,
    pub variant: Option<String>,
    /// Private games are listed only when this player plays in them.
    pub viewer: Option<PlayerId>,
}

/// A page of `player`'s games matching `filter`, the most recently finished (or changed, for
/// active ones) first: `limit` from `offset`.
pub fn games_of(
    c: &Conn<'_>,
    player: PlayerId,
    filter: &GameFilter,
    limit: u32,
    offset: u64,
) -> Result<Vec<GameRow>> {
    c.query_all(
        &format!(
            "SELECT {GAME_COLS} FROM games WHERE (attackers_player = ?1 OR defenders_player = ?1) \
         AND (CAST(?2 AS TEXT) IS NULL OR status = ?2) AND (CAST(?3 AS TEXT) IS NULL OR variant = ?3) \
         AND (private = FALSE OR attackers_player = ?4 OR defenders_player = ?4) \
         ORDER BY COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ?5 OFFSET ?6"
        ),
        params![
            player,
            filter.status,
            filter.variant,
            filter.viewer,
            limit,
            offset as i64
        ],
        game_from,
    )
}

/// Ids of `player`'s finished public games after `after`, in id order (an export in pages).
pub fn finished_public_games_of(
    c: &Conn<'_>,
    player: PlayerId,
    after: GameId,
    limit: u32,
) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT id FROM games WHERE (attackers_player = ?1 OR defenders_player = ?1) \
         AND status = 'finished' AND private = FALSE AND id > ?2 ORDER BY id LIMIT ?3",
        params![player, after, limit],
        |r| r.get(0),
    )
}

/// Public games with status `status`, the most recently changed first, `limit` at most: the
/// web client's list of games to watch.
pub fn public_games(c: &Conn<'_>, status: GameStatus, limit: u32) -> Result<Vec<GameRow>> {
    c.query_all(
        &format!("SELECT {GAME_COLS} FROM games {PUBLIC_GAMES_ORDER}"),
        params![status, limit],
        game_from,
    )
}

/// Which games [`public_games`] lists, in its order: read in that order from the index
/// `games_public_recent` (migration 21; `store::tests_search_indexes` checks the plan).
pub(crate) const PUBLIC_GAMES_ORDER: &str = "WHERE status = ?1 AND private = FALSE \
     ORDER BY updated_at DESC, id DESC LIMIT ?2";

/// Whether `player` has a finished game (as either side, against anyone).
pub fn has_finished_game(c: &Conn<'_>, player: PlayerId) -> Result<bool> {
    let found: Option<GameId> = c.query_opt(
        "SELECT id FROM games WHERE status = 'finished' AND \
         (attackers_player = ?1 OR defenders_player = ?1) LIMIT 1",
        params![player],
        |r| r.get(0),
    )?;
    Ok(found.is_some())
}

/// How many games against the AI `player` has going.
pub fn active_ai_games_of(c: &Conn<'_>, player: PlayerId) -> Result<usize> {
    let n: i64 = c.query_one(
        "SELECT COUNT(*) FROM games WHERE status = 'active' AND \
         ((attackers_player = ?1 AND defenders_ai_level IS NOT NULL) OR \
          (defenders_player = ?1 AND attackers_ai_level IS NOT NULL))",
        params![player],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}
