//! The AI the service uses: the engine's search (`tafl_engine::ai`) at the seat's level.

use std::sync::Arc;

use tafl_engine::ai::{Level, search};
use tafl_engine::{Game, Move};

use crate::MovePicker;

/// Transposition table per search: several AI games think at once, each with its own.
const TABLE_MIB: usize = 16;

/// The engine's AI.
pub struct EngineAi;

impl MovePicker for EngineAi {
    fn pick(&self, game: &Game, level: u8) -> Option<Move> {
        let level = Level::from_number(level.clamp(Level::MIN, Level::MAX))?;
        // Seeded by the position: the weaker levels' random choices vary between games
        // yet a position always gets the same answer (reproducible after a restart).
        let limits = level
            .limits()
            .with_seed(game.position().hash())
            .with_table_mib(TABLE_MIB);
        search(game, &limits).map(|r| r.best_move)
    }

    fn max_level(&self) -> u8 {
        Level::MAX
    }
}

pub fn default_picker() -> Option<Arc<dyn MovePicker>> {
    Some(Arc::new(EngineAi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_ai_answers_a_legal_move_at_every_level() {
        let rules = tafl_engine::variant("brandubh").unwrap().rules();
        let game = Game::new(rules);
        for level in Level::MIN..=Level::MAX.min(2) {
            let mv = EngineAi.pick(&game, level).unwrap();
            assert!(game.check(mv).is_ok());
        }
        assert_eq!(EngineAi.max_level(), Level::MAX);
    }
}
