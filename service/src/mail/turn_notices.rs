//! Turn notices: owed when a game between people puts a player with a confirmed address to
//! move (written by the event's own transaction, so a committed move never loses its notice
//! and a refused one never makes one), and turned into mails by [`Mail::make_due_mails`]:
//!
//! - a notice waits `away_minutes` after the turn began; a player who was on the web since
//!   (a page, an open tab) gets none, nor one whose turn is over (they moved, the game ended);
//! - during the player's quiet hours it waits for their end;
//! - a player gets at most `max_per_hour` mails an hour; every game due goes in one mail.

use std::collections::BTreeMap;

use crate::Result;
use crate::domain::{GameStatus, MailKind, PlayerId, Seat, SideColumn};
use crate::events::{Event, EventPayload};
use crate::store::{Conn, StoreError, rows};

use super::compose::{self, WaitingGame};
use super::quiet_hours::QuietHours;
use super::subscriptions::{SETTINGS_PATH, UNSUBSCRIBE_PATH};
use super::{Mail, MailSettings};

const HOUR_MS: i64 = 3_600_000;
/// Notices looked at in one pass; the rest wait for the next.
const NOTICES_PER_PASS: u32 = 500;

/// Owes a notice for `event` if it puts a person to move in a game between people (the
/// statement finds whether that person asked for notices).
pub(crate) fn owe_for(c: &Conn<'_>, event: &Event) -> std::result::Result<(), StoreError> {
    let Some(game) = event.game_id else {
        return Ok(());
    };
    let (side, ply) = match &event.payload {
        EventPayload::MovePlayed(played) => match played.side_to_move {
            Some(side) => (side, played.ply),
            None => return Ok(()),
        },
        EventPayload::GameStarted(started)
            if matches!(
                (started.attackers, started.defenders),
                (Seat::Player(_), Seat::Player(_))
            ) =>
        {
            (started.side_to_move, 0)
        }
        _ => return Ok(()),
    };
    rows::queue_turn_notice(c, game, SideColumn(side), ply, event.created_at)
}

impl Mail<'_> {
    /// Turns the notices due now into mails (one per player at most); answers how many mails
    /// were made. Nothing to do when mail is off.
    pub async fn make_due_mails(&self) -> Result<usize> {
        let Some(settings) = self.settings().cloned() else {
            return Ok(0);
        };
        let now = self.service.now_ms();
        self.service
            .commit(move |c, _| make_mails(c, &settings, now))
            .await
    }
}

fn make_mails(c: &Conn<'_>, settings: &MailSettings, now: i64) -> Result<usize> {
    let due = rows::due_turn_notices(c, now - settings.away_ms, now, NOTICES_PER_PASS)?;
    let mut by_player: BTreeMap<PlayerId, Vec<rows::DueNotice>> = BTreeMap::new();
    for notice in due {
        by_player.entry(notice.player_id).or_default().push(notice);
    }
    let mut waiting = rows::pending_mail_count(c)?;
    let mut made = 0;
    for (player, notices) in by_player {
        if waiting >= settings.max_queued {
            tracing::warn!(waiting, "mail outbox full: turn notices wait");
            break;
        }
        if make_mail(c, settings, now, player, notices)? {
            made += 1;
            waiting += 1;
        }
    }
    Ok(made)
}

/// One player's due notices: dropped, kept back, or made into one mail (answers whether).
fn make_mail(
    c: &Conn<'_>,
    settings: &MailSettings,
    now: i64,
    player: PlayerId,
    notices: Vec<rows::DueNotice>,
) -> Result<bool> {
    let Some(subscription) = notices.first().map(|n| n.subscription.clone()) else {
        return Ok(false);
    };
    let mut games = Vec::with_capacity(notices.len());
    for n in &notices {
        let turn_still_theirs = n.game_status == GameStatus::Active && n.game_ply == n.ply;
        let seen_since = subscription.last_seen_at > n.turn_at;
        let wanted = subscription.notices_on && subscription.confirmed_at.is_some();
        if turn_still_theirs && !seen_since && wanted {
            games.push(n);
        } else {
            rows::delete_turn_notice(c, player, n.game_id)?;
        }
    }
    if games.is_empty() {
        return Ok(false);
    }
    let quiet = subscription
        .quiet_start_min
        .zip(subscription.quiet_end_min)
        .map(|(start_min, end_min)| QuietHours {
            start_min,
            end_min,
            utc_offset_min: subscription.utc_offset_min,
        });
    if let Some(end) = quiet.and_then(|q| q.end_after(now)) {
        rows::defer_turn_notices(c, player, end)?;
        return Ok(false);
    }
    let (this_hour, oldest) = rows::mails_made_since(c, player, MailKind::Turns, now - HOUR_MS)?;
    if this_hour >= settings.max_per_hour {
        rows::defer_turn_notices(c, player, oldest.unwrap_or(now) + HOUR_MS)?;
        return Ok(false);
    }
    let unsubscribe_url = format!(
        "{}{UNSUBSCRIBE_PATH}/{}",
        settings.base_url, subscription.unsubscribe_token
    );
    let waiting: Vec<WaitingGame> = games
        .iter()
        .map(|n| WaitingGame {
            game: n.game_id,
            opponent: n.opponent.clone(),
            variant: n.variant.clone(),
        })
        .collect();
    let text = compose::turn_notice(
        &settings.base_url,
        &waiting,
        &unsubscribe_url,
        &format!("{}{SETTINGS_PATH}", settings.base_url),
    );
    rows::insert_mail(
        c,
        &rows::MailRow {
            id: crate::domain::MailId(0),
            player_id: player,
            kind: MailKind::Turns,
            address: subscription.address.clone(),
            subject: text.subject,
            body: text.body,
            unsubscribe_url: Some(unsubscribe_url),
            attempts: 0,
        },
        now,
    )?;
    for n in games {
        rows::delete_turn_notice(c, player, n.game_id)?;
    }
    Ok(true)
}
