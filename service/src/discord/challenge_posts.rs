//! Where a front end showed a challenge with its buttons, so it can take them off when the
//! challenge is over (expired) without keeping anything in memory across restarts.

use crate::domain::ChallengeId;
use crate::store::rows::{self, ChallengePostRow};

use super::Discord;
use crate::Result;

/// The Discord message that shows a challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChallengePost {
    pub channel_id: u64,
    pub message_id: u64,
}

impl Discord<'_> {
    /// Remembers the Discord message that shows `challenge` (the last one wins).
    pub async fn note_challenge_post(
        self,
        challenge: ChallengeId,
        post: ChallengePost,
    ) -> Result<()> {
        let row = ChallengePostRow {
            challenge_id: challenge,
            channel_id: post.channel_id,
            message_id: post.message_id,
        };
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::upsert_challenge_post(c, &row)?))
            .await
    }

    /// The Discord message that shows `challenge`, if one was noted.
    pub async fn challenge_post(self, challenge: ChallengeId) -> Result<Option<ChallengePost>> {
        self.service
            .read(move |c| {
                Ok(
                    rows::challenge_post(c, challenge)?.map(|row| ChallengePost {
                        channel_id: row.channel_id,
                        message_id: row.message_id,
                    }),
                )
            })
            .await
    }
}
