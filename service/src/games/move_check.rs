//! Whether a move may be played on a game as it stands, before its text is read: seat, game
//! over, deadline, expected ply, turn, the AI's seat. Every move asks it, on the game as
//! stored, read in the writer's transaction that writes the move (`moves::decide_move`).

use tafl_engine::Side;

use crate::domain::Seat;
use crate::store::rows::GameRow;

use crate::games::game_state;
use crate::games::moves::Actor;

/// Why a move may not be played, in the order the checks are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The player has no seat in the game.
    NotInGame,
    GameOver,
    /// The game's clocks are paused (its Discord server removed the bot): no move until they
    /// run again.
    Paused,
    /// The side to move is past its deadline: the game is to be ended on time.
    OutOfTime,
    /// The move was sent for another ply than the game's.
    StalePly {
        sent: u32,
        played: u32,
    },
    /// The other side is to move.
    NotYourTurn(Side),
    /// A person moving for the AI's seat, or the AI for a person's.
    WrongSeat,
}

/// Checks `actor`'s move on `row` at `now` (milliseconds), sent for `expected_ply` if the
/// sender named one; `Ok` with the side that moves.
pub(crate) fn may_move(
    row: &GameRow,
    actor: Actor,
    expected_ply: Option<u32>,
    now: i64,
) -> Result<Side, Refusal> {
    let my_side = match actor {
        Actor::Player(p) => game_state::side_of(row, p).ok_or(Refusal::NotInGame)?,
        Actor::Ai => row.side_to_move,
    };
    if !row.status.is_active() {
        return Err(Refusal::GameOver);
    }
    if row.paused_at.is_some() {
        return Err(Refusal::Paused);
    }
    if row.deadline_at.is_some_and(|deadline| deadline <= now) {
        return Err(Refusal::OutOfTime);
    }
    if let Some(sent) = expected_ply
        && sent != row.ply
    {
        return Err(Refusal::StalePly {
            sent,
            played: row.ply,
        });
    }
    if my_side != row.side_to_move {
        return Err(Refusal::NotYourTurn(row.side_to_move));
    }
    let ai_seat = matches!(game_state::seat(row, my_side), Seat::Ai(_));
    if ai_seat != (actor == Actor::Ai) {
        return Err(Refusal::WrongSeat);
    }
    Ok(my_side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{GameStatus, PlayerId};

    const ALICE: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);
    const NOW: i64 = 1_000_000;

    /// Alice (attackers, to move at ply 4) against Bob, her deadline an hour away.
    fn game() -> GameRow {
        GameRow::sample(ALICE, BOB, NOW)
    }

    #[test]
    fn the_player_to_move_may_move_at_the_games_ply_or_without_naming_one() {
        assert_eq!(
            may_move(&game(), Actor::Player(ALICE), Some(4), NOW),
            Ok(Side::Attackers)
        );
        assert_eq!(
            may_move(&game(), Actor::Player(ALICE), None, NOW),
            Ok(Side::Attackers)
        );
    }

    #[test]
    fn each_refusal_names_what_stands_in_the_way() {
        let stranger = Actor::Player(PlayerId(99));
        assert_eq!(
            may_move(&game(), stranger, None, NOW),
            Err(Refusal::NotInGame)
        );
        let mut over = game();
        over.status = GameStatus::Finished;
        assert_eq!(
            may_move(&over, Actor::Player(ALICE), None, NOW),
            Err(Refusal::GameOver)
        );
        let mut late = game();
        late.deadline_at = Some(NOW);
        assert_eq!(
            may_move(&late, Actor::Player(ALICE), None, NOW),
            Err(Refusal::OutOfTime)
        );
        let mut paused = game();
        paused.paused_at = Some(NOW - 5);
        assert_eq!(
            may_move(&paused, Actor::Player(ALICE), None, NOW),
            Err(Refusal::Paused)
        );
        assert_eq!(
            may_move(&paused, Actor::Ai, None, NOW),
            Err(Refusal::Paused)
        );
        assert_eq!(
            may_move(&game(), Actor::Player(ALICE), Some(3), NOW),
            Err(Refusal::StalePly { sent: 3, played: 4 })
        );
        assert_eq!(
            may_move(&game(), Actor::Player(BOB), None, NOW),
            Err(Refusal::NotYourTurn(Side::Attackers))
        );
    }

    #[test]
    fn the_ai_moves_for_its_own_seat_only_and_nobody_else_moves_for_it() {
        assert_eq!(
            may_move(&game(), Actor::Ai, None, NOW),
            Err(Refusal::WrongSeat)
        );
        let mut against_ai = game();
        against_ai.attackers = Seat::Ai(3);
        against_ai.deadline_at = None;
        assert_eq!(
            may_move(&against_ai, Actor::Ai, None, NOW),
            Ok(Side::Attackers)
        );
        // Alice now holds no seat at all; Bob holds the seat not to move.
        assert_eq!(
            may_move(&against_ai, Actor::Player(BOB), None, NOW),
            Err(Refusal::NotYourTurn(Side::Attackers))
        );
    }

    #[test]
    fn a_finished_game_is_over_before_it_is_late_and_late_before_a_stale_ply() {
        let mut row = game();
        row.deadline_at = Some(NOW - 1);
        assert_eq!(
            may_move(&row, Actor::Player(ALICE), Some(1), NOW),
            Err(Refusal::OutOfTime)
        );
        row.status = GameStatus::Aborted;
        assert_eq!(
            may_move(&row, Actor::Player(ALICE), Some(1), NOW),
            Err(Refusal::GameOver)
        );
    }
}
