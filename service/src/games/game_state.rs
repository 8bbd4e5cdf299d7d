//! A stored game as the engine sees it (rebuilt from its moves, or taken from a cache keyed
//! by ply), and the views built from it.

use std::sync::Mutex;

use tafl_engine::{Game, Move, Piece, Position, Rules, Side, Square, Warning};

use crate::domain::{GameId, PlayerId, Seat};
use crate::store::Conn;
use crate::store::rows::{self, GameRow, MoveRow};

use crate::views::{CapturedView, GameSummary, GameView, ResultView, SeatView, WarningView};
use crate::{ClockSpec, Missing, Result, ServiceError};

/// Engine games by id, each valid only for the ply it was stored with. Bounded: past its
/// capacity the games least worth keeping (S3-FIFO: seen once, long ago) make room, so a
/// server with more active games than the capacity keeps its busy games cached.
pub(crate) struct EngineCache {
    games: Mutex<quick_cache::unsync::Cache<GameId, Game>>,
}

impl EngineCache {
    pub fn new(capacity: usize) -> EngineCache {
        EngineCache {
            games: Mutex::new(quick_cache::unsync::Cache::new(capacity.max(1))),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, quick_cache::unsync::Cache<GameId, Game>> {
        // A cache of copies: whatever a panic elsewhere left in it is still a valid game.
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, id: GameId, ply: u32) -> Option<Game> {
        self.lock().get(&id).filter(|g| g.ply() == ply).cloned()
    }

    /// Takes the game out (a move changes it; it goes back once the move commits): a game's
    /// history is long, and copying it cost a move more than the move itself.
    fn take(&self, id: GameId, ply: u32) -> Option<Game> {
        let mut games = self.lock();
        if games.peek(&id).is_some_and(|g| g.ply() == ply) {
            games.remove(&id).map(|(_, game)| game)
        } else {
            None
        }
    }

    pub fn put(&self, id: GameId, game: Game) {
        self.lock().insert(id, game);
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }
}

pub(crate) fn parse_rules(text: &str) -> Result<Rules> {
    Rules::from_opentafl(text)
        .map_err(|e| ServiceError::Invalid(format!("the rules string is not valid: {e}")))
}

/// The engine game of `row`, at `row.ply`.
pub(crate) fn engine_game(c: &Conn<'_>, cache: &EngineCache, row: &GameRow) -> Result<Game> {
    if let Some(game) = cache.get(row.id, row.ply) {
        return Ok(game);
    }
    let moves = rows::moves(c, row.id)?;
    let game = replay(row, &moves, None)?;
    cache.put(row.id, game.clone());
    Ok(game)
}

/// The engine game of `row`, at `row.ply`, taken out of the cache (see [`EngineCache::take`]):
/// for a move, which puts it back once committed.
pub(crate) fn engine_game_to_move(
    c: &Conn<'_>,
    cache: &EngineCache,
    row: &GameRow,
) -> Result<Game> {
    match cache.take(row.id, row.ply) {
        Some(game) => Ok(game),
        None => replay(row, &rows::moves(c, row.id)?, None),
    }
}

/// Replays the first `upto` (or all) stored moves of a game.
pub fn replay(row: &GameRow, moves: &[MoveRow], upto: Option<u32>) -> Result<Game> {
    let rules = parse_rules(&row.rules)?;
    let dim = rules.dim();
    let mut game = Game::new(rules);
    for m in moves.iter().take(upto.map_or(usize::MAX, |n| n as usize)) {
        let mv = Move::parse(&m.mv, dim).map_err(|e| {
            ServiceError::internal(format!(
                "game {} ply {}: stored move unreadable: {e}",
                row.id, m.ply
            ))
        })?;
        game.play(mv).map_err(|e| {
            ServiceError::internal(format!(
                "game {} ply {}: stored move refused: {e}",
                row.id, m.ply
            ))
        })?;
    }
    Ok(game)
}

pub(crate) fn board_rows(position: &Position) -> Vec<String> {
    let dim = position.dim();
    (0..dim)
        .rev()
        .map(|rank| {
            (0..dim)
                .map(|file| match position.piece_at(Square::new(file, rank)) {
                    None => '.',
                    Some(Piece::Attacker) => 't',
                    Some(Piece::Defender) => 'T',
                    Some(Piece::King) => 'K',
                })
                .collect()
        })
        .collect()
}

pub(crate) fn warning_view(w: &Warning) -> WarningView {
    WarningView {
        kind: w.kind,
        paths: w
            .paths
            .iter()
            .map(|p| p.iter().map(ToString::to_string).collect())
            .collect(),
    }
}

pub(crate) fn result_view(row: &GameRow) -> Option<ResultView> {
    if row.status.is_active() {
        return None;
    }
    row.result_reason.map(|reason| ResultView {
        winner: row.winner,
        reason,
    })
}

/// The side `player` plays in `row`, if any.
pub(crate) fn side_of(row: &GameRow, player: PlayerId) -> Option<Side> {
    if row.attackers == Seat::Player(player) {
        Some(Side::Attackers)
    } else if row.defenders == Seat::Player(player) {
        Some(Side::Defenders)
    } else {
        None
    }
}

pub fn seat(row: &GameRow, side: Side) -> Seat {
    match side {
        Side::Attackers => row.attackers,
        Side::Defenders => row.defenders,
    }
}

/// The human players of a game (for event audiences).
pub(crate) fn humans(row: &GameRow) -> Vec<PlayerId> {
    [row.attackers.player(), row.defenders.player()]
        .into_iter()
        .flatten()
        .collect()
}

pub(crate) fn seat_view(c: &Conn<'_>, seat: Seat) -> Result<SeatView> {
    Ok(match seat {
        Seat::Player(id) => {
            let p = rows::player(c, id)?;
            SeatView {
                player_id: Some(id),
                handle: p.as_ref().map(|p| p.handle.clone()),
                discord_user_id: p.as_ref().and_then(|p| p.discord_user_id),
                name: p.map_or_else(|| format!("player {id}"), |p| p.name),
                ai_level: None,
            }
        }
        // The level's handle once it is rated (a link to its rating page); never a player id,
        // which would read as a person's seat.
        Seat::Ai(level) => SeatView {
            player_id: None,
            handle: match rows::ai_player_of_level(c, level)? {
                Some(player) => rows::player(c, player)?.map(|p| p.handle),
                None => None,
            },
            discord_user_id: None,
            name: format!("taflbot AI (level {level})"),
            ai_level: Some(level),
        },
        // A name from an imported record: no account, so no id, handle or Discord user.
        Seat::Imported(id) => SeatView {
            player_id: None,
            handle: None,
            discord_user_id: None,
            name: rows::imported_player_name(c, id)?
                .unwrap_or_else(|| format!("imported player {id}")),
            ai_level: None,
        },
    })
}

fn captured(moves: &[MoveRow]) -> CapturedView {
    let mut view = CapturedView::default();
    for m in moves {
        let n = m.captures.len() as u32;
        if m.side == Side::Attackers {
            view.defenders += n;
        } else {
            view.attackers += n;
        }
    }
    view
}

pub fn game_view(
    c: &Conn<'_>,
    cache: &EngineCache,
    row: &GameRow,
    viewer: Option<PlayerId>,
) -> Result<GameView> {
    let game = engine_game(c, cache, row)?;
    let moves = rows::moves(c, row.id)?;
    let active = row.status.is_active();
    let your_side = viewer.and_then(|p| side_of(row, p));
    Ok(GameView {
        id: row.id,
        variant: row.variant.clone(),
        rules: row.rules.clone(),
        dim: game.rules().dim(),
        attackers: seat_view(c, row.attackers)?,
        defenders: seat_view(c, row.defenders)?,
        status: row.status,
        result: result_view(row),
        ply: row.ply,
        side_to_move: active.then_some(row.side_to_move),
        your_side,
        your_turn: active && your_side == Some(row.side_to_move),
        position: game.position().to_opentafl(),
        board: board_rows(game.position()),
        captured: captured(&moves),
        moves: moves.into_iter().map(Into::into).collect(),
        warning: game.warning().as_ref().map(warning_view),
        clock: ClockSpec::from_row(&row.clock),
        deadline_at: row.deadline_at,
        paused_at: row.paused_at,
        vacation_until: crate::vacation::clocks::vacation_of_player_to_move(c, row)?,
        attackers_bank_ms: row.attackers_bank_ms,
        defenders_bank_ms: row.defenders_bank_ms,
        draw_offer_by: row.draw_offer_by,
        context: row.context.clone(),
        created_at: row.created_at,
        updated_at: row.updated_at,
        rated: row.rated,
        private: row.private,
        ratings: crate::ratings::glicko::ratings_of_game(c, row)?,
    })
}

pub(crate) fn game_summary(
    c: &Conn<'_>,
    row: &GameRow,
    viewer: Option<PlayerId>,
) -> Result<GameSummary> {
    let active = row.status.is_active();
    let your_side = viewer.and_then(|p| side_of(row, p));
    Ok(GameSummary {
        id: row.id,
        variant: row.variant.clone(),
        attackers: seat_view(c, row.attackers)?,
        defenders: seat_view(c, row.defenders)?,
        status: row.status,
        result: result_view(row),
        ply: row.ply,
        side_to_move: active.then_some(row.side_to_move),
        your_side,
        your_turn: active && your_side == Some(row.side_to_move),
        deadline_at: row.deadline_at,
        context: row.context.clone(),
        updated_at: row.updated_at,
        rated: row.rated,
        private: row.private,
    })
}

/// Whether `viewer` (nobody in particular: `None`) may see `row`: anyone a public game, only
/// its players a private one.
pub(crate) fn visible_to(row: &GameRow, viewer: Option<PlayerId>) -> bool {
    !row.private || viewer.is_some_and(|p| side_of(row, p).is_some())
}

/// What someone who does not play in `row` is told when they try to act in it: a private game
/// is not found (as for reading it: its existence is not told), a public one is not theirs.
pub(crate) fn not_a_player(row: &GameRow) -> ServiceError {
    if row.private {
        ServiceError::NotFound(Missing::Game(row.id))
    } else {
        ServiceError::Forbidden(format!("you do not play in game {}", row.id))
    }
}

/// Loads a game `viewer` may see, or says it does not exist (a private game is not found by
/// anyone else: its existence is not told either).
pub(crate) fn load_visible(c: &Conn<'_>, id: GameId, viewer: Option<PlayerId>) -> Result<GameRow> {
    let row = load(c, id)?;
    if visible_to(&row, viewer) {
        Ok(row)
    } else {
        Err(ServiceError::NotFound(Missing::Game(id)))
    }
}

/// Loads a game row or says it does not exist.
pub fn load(c: &Conn<'_>, id: GameId) -> Result<GameRow> {
    rows::game(c, id)?.ok_or_else(|| ServiceError::NotFound(Missing::Game(id)))
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    fn game() -> Game {
        Game::new(tafl_engine::variant("brandubh").unwrap().rules())
    }

    #[test]
    fn a_full_cache_keeps_serving_its_busy_games() {
        let cache = EngineCache::new(100);
        let busy: Vec<GameId> = (0..20).map(GameId).collect();
        for id in &busy {
            cache.put(*id, game());
        }
        for round in 0..50 {
            // The busy games are read again and again...
            for id in &busy {
                assert!(
                    cache.get(*id, 0).is_some(),
                    "busy game {id} dropped in round {round}"
                );
            }
            // ...while many games are seen once each, far past the capacity.
            for i in 0..40 {
                cache.put(GameId(1_000 + round * 40 + i), game());
            }
        }
        assert!(cache.len() <= 100, "bounded: {} games", cache.len());
    }

    #[test]
    fn a_game_is_only_served_at_the_ply_it_was_stored_with_and_taken_once() {
        let cache = EngineCache::new(10);
        cache.put(GameId(1), game());
        assert!(cache.get(GameId(1), 1).is_none());
        assert!(cache.take(GameId(1), 0).is_some());
        assert!(cache.take(GameId(1), 0).is_none(), "taken out");
    }
}
