//! What the service answers: plain data, serialisable as the HTTP API's JSON, and easy
//! for any front end to format.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use tafl_engine::WarningKind;

use crate::domain::{
    ChallengeId, ChallengeStatus, GameId, GameStatus, Handle, PlayerId, ResultReason, Side,
    SideChoice, TokenId, WebhookId, WebhookStatus,
};
use crate::store::rows::{MoveRow, PlayerRow, TokenRow, WebhookRow};

use crate::games::timing::ClockSpec;

/// A player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PlayerView {
    pub id: PlayerId,
    /// Unique, lowercase: how others find and challenge this player.
    pub handle: Handle,
    /// The display name, as the player wrote it (not unique).
    pub name: String,
    /// The player's Discord account, for the Discord front end. Never sent to clients: who
    /// someone is on Discord is theirs to tell ([`AccountView`] shows it to its owner alone).
    #[serde(skip)]
    #[schema(ignore)]
    pub discord_user_id: Option<u64>,
}

/// A player as they see themselves (`GET /me`): what everyone sees, their Discord account and
/// their preferences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AccountView {
    #[serde(flatten)]
    pub player: PlayerView,
    /// My Discord account, when I have one (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discord_user_id: Option<u64>,
    /// Whether the boards shown only to me (Discord's private boards) are turned half a turn.
    pub board_flipped: bool,
}

impl AccountView {
    pub fn new(player: PlayerView, board_flipped: bool) -> AccountView {
        AccountView {
            discord_user_id: player.discord_user_id,
            player,
            board_flipped,
        }
    }
}

impl From<PlayerRow> for PlayerView {
    fn from(p: PlayerRow) -> Self {
        PlayerView {
            id: p.id,
            handle: p.handle,
            name: p.name,
            discord_user_id: p.discord_user_id,
        }
    }
}

/// One page of a long list. Pages count from 1; `next_page` is null on the last one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Page<T> {
    /// This page's number, from 1.
    #[schema(minimum = 1)]
    pub page: u32,
    /// The most items a page holds.
    pub page_size: u32,
    /// The next page's number; null on the last page.
    #[schema(minimum = 2)]
    pub next_page: Option<u32>,
    pub items: Vec<T>,
}

/// A new API token: shown once, only its hash is stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct IssuedToken {
    pub player: PlayerView,
    /// The API token: send it as `Authorization: Bearer <token>`. Shown this once.
    pub token: String,
}

/// An API token as its owner sees it: never the token or its hash.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TokenView {
    pub id: TokenId,
    /// The owner's label for it.
    pub name: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Milliseconds since the epoch, within a minute or so (not written on every request);
    /// null: not used yet.
    pub last_used_at: Option<i64>,
}

impl From<TokenRow> for TokenView {
    fn from(t: TokenRow) -> Self {
        TokenView {
            id: t.id,
            name: t.label,
            created_at: t.created_at,
            last_used_at: t.last_used_at,
        }
    }
}

/// A token just created: its view and, this once, the token itself.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatedToken {
    #[serde(flatten)]
    pub view: TokenView,
    /// The API token itself: shown this once, never again.
    pub token: String,
}

/// A sign-in link for the web client, just made: good once, until `expires_at`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LoginLink {
    /// Open it in a browser to sign in. Shown this once; it works once.
    pub url: String,
    /// When it stops working (ms since the epoch).
    pub expires_at: i64,
}

/// Who sits on one side: a player (`player_id`) or the AI (`ai_level`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    /// Absent for the AI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_id: Option<PlayerId>,
    /// The player's handle (for the AI, its level's rating page once the level has played a
    /// rated game; absent in events stored before handles existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<Handle>,
    /// The player's Discord account, for the Discord front end's mentions; never sent to
    /// clients, nor stored in events (see [`PlayerView::discord_user_id`]).
    #[serde(skip)]
    #[schema(ignore)]
    pub discord_user_id: Option<u64>,
    pub name: String,
    /// The AI's level; absent for a player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
}

/// What a game's or a challenge's variant is called on every front end: its preset's id, or
/// "custom rules" for rules given in full.
pub fn variant_label(variant: Option<&str>) -> &str {
    variant.unwrap_or("custom rules")
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ResultView {
    /// Null for a draw or an aborted game.
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub winner: Option<Side>,
    /// e.g. king_escaped, king_captured, resignation, timeout, draw_agreed, aborted,
    /// no_first_move (aborted: the side to move never made its first move in time).
    pub reason: ResultReason,
}

/// A result in a few words, the same on every front end: "defenders won (resignation)",
/// "draw (threefold repetition)"; another game nobody won, its reason alone ("a draw was
/// agreed", "the game was aborted").
impl std::fmt::Display for ResultView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.winner, self.reason) {
            (Some(winner), reason) => write!(f, "{winner} won ({})", reason.describe()),
            (None, ResultReason::Draw(reason)) => write!(f, "draw ({})", reason.describe()),
            (None, reason) => f.write_str(reason.describe()),
        }
    }
}

/// The king's open paths to a winning square, when he has any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WarningView {
    /// Raichi: one open path for the king; tuichu: two or more.
    #[schema(value_type = crate::domain::WarningKindSchema)]
    pub kind: WarningKind,
    /// Each open path: the squares from the king (excluded) to the winning square (included).
    pub paths: Vec<Vec<String>>,
}

/// Pieces taken off the board so far, by side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, ToSchema)]
pub struct CapturedView {
    /// Attacker pieces captured so far.
    pub attackers: u32,
    /// Defender pieces captured so far.
    pub defenders: u32,
}

/// A game: players, position, moves, clock and result.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct GameView {
    pub id: GameId,
    /// The preset's id (see `/variants`); null for a game on its own rules string.
    pub variant: Option<String>,
    /// The OpenTafl rules string the game is played by.
    pub rules: String,
    /// Squares per side of the board.
    pub dim: u8,
    pub attackers: SeatView,
    pub defenders: SeatView,
    pub status: GameStatus,
    pub result: Option<ResultView>,
    /// Moves played so far; send it back as `ply` with the next move.
    pub ply: u32,
    /// Whose turn it is (absent once the game is over).
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub side_to_move: Option<Side>,
    /// The side of the player who asked, if they play in this game.
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub your_side: Option<Side>,
    pub your_turn: bool,
    /// The position as an OpenTafl position record: `/`-separated rows, the FIRST row rank 1
    /// (the bottom of the board), the opposite of `board`.
    pub position: String,
    /// The board as drawn, one string per row, TOP rank first: `board[0]` is rank `dim`,
    /// `board[dim-1]` rank 1, so `a1` is the first character of the last row. Files run left
    /// to right from `a`. '.' empty, 't' attacker, 'T' defender, 'K' king.
    pub board: Vec<String>,
    /// Every move played, oldest first.
    pub moves: Vec<MoveView>,
    pub captured: CapturedView,
    /// The king's open paths, when he has any.
    pub warning: Option<WarningView>,
    pub clock: ClockSpec,
    /// When the player to move runs out of time (ms since the epoch); null without a deadline.
    pub deadline_at: Option<i64>,
    /// When the game's clocks were paused (its Discord server removed the bot; see the
    /// `game_paused` event); null while they run. A paused game takes no move, and its
    /// deadline moves on by the pause when it resumes.
    pub paused_at: Option<i64>,
    /// While the player to move is on vacation: when it ends at the latest (ms since the
    /// epoch). Their clock stands still meanwhile; `deadline_at` moves on when they are back.
    pub vacation_until: Option<i64>,
    /// Time left in the attackers' bank (ms), under a bank clock.
    pub attackers_bank_ms: Option<i64>,
    /// Time left in the defenders' bank (ms), under a bank clock.
    pub defenders_bank_ms: Option<i64>,
    /// The side whose draw offer is open, if any.
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub draw_offer_by: Option<Side>,
    /// The label the game was created with, if any.
    pub context: Option<String>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Milliseconds since the epoch.
    pub updated_at: i64,
    /// Whether the game counts for its players' ratings.
    pub rated: bool,
    /// Shown only to its players; otherwise anyone may read it, without a token.
    pub private: bool,
    /// Once a rated game has ended: how it moved each side's rating.
    pub ratings: Option<GameRatings>,
}

/// One move of a game's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MoveView {
    /// 1-based ply of this move.
    pub ply: u32,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    /// Canonical notation with captures, e.g. "e5-e8xe9/f8".
    pub notation: String,
    /// The move from square to square, e.g. "e5-e8".
    #[serde(rename = "move")]
    pub mv: String,
    /// Squares of the soldiers this move took off the board.
    pub captures: Vec<String>,
    /// The player who moved; absent for the AI.
    pub played_by: Option<PlayerId>,
    /// Milliseconds since the epoch.
    pub played_at: i64,
}

impl From<MoveRow> for MoveView {
    fn from(m: MoveRow) -> Self {
        MoveView {
            ply: m.ply,
            side: m.side,
            notation: m.notation,
            mv: m.mv,
            captures: m.captures,
            played_by: m.played_by,
            played_at: m.played_at,
        }
    }
}

/// A webhook as its owner sees it: never its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct WebhookView {
    pub id: WebhookId,
    pub player_id: PlayerId,
    /// Where events are POSTed.
    pub url: String,
    pub active: bool,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub status: WebhookStatus,
    /// Since when every delivery has failed (ms since the epoch); null while deliveries
    /// arrive.
    pub failing_since: Option<i64>,
    /// When its deliveries were given up (ms since the epoch), the endpoint having failed for
    /// `webhooks.give_up_after_secs`.
    pub gave_up_at: Option<i64>,
}

impl From<WebhookRow> for WebhookView {
    fn from(w: WebhookRow) -> Self {
        let status = match (w.gave_up_at, w.failing_since) {
            (Some(_), _) => WebhookStatus::GaveUp,
            (None, Some(_)) => WebhookStatus::Failing,
            (None, None) => WebhookStatus::Delivering,
        };
        WebhookView {
            id: w.id,
            player_id: w.player_id,
            url: w.url,
            active: w.active,
            created_at: w.created_at,
            status,
            failing_since: w.failing_since,
            gave_up_at: w.gave_up_at,
        }
    }
}

/// One line of "my games".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: GameId,
    /// The preset's id; null for a game on its own rules string.
    pub variant: Option<String>,
    pub attackers: SeatView,
    pub defenders: SeatView,
    pub status: GameStatus,
    pub result: Option<ResultView>,
    /// Moves played so far.
    pub ply: u32,
    /// Whose turn it is (null once the game is over).
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub side_to_move: Option<Side>,
    /// The side of the player who asked.
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub your_side: Option<Side>,
    pub your_turn: bool,
    /// When the player to move runs out of time (ms since the epoch).
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
    /// Milliseconds since the epoch.
    pub updated_at: i64,
    pub rated: bool,
    pub private: bool,
}

/// A challenge: who asked whom, to which game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChallengeView {
    pub id: ChallengeId,
    pub challenger: SeatView,
    /// Null for an open challenge.
    pub opponent: Option<SeatView>,
    /// The preset's id; null for a challenge on its own rules string.
    pub variant: Option<String>,
    /// The OpenTafl rules string of the game.
    pub rules: String,
    /// The challenger's side.
    pub challenger_side: SideChoice,
    pub clock: ClockSpec,
    pub status: ChallengeStatus,
    /// The game it started, once accepted.
    pub game_id: Option<GameId>,
    pub context: Option<String>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// When it expires unanswered (ms since the epoch).
    pub expires_at: i64,
    /// The game it starts counts for ratings (absent in events stored before ratings: false).
    #[serde(default)]
    pub rated: bool,
    /// The game it starts shows only to its players (absent in older events: false).
    #[serde(default)]
    pub private: bool,
}

/// My pending challenges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ChallengeLists {
    /// Sent to me, or open to anyone.
    pub incoming: Vec<ChallengeView>,
    pub outgoing: Vec<ChallengeView>,
}

/// The answer to a challenge: for the AI the game starts at once.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ChallengeCreated {
    pub challenge: ChallengeView,
    /// The game, when it started at once (against the AI); null otherwise.
    pub game: Option<GameView>,
}

/// The answer to an accepted move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MovePlayed {
    pub game_id: GameId,
    /// 1-based ply of this move.
    pub ply: u32,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    /// The move from square to square, e.g. "e5-e8".
    #[serde(rename = "move")]
    pub mv: String,
    /// Canonical notation with captures, e.g. "e5-e8xe9/f8".
    pub notation: String,
    /// Squares of the soldiers taken off the board. Never the king: see `king_captured`.
    pub captures: Vec<String>,
    /// The king's square when this move captured him (he stays there; under rescue rules the
    /// defenders may yet free him, and `result` says whether the capture ended the game).
    pub king_captured: Option<String>,
    pub warning: Option<WarningView>,
    pub status: GameStatus,
    pub result: Option<ResultView>,
    /// Whose turn it is now (null once the game is over).
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub side_to_move: Option<Side>,
    /// When the player to move runs out of time (ms since the epoch).
    pub deadline_at: Option<i64>,
    /// The position after the move, an OpenTafl position record: first row rank 1.
    pub position: String,
    /// Whether the AI moves next (the service starts its turn).
    #[serde(skip)]
    pub ai_to_move: bool,
}

/// A preset: its rules and start position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct VariantView {
    /// What a challenge's `variant` names.
    pub id: String,
    pub name: String,
    /// Squares per side of the board.
    pub dim: u8,
    #[schema(value_type = crate::domain::SideSchema)]
    pub first_to_move: Side,
    /// The OpenTafl rules string.
    pub rules: String,
    /// The rules in a few sentences.
    pub summary: String,
    /// The start as an OpenTafl position record: first row rank 1 (the opposite of `board`).
    pub start_position: String,
    /// The start as drawn, one string per row, top rank first (`board[0]` is rank `dim`);
    /// '.' empty, 't' attacker, 'T' defender, 'K' king.
    pub board: Vec<String>,
}

/// The legal moves of one side in a game, saying whose they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LegalMovesView {
    pub game_id: GameId,
    /// The square asked about, if any.
    pub from: Option<String>,
    /// Whose moves these are: the side asked for, else the side to move.
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    /// Whether that side is to move now (false for the other side and once the game is over).
    pub to_move: bool,
    /// What that side could play now: for the side not to move, as if it were its turn.
    /// Empty once the game is over.
    pub moves: Vec<String>,
}

/// How one player's rating moved with a rated game: shown in `game_ended` and the game's view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    pub player_id: PlayerId,
    pub before: f64,
    pub after: f64,
    /// `after - before`.
    pub change: f64,
    /// The rating deviation after the game.
    pub deviation: f64,
    /// Whether the rating after the game is provisional (deviation above 110).
    pub provisional: bool,
}

/// The rating changes of a rated game, by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameRatings {
    /// The rating pool: the variant's id.
    pub pool: String,
    pub attackers: RatingChange,
    pub defenders: RatingChange,
}

/// A player's page: who they are, their ratings and results per variant, their current games.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PlayerProfile {
    #[serde(flatten)]
    pub player: PlayerView,
    /// `ai` for an AI level: a player row that plays as the taflbot AI at `ai_level`, rated
    /// from its rated games against people, never signed in, never titled.
    pub kind: crate::domain::PlayerKind,
    /// The AI's level, for `kind` `ai` (absent for a person).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
    /// One per variant they are rated in, by variant.
    pub ratings: Vec<PoolRating>,
    /// Finished games per variant (rated or not, against people or the AI; aborted games do
    /// not count), by variant; `variant` null: custom rules. For an AI level: its rated games
    /// only, the ones its ratings measure.
    pub results: Vec<VariantResults>,
    /// Active games (private ones only when their player asks).
    pub current_games: Vec<GameSummary>,
}

/// A player's rating in one variant.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PoolRating {
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    /// Deviation above 110: not on the leaderboard yet.
    pub provisional: bool,
    /// Rated games played in this variant.
    pub games: u32,
    /// The title the rating earns in this variant (`games.titles`); none while provisional.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::domain::Title>,
}

/// A player's finished games in one variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct VariantResults {
    pub variant: Option<String>,
    pub played: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best.
    pub rank: u64,
    pub player_id: PlayerId,
    pub handle: Handle,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games played in this variant.
    pub games: u32,
    /// The title the rating earns in this variant (`games.titles`; never the AI's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::domain::Title>,
    /// `ai` for an AI level, whose rating is measured from its rated games against people.
    pub kind: crate::domain::PlayerKind,
    /// The AI's level, for `kind` `ai` (absent for a person).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
}

/// One change of a player's rating in a pool, with the game that made it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RatingHistoryEntry {
    /// The game, or null for a private game the reader is not a player of (its change
    /// counts, the game is not shown).
    pub game_id: Option<GameId>,
    pub before: f64,
    pub after: f64,
    pub change: f64,
    /// The rating deviation after the game.
    pub deviation: f64,
    /// When the game ended (ms since the epoch).
    pub at: i64,
}

#[cfg(test)]
mod tests {
    use tafl_engine::{DrawReason, WinReason};

    use super::*;

    fn result(winner: Option<Side>, reason: ResultReason) -> String {
        ResultView { winner, reason }.to_string()
    }

    #[test]
    fn a_result_reads_the_same_on_every_front_end() {
        assert_eq!(
            result(Some(Side::Defenders), ResultReason::Resignation),
            "defenders won (resignation)"
        );
        assert_eq!(
            result(
                Some(Side::Attackers),
                ResultReason::Rules(WinReason::KingCaptured)
            ),
            "attackers won (the king was captured)"
        );
        assert_eq!(
            result(None, ResultReason::Draw(DrawReason::Repetition)),
            "draw (threefold repetition)"
        );
        assert_eq!(result(None, ResultReason::Aborted), "the game was aborted");
        assert_eq!(variant_label(None), "custom rules");
        assert_eq!(variant_label(Some("brandubh")), "brandubh");
    }
}
