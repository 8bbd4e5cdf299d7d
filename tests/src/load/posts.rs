//! The posts a crowd run owes its channels, and which of them Discord received: each move's
//! post (its board and the turn ping) has an identity, the game and the ply, read off what
//! the fake recorded. Lost: owed and never received. Duplicated: received more than once.

use std::collections::HashMap;

use crate::fake_discord::{Recorded, RouteKind};

/// One move's post: game `game`, after its ply `ply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PostIdentity {
    pub game: i64,
    pub ply: u32,
}

/// The move posts a game owes: one for each ply after `after_ply`, through `through_ply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwedPosts {
    pub game: i64,
    pub after_ply: u32,
    pub through_ply: u32,
}

impl OwedPosts {
    fn identities(self) -> impl Iterator<Item = PostIdentity> {
        (self.after_ply + 1..=self.through_ply).map(move |ply| PostIdentity {
            game: self.game,
            ply,
        })
    }
}

/// What the owed posts came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostVerdict {
    pub owed: usize,
    pub lost: usize,
    pub duplicated: usize,
    /// The first few lost posts, to look for in the log.
    pub lost_examples: Vec<PostIdentity>,
}

/// How many times each move post reached Discord.
#[derive(Debug, Clone, Default)]
pub struct PostLedger {
    received: HashMap<PostIdentity, u32>,
}

impl PostLedger {
    /// Counts `recorded` if it is a move post Discord accepted.
    pub fn observe(&mut self, recorded: &Recorded) {
        if let Some(identity) = move_post_identity(recorded) {
            self.note(identity);
        }
    }

    /// Counts one more arrival of the post `identity`.
    pub fn note(&mut self, identity: PostIdentity) {
        *self.received.entry(identity).or_default() += 1;
    }

    /// How many times the post `identity` arrived.
    pub fn received(&self, identity: PostIdentity) -> u32 {
        self.received.get(&identity).copied().unwrap_or(0)
    }

    /// Move posts received in all (repeats included).
    pub fn total(&self) -> u64 {
        self.received.values().map(|n| u64::from(*n)).sum()
    }

    /// Whether every owed post has arrived at least once.
    pub fn has_all(&self, owed: &[OwedPosts]) -> bool {
        owed.iter()
            .flat_map(|o| o.identities())
            .all(|id| self.received(id) > 0)
    }

    /// Lost posts among `owed`, and repeats among everything received.
    pub fn verdict(&self, owed: &[OwedPosts]) -> PostVerdict {
        let mut verdict = PostVerdict::default();
        for identity in owed.iter().flat_map(|o| o.identities()) {
            verdict.owed += 1;
            if self.received(identity) == 0 {
                verdict.lost += 1;
                if verdict.lost_examples.len() < 10 {
                    verdict.lost_examples.push(identity);
                }
            }
        }
        verdict.duplicated = self
            .received
            .values()
            .map(|n| usize::try_from(n.saturating_sub(1)).unwrap_or(usize::MAX))
            .sum();
        verdict
    }
}

/// The identity of a move post: an accepted request that puts a message in a channel (an
/// interaction's message or update, a follow-up, the edit that settles a deferral, a channel
/// message), whose text opens with `**Game #N** · move` and which uploads the board
/// `game-N-ply-P.png`. (A `/board` answer uploads the same file name under other text; an edit
/// that only takes buttons off uploads nothing.)
pub fn move_post_identity(recorded: &Recorded) -> Option<PostIdentity> {
    if !recorded.accepted() {
        return None;
    }
    let posts_a_message = match &recorded.kind {
        RouteKind::InteractionCallback { .. } => matches!(recorded.callback_type(), Some(4 | 7)),
        RouteKind::Followup { .. }
        | RouteKind::EditResponse { .. }
        | RouteKind::ChannelMessage { .. } => true,
        _ => false,
    };
    if !posts_a_message {
        return None;
    }
    let game = game_of_move_text(recorded.content())?;
    recorded
        .png_attachments()
        .find_map(|a| ply_of_board_file(&a.filename, game))
        .map(|ply| PostIdentity { game, ply })
}

/// `N` of a text opening with `**Game #N** · move`.
fn game_of_move_text(text: &str) -> Option<i64> {
    let rest = text.strip_prefix("**Game #")?;
    let (id, rest) = rest.split_once("**")?;
    rest.starts_with(" · move ").then(|| id.parse().ok())?
}

/// `P` of `game-N-ply-P.png`, when `N` is `game`.
fn ply_of_board_file(filename: &str, game: i64) -> Option<u32> {
    let rest = filename.strip_prefix("game-")?.strip_suffix(".png")?;
    let (id, ply) = rest.split_once("-ply-")?;
    (id.parse::<i64>().ok()? == game).then(|| ply.parse().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_discord::RecordedAttachment;
    use serde_json::json;

    fn post(kind: RouteKind, status: u16, content: &str, file: &str) -> Recorded {
        Recorded {
            index: 0,
            method: "POST".into(),
            path: "/".into(),
            kind,
            json: Some(json!({ "content": content })),
            attachments: vec![RecordedAttachment {
                field: "files[0]".into(),
                filename: file.into(),
                content_type: Some("image/png".into()),
                bytes: b"\x89PNG\r\n\x1a\nrest".to_vec(),
            }],
            message: None,
            at: std::time::Instant::now(),
            status,
            error_code: None,
        }
    }

    const MOVE: &str = "**Game #12** · move 3: Attackers <@1> played **a1-a2**\n<@2> to move";

    #[test]
    fn a_move_post_is_known_by_its_game_and_ply_wherever_it_goes() {
        let channel = RouteKind::ChannelMessage { channel_id: 5 };
        let identity = PostIdentity { game: 12, ply: 5 };
        assert_eq!(
            move_post_identity(&post(channel.clone(), 200, MOVE, "game-12-ply-5.png")),
            Some(identity)
        );
        let followup = RouteKind::Followup { token: "t".into() };
        assert_eq!(
            move_post_identity(&post(followup, 200, MOVE, "game-12-ply-5.png")),
            Some(identity)
        );
        // Refused, a board shown on request, or a file of another game: not a move post.
        assert_eq!(
            move_post_identity(&post(channel.clone(), 429, MOVE, "game-12-ply-5.png")),
            None
        );
        let board = "**Game #12** · Attackers <@1> vs Defenders <@2> · 5 moves played";
        assert_eq!(
            move_post_identity(&post(channel.clone(), 200, board, "game-12-ply-5.png")),
            None
        );
        assert_eq!(
            move_post_identity(&post(channel, 200, MOVE, "game-13-ply-5.png")),
            None
        );
    }

    #[test]
    fn owed_posts_never_received_are_lost_and_repeats_are_duplicates() {
        let mut ledger = PostLedger::default();
        let owed = [OwedPosts {
            game: 1,
            after_ply: 2,
            through_ply: 5,
        }];
        for ply in [3, 4, 4, 5] {
            ledger.note(PostIdentity { game: 1, ply });
        }
        // Ply 2 was before the run: received again, it is a duplicate, not owed.
        ledger.note(PostIdentity { game: 1, ply: 2 });
        ledger.note(PostIdentity { game: 1, ply: 2 });
        let verdict = ledger.verdict(&owed);
        assert_eq!((verdict.owed, verdict.lost, verdict.duplicated), (3, 0, 2));
        assert!(ledger.has_all(&owed));
        let more = [OwedPosts {
            game: 1,
            after_ply: 2,
            through_ply: 6,
        }];
        let verdict = ledger.verdict(&more);
        assert_eq!(verdict.lost, 1);
        assert_eq!(
            verdict.lost_examples,
            vec![PostIdentity { game: 1, ply: 6 }]
        );
        assert!(!ledger.has_all(&more));
    }
}
