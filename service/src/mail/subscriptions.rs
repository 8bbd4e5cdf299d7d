//! A player's address for turn notices: given on the web, confirmed by a link mailed to it
//! (single use, expiring), with quiet hours; turned off from the web or by the one-click link
//! in every mail.

use crate::accounts::players::token_hash;
use crate::domain::{MailKind, PlayerId};
use crate::store::rows;
use crate::{Result, ServiceError};

use super::address::MailAddress;
use super::quiet_hours::QuietHours;
use super::{Mail, MailSettings, compose};

const DAY_MS: i64 = 24 * 3_600_000;

/// Where the web's settings page is, and the two links mails carry.
pub const SETTINGS_PATH: &str = "/me/mail";
pub const CONFIRM_PATH: &str = "/mail/confirm";
pub const UNSUBSCRIBE_PATH: &str = "/mail/unsubscribe";

/// What the settings page shows of a player's subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSubscriptionView {
    pub address: String,
    pub confirmed: bool,
    pub notices_on: bool,
    pub quiet: Option<QuietHours>,
    pub utc_offset_min: i64,
    /// When the player was last on the web, as far as notices go (service clock, ms).
    pub last_seen_at: i64,
}

impl Mail<'_> {
    fn settings_or_off(&self) -> Result<&MailSettings> {
        self.settings()
            .ok_or_else(|| ServiceError::Unavailable("mail is not set up on this server".into()))
    }

    /// `player`'s address and choices, if they gave one.
    pub async fn subscription(&self, player: PlayerId) -> Result<Option<MailSubscriptionView>> {
        let row = self
            .service
            .read(move |c| Ok(rows::mail_subscription(c, player)?))
            .await?;
        Ok(row.map(|s| MailSubscriptionView {
            quiet: s
                .quiet_start_min
                .zip(s.quiet_end_min)
                .map(|(start_min, end_min)| QuietHours {
                    start_min,
                    end_min,
                    utc_offset_min: s.utc_offset_min,
                }),
            address: s.address,
            confirmed: s.confirmed_at.is_some(),
            notices_on: s.notices_on,
            utc_offset_min: s.utc_offset_min,
            last_seen_at: s.last_seen_at,
        }))
    }

    /// Takes `address` for `player`'s notices and mails it a confirmation link; until the
    /// link is used, nothing else is sent there.
    pub async fn set_address(&self, player: PlayerId, address: &str) -> Result<()> {
        let settings = self.settings_or_off()?.clone();
        // Before anything is counted: an address no mail reaches spends no confirmation.
        let address = MailAddress::parse(address)?;
        let token = new_link_token()?;
        let unsubscribe = new_link_token()?;
        let now = self.service.now_ms();
        self.service
            .commit(move |c, _| {
                let (sent_today, _) =
                    rows::mails_made_since(c, player, MailKind::Confirmation, now - DAY_MS)?;
                if sent_today >= settings.confirmations_per_day {
                    return Err(ServiceError::Limited {
                        message: format!(
                            "{sent_today} confirmation mails were sent for you today; try again tomorrow"
                        ),
                        retry_after_secs: 3600,
                    });
                }
                if rows::pending_mail_count(c)? >= settings.max_queued {
                    return Err(ServiceError::Unavailable(
                        "too many mails are waiting to go out; try again later".into(),
                    ));
                }
                // A subscription keeps its unsubscribe link (mails already sent carry it).
                let unsubscribe = rows::mail_subscription(c, player)?
                    .map_or(unsubscribe, |s| s.unsubscribe_token);
                rows::set_mail_address(
                    c,
                    player,
                    address.as_str(),
                    &token_hash(&token),
                    now + settings.confirm_link_ms,
                    &unsubscribe,
                    now,
                )?;
                let hours = u64::try_from(settings.confirm_link_ms / 3_600_000).unwrap_or(24);
                let text = compose::confirmation(
                    &format!("{}{CONFIRM_PATH}/{token}", settings.base_url),
                    &format!("{}{SETTINGS_PATH}", settings.base_url),
                    hours,
                );
                rows::insert_mail(
                    c,
                    &rows::MailRow {
                        id: crate::domain::MailId(0),
                        player_id: player,
                        kind: MailKind::Confirmation,
                        address: address.as_str().to_owned(),
                        subject: text.subject,
                        body: text.body,
                        unsubscribe_url: None,
                        attempts: 0,
                    },
                    now,
                )?;
                Ok(())
            })
            .await?;
        self.queued().notify_one();
        Ok(())
    }

    /// `player`'s quiet hours (`None`: none) and UTC offset.
    pub async fn set_quiet_hours(
        &self,
        player: PlayerId,
        quiet: Option<(i64, i64)>,
        utc_offset_min: i64,
    ) -> Result<()> {
        let set = self
            .service
            .commit(move |c, _| {
                Ok(rows::set_mail_quiet_hours(
                    c,
                    player,
                    quiet,
                    utc_offset_min,
                )?)
            })
            .await?;
        if set {
            Ok(())
        } else {
            Err(ServiceError::Invalid(
                "give your address first: quiet hours belong to it".into(),
            ))
        }
    }

    /// Confirms the address of the link whose token is `token` (once, before it expires).
    pub async fn confirm(&self, token: &str) -> Result<PlayerId> {
        let hash = token_hash(token.trim());
        let now = self.service.now_ms();
        let player = self
            .service
            .commit(move |c, _| Ok(rows::confirm_mail_address(c, &hash, now)?))
            .await?;
        player.ok_or_else(|| {
            ServiceError::Forbidden(
                "this confirmation link is used, expired or unknown: give your address again on the settings page for a new one".into(),
            )
        })
    }

    /// Turns notices off for the subscription of an unsubscribe link.
    pub async fn unsubscribe(&self, token: &str) -> Result<()> {
        let token = token.trim().to_owned();
        let player = self
            .service
            .commit(move |c, _| Ok(rows::mail_notices_off(c, &token)?))
            .await?;
        match player {
            Some(_) => Ok(()),
            None => Err(ServiceError::Forbidden(
                "this unsubscribe link is unknown: mails to you may have been stopped already"
                    .into(),
            )),
        }
    }

    /// Forgets `player`'s address: no notice, no mail waiting is sent.
    pub async fn forget_address(&self, player: PlayerId) -> Result<()> {
        self.service
            .commit(move |c, _| Ok(rows::delete_mail_subscription(c, player)?))
            .await
    }
}

/// A link's secret: 32 random bytes in hex.
fn new_link_token() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ServiceError::internal(format!("no randomness for a mail link: {e}")))?;
    Ok(hex::encode(bytes))
}
