//! What the bot posts in a game's channel for an event the service announced there: moves made
//! over HTTP or by the AI, games ended by time or from elsewhere, draw offers, deadline
//! reminders, expired challenges. Each post pings only the player it concerns.

use super::posts::{self, MoveFacts, Post, discord_time, discord_user, seat_label, seat_of};
use super::{BotError, Data, game_buttons};
use crate::service::{Event, EventPayload};

/// The post announcing `event`, or `None` when there is nothing to say.
pub async fn compose(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    if let EventPayload::ChallengeExpired {} = event.payload {
        return expiry(data, event).await;
    }
    if let Some(news) = super::tournament_news::compose(data, event).await? {
        return Ok(Some(news));
    }
    if let Some(news) = super::match_news::compose(data, event).await? {
        return Ok(Some(news));
    }
    if let EventPayload::DailyPuzzle(daily) = &event.payload {
        return super::puzzles::daily_post(data, daily.puzzle_id)
            .await
            .map(Some);
    }
    let Some(game) = event.game_id else {
        return Ok(None);
    };
    let view = data.service.games().game(None, game).await?;
    let post = match &event.payload {
        EventPayload::MovePlayed(played) => {
            posts::move_post(data, &view, &MoveFacts::from(played)).await
        }
        EventPayload::GameEnded(_) => posts::end_post(data, &view, None).await,
        EventPayload::GameStarted(_) => posts::start_post(data, &view).await,
        EventPayload::DrawOffered(offer) => {
            let to = seat_of(&view, offer.by.opponent());
            Post::text(
                format!(
                    "The {} offer a draw in game #{game}. {}: accept or decline with the buttons (or `/draw accept`, `/draw decline`).",
                    offer.by,
                    seat_label(to)
                ),
                discord_user(to).into_iter().collect(),
            )
            .with_components(if view.status.is_active() {
                game_buttons::draw_answer_rows(game)
            } else {
                Vec::new()
            })
        }
        EventPayload::DrawDeclined(answer) => {
            let offerer = seat_of(&view, answer.by.opponent());
            Post::text(
                format!(
                    "The {} declined the draw in game #{game}, {}: play on.",
                    answer.by,
                    seat_label(offerer)
                ),
                discord_user(offerer).into_iter().collect(),
            )
        }
        EventPayload::DeadlineReminder(reminder) => {
            let seat = seat_of(&view, reminder.side);
            let deadline = reminder.deadline_at.map(discord_time).unwrap_or_default();
            Post::text(
                format!(
                    "{}, it is your move in game #{game} ({}); deadline {deadline}.",
                    seat_label(seat),
                    reminder.side
                ),
                discord_user(seat).into_iter().collect(),
            )
        }
        EventPayload::InactivityReminder(reminder) => {
            let seat = seat_of(&view, reminder.side);
            Post::text(
                format!(
                    "{}, game #{game} is waiting for your move ({}) since {}.",
                    seat_label(seat),
                    reminder.side,
                    discord_time(reminder.turn_started_at)
                ),
                discord_user(seat).into_iter().collect(),
            )
        }
        EventPayload::GameResumed(_) => super::server_lifecycle::back_in_channel(&view),
        EventPayload::VacationStarted(started) => {
            return Ok(super::vacation_posts::started(&view, started));
        }
        EventPayload::VacationEnded(ended) => {
            return Ok(super::vacation_posts::ended(&view, ended));
        }
        EventPayload::ChallengeCreated(_)
        | EventPayload::ChallengeAccepted(_)
        | EventPayload::ChallengeDeclined(_)
        | EventPayload::ChallengeCancelled(_)
        | EventPayload::ChallengeExpired {}
        | EventPayload::GamePaused(_)
        | EventPayload::AnalysisDone(_)
        | EventPayload::TournamentStarted(_)
        | EventPayload::RoundStarted(_)
        | EventPayload::TournamentEnded(_)
        | EventPayload::TournamentJoined(_)
        | EventPayload::TournamentLeft(_)
        | EventPayload::MatchStarted(_)
        | EventPayload::MatchEnded(_)
        | EventPayload::MatchJoined(_)
        | EventPayload::MatchLeft(_)
        | EventPayload::MatchCancelled(_)
        | EventPayload::DailyPuzzle(_) => return Ok(None),
    };
    Ok(Some(post))
}
/// The direct message telling a player that `event` puts them to move, or `None` when it no
/// longer does (the game moved on before the message went out).
pub async fn direct_message(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    let Some(game) = event.game_id else {
        return Ok(None);
    };
    let view = data.service.games().game(None, game).await?;
    if let Some(post) = super::server_lifecycle::venue_message(&view, event) {
        return Ok(Some(post));
    }
    let intended = match &event.payload {
        EventPayload::GameStarted(started) => Some(started.side_to_move),
        EventPayload::MovePlayed(played) => played.side_to_move,
        EventPayload::DeadlineReminder(reminder) => Some(reminder.side),
        EventPayload::InactivityReminder(reminder) => Some(reminder.side),
        _ => None,
    };
    // The game moved on since (a move, an ending): nothing left to tell.
    let Some(side) = view.side_to_move.filter(|side| Some(*side) == intended) else {
        return Ok(None);
    };
    let opponent = seat_label(seat_of(&view, side.opponent()));
    let place = view
        .context
        .as_deref()
        .and_then(super::places::channel_of)
        .map(|channel| format!(" in <#{channel}>"))
        .unwrap_or_default();
    let why = match &event.payload {
        EventPayload::GameStarted(_) => "Your game has begun",
        EventPayload::MovePlayed(_) => "It is your move",
        EventPayload::DeadlineReminder(_) => "Reminder: it is still your move",
        EventPayload::InactivityReminder(_) => "Your opponent is waiting for your move",
        _ => return Ok(None),
    };
    let deadline = view
        .deadline_at
        .map(|d| format!(" Deadline {}.", discord_time(d)))
        .unwrap_or_default();
    // A direct message notifies by itself: it pings nobody.
    Ok(Some(Post::text(
        format!(
            "{why}: game #{game} against {opponent}{place} ({side}).{deadline} \
             Turn these messages off with `/notify dm:off`."
        ),
        Vec::new(),
    )))
}

async fn expiry(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    let Some(id) = event.challenge_id else {
        return Ok(None);
    };
    let challenge = data.service.challenges().get(id).await?;
    let to = challenge
        .opponent
        .as_ref()
        .map(seat_label)
        .unwrap_or_else(|| "anyone".to_owned());
    Ok(Some(Post::text(
        format!(
            "Challenge #{id} from {} to {to} expired.",
            seat_label(&challenge.challenger)
        ),
        Vec::new(),
    )))
}
