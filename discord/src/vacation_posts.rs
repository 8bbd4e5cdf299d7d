//! The line in a game's channel when one of its players goes on vacation or comes back, so the
//! opponent knows why the clock stands still. It pings nobody: the opponent has nothing to do.

use super::posts::{Post, discord_time, seat_label};
use crate::service::{GameView, SeatView, VacationEnded, VacationStarted};

/// The seat of `player` in `view`, if they play in it.
fn seat_of_player(view: &GameView, player: crate::domain::PlayerId) -> Option<&SeatView> {
    [&view.attackers, &view.defenders]
        .into_iter()
        .find(|seat| seat.player_id == Some(player))
}

pub fn started(view: &GameView, started: &VacationStarted) -> Option<Post> {
    let who = seat_label(seat_of_player(view, started.player)?);
    let game = view.id;
    let text = if started.automatic {
        format!(
            "{who} ran out of time in game #{game}, so a vacation day of theirs was spent: their \
             deadline moved by a day{}.",
            deadline(started.deadline_at)
        )
    } else {
        format!(
            "{who} is on vacation until {}: their clock in game #{game} stands still until they \
             are back.",
            discord_time(started.until)
        )
    };
    Some(Post::text(text, Vec::new()))
}

pub fn ended(view: &GameView, ended: &VacationEnded) -> Option<Post> {
    let who = seat_label(seat_of_player(view, ended.player)?);
    Some(Post::text(
        format!(
            "{who} is back from vacation: the clocks of game #{} run again{}.",
            view.id,
            deadline(ended.deadline_at)
        ),
        Vec::new(),
    ))
}

fn deadline(at: Option<i64>) -> String {
    at.map(|at| format!(" (deadline {})", discord_time(at)))
        .unwrap_or_default()
}
