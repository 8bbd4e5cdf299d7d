//! A post's claim, renewed while its delivery runs. A claim stands for `games.claim_lease_secs`;
//! a request slower than that (Discord slow to answer, serenity waiting out a rate limit, a
//! thread unarchived first) would otherwise let another instance take the post over and post
//! it too.

use std::convert::Infallible;
use std::time::Duration;

use crate::Data;
use crate::domain::OutboxId;
use crate::logging::ErrorChain;

/// Renewals come this often within a lease, so two can fail before it lapses.
const RENEWALS_PER_LEASE: u32 = 3;

/// Renews the claim on `post` every third of the lease, for as long as it is polled: run it
/// beside the delivery and drop it when the delivery's requests are done. Renewals are
/// written through the same writer queue as the outcome, so a renewal never lands after the
/// outcome it preceded.
pub async fn keep_claimed(data: &Data, post: OutboxId) -> Infallible {
    let lease = data.service.discord().claim_lease();
    let every = (lease / RENEWALS_PER_LEASE).max(Duration::from_millis(10));
    loop {
        tokio::time::sleep(every).await;
        if let Err(e) = data.service.discord().renew_post_claim(post).await {
            tracing::warn!(%post, error = %ErrorChain(&e), "cannot renew the claim on a Discord post");
        }
    }
}
