//! One refereed game between two players: every move judged by our referee, each move's
//! think time measured, and a failure charged to the side whose player caused it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tafl_engine::{Game, Move, Rules, Side};

use crate::protocol::player::{Player, PlayerError, Verdict};

/// A game ended by a player's own referee: the player's name and its verdict.
pub type Adjudication = (String, Verdict);

/// What happened in one game.
pub struct GameRun {
    /// The game as far as it went (the opening included).
    pub game: Game,
    /// Why play stopped early, and the side whose player failed (None: unknown).
    pub failure: Option<(Option<Side>, PlayerError)>,
    pub adjudication: Option<Adjudication>,
    /// Who made each move played after the opening, and its wall time: from the request to the
    /// answer as the player's client measured it (an OpenTafl-protocol engine's excludes the
    /// host's settle pause), else the host's clock around the call.
    pub think: Vec<(Side, Duration)>,
    /// The match was stopped during the game.
    pub interrupted: bool,
}

/// One game from `opening`; an illegal move is the failure of the player who made it. The
/// game is abandoned at the first ply after `stop` is set.
pub fn play_one(
    rules: &Rules,
    opening: &[Move],
    attackers: &mut dyn Player,
    defenders: &mut dyn Player,
    max_plies: u32,
    stop: Option<&AtomicBool>,
) -> GameRun {
    let mut game = Game::new(rules.clone());
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let stopped = || stop.is_some_and(|flag| flag.load(Ordering::Relaxed));
    let mut adjudication = None;
    let mut think = Vec::new();
    let mut interrupted = false;
    let result = (|| -> Result<(), (Option<Side>, PlayerError)> {
        let at = |side: Side| move |error: PlayerError| (Some(side), error);
        attackers.start(&game).map_err(at(Side::Attackers))?;
        defenders.start(&game).map_err(at(Side::Defenders))?;
        while !game.is_over() && game.ply() < max_plies {
            if stopped() {
                interrupted = true;
                return Ok(());
            }
            let side = game.side_to_move();
            let (mover, other): (&mut dyn Player, &mut dyn Player) = match side {
                Side::Attackers => (&mut *attackers, &mut *defenders),
                Side::Defenders => (&mut *defenders, &mut *attackers),
            };
            let started = Instant::now();
            let chosen = mover.choose(&game);
            let thought = mover.last_think().unwrap_or_else(|| started.elapsed());
            think.push((side, thought));
            let mv = match chosen {
                Err(PlayerError::Resigned { engine }) => {
                    think.pop();
                    let verdict = Verdict {
                        winner: Some(side.opponent()),
                        said: format!("{side} resign"),
                    };
                    adjudication = Some((engine, verdict));
                    return Ok(());
                }
                Err(error) => {
                    think.pop();
                    return Err((Some(side), error));
                }
                Ok(mv) => mv,
            };
            if let Err(source) = game.play(mv) {
                let error = PlayerError::Illegal {
                    player: mover.name(),
                    mv,
                    source,
                };
                return Err((Some(side), error));
            }
            mover.accepted(&game).map_err(at(side))?;
            if game.is_over() {
                break;
            }
            other
                .opponent_moved(&game, mv)
                .map_err(at(side.opponent()))?;
            for (player, player_side) in [(&mut *mover, side), (&mut *other, side.opponent())] {
                if let Some(verdict) = player.verdict(&game).map_err(at(player_side))? {
                    adjudication = Some((player.name(), verdict));
                    return Ok(());
                }
            }
        }
        Ok(())
    })();
    attackers.finish(&game);
    defenders.finish(&game);
    GameRun {
        interrupted: interrupted || stopped(),
        game,
        failure: result.err(),
        adjudication,
        think,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use tafl_engine::ai::Level;

    use super::*;
    use crate::protocol::player::{MoveBudget, PlayerSpec};

    /// Plays the first legal move; resigns at its first turn, or ends the game as a draw by
    /// its own rules once `draw_at` plies are played.
    struct FakeEngine {
        resigns: bool,
        draw_at: Option<u32>,
    }

    impl Player for FakeEngine {
        fn name(&self) -> String {
            "fake".into()
        }
        fn start(&mut self, _game: &Game) -> Result<(), PlayerError> {
            Ok(())
        }
        fn opponent_moved(&mut self, _game: &Game, _mv: Move) -> Result<(), PlayerError> {
            Ok(())
        }
        fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
            if self.resigns {
                return Err(PlayerError::Resigned {
                    engine: self.name(),
                });
            }
            Ok(game.legal_moves()[0])
        }
        fn verdict(&mut self, game: &Game) -> Result<Option<Verdict>, PlayerError> {
            Ok(self.draw_at.filter(|&n| game.ply() >= n).map(|_| Verdict {
                winner: None,
                said: "draw".into(),
            }))
        }
    }

    fn level_one() -> Box<dyn Player> {
        PlayerSpec::Level(Level::from_number(1).unwrap())
            .build(&MoveBudget::default(), &PlayerSpec::Htp("fake".into()))
            .unwrap()
    }

    #[test]
    fn a_resignation_ends_the_game_for_the_other_side() {
        let rules = tafl_engine::variant("brandubh").unwrap().rules();
        let mut attackers = level_one();
        let mut defenders = FakeEngine {
            resigns: true,
            draw_at: None,
        };
        let run = play_one(&rules, &[], attackers.as_mut(), &mut defenders, 100, None);
        assert!(run.failure.is_none());
        assert_eq!(
            run.game.ply(),
            1,
            "the attackers moved, then the defenders resigned"
        );
        assert_eq!(run.think.len(), 1, "one think time per move played");
        let (engine, verdict) = run.adjudication.unwrap();
        assert_eq!(engine, "fake");
        assert_eq!(verdict.winner, Some(Side::Attackers));
    }

    #[test]
    fn an_engines_own_verdict_ends_the_game_where_it_says() {
        let rules = tafl_engine::variant("copenhagen").unwrap().rules();
        let mut attackers = FakeEngine {
            resigns: false,
            draw_at: Some(4),
        };
        let mut defenders = level_one();
        let run = play_one(&rules, &[], &mut attackers, defenders.as_mut(), 100, None);
        assert!(run.failure.is_none());
        assert!(!run.game.is_over(), "our referee plays on");
        assert_eq!(run.game.ply(), 4);
        assert_eq!(run.think.len(), 4);
        assert_eq!(run.adjudication.unwrap().1.winner, None);
    }

    #[test]
    fn a_stopped_match_abandons_the_game_before_the_next_move() {
        let rules = tafl_engine::variant("brandubh").unwrap().rules();
        let stop = AtomicBool::new(true);
        let (mut attackers, mut defenders) = (level_one(), level_one());
        let run = play_one(
            &rules,
            &[],
            attackers.as_mut(),
            defenders.as_mut(),
            100,
            Some(&stop),
        );
        assert!(run.interrupted);
        assert_eq!(run.game.ply(), 0);
    }
}
