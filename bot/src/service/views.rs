//! What the service answers: plain data, serialisable as the HTTP API's JSON, and easy
//! for any front end to format.

use serde::{Deserialize, Serialize};

use tafl_engine::WarningKind;

use crate::domain::{
    ChallengeId, ChallengeStatus, GameId, GameStatus, Handle, PlayerId, ResultReason, Side,
    SideChoice, TokenId, WebhookId,
};
use crate::store::rows::{MoveRow, PlayerRow, TokenRow, WebhookRow};

use super::timing::ClockSpec;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub id: PlayerId,
    /// Unique, lowercase: how others find and challenge this player.
    pub handle: Handle,
    /// The display name, as the player wrote it (not unique).
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discord_user_id: Option<u64>,
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

/// One page of a long list. Pages count from 1; `next_page` is absent on the last one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Page<T> {
    pub page: u32,
    pub page_size: u32,
    pub next_page: Option<u32>,
    pub items: Vec<T>,
}

/// A new API token: shown once, only its hash is stored.
#[derive(Debug, Clone, Serialize)]
pub struct IssuedToken {
    pub player: PlayerView,
    pub token: String,
}

/// An API token as its owner sees it: never the token or its hash.
#[derive(Debug, Clone, Serialize)]
pub struct TokenView {
    pub id: TokenId,
    pub name: String,
    pub created_at: i64,
    /// Within a minute or so (not written on every request); null: not used yet.
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
#[derive(Debug, Clone, Serialize)]
pub struct CreatedToken {
    #[serde(flatten)]
    pub view: TokenView,
    pub token: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_id: Option<PlayerId>,
    /// The player's handle (absent for the AI, and in events stored before handles existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<Handle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discord_user_id: Option<u64>,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// Absent for a draw or an aborted game.
    pub winner: Option<Side>,
    /// e.g. king_escaped, king_captured, resignation, timeout, draw_agreed, aborted,
    /// no_first_move (aborted: the side to move never made its first move in time).
    pub reason: ResultReason,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarningView {
    /// Raichi: one open path for the king; tuichu: two or more.
    pub kind: WarningKind,
    pub paths: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct CapturedView {
    /// Attacker pieces captured so far.
    pub attackers: u32,
    /// Defender pieces captured so far.
    pub defenders: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameView {
    pub id: GameId,
    pub variant: Option<String>,
    pub rules: String,
    pub dim: u8,
    pub attackers: SeatView,
    pub defenders: SeatView,
    pub status: GameStatus,
    pub result: Option<ResultView>,
    /// Moves played so far; send it back as `ply` with the next move.
    pub ply: u32,
    /// Whose turn it is (absent once the game is over).
    pub side_to_move: Option<Side>,
    /// The side of the player who asked, if they play in this game.
    pub your_side: Option<Side>,
    pub your_turn: bool,
    /// OpenTafl position record, first row = rank 1.
    pub position: String,
    /// The board from the top rank down: '.' empty, 't' attacker, 'T' defender, 'K' king.
    pub board: Vec<String>,
    pub moves: Vec<MoveView>,
    pub captured: CapturedView,
    pub warning: Option<WarningView>,
    pub clock: ClockSpec,
    /// When the player to move runs out of time (ms since the epoch).
    pub deadline_at: Option<i64>,
    pub attackers_bank_ms: Option<i64>,
    pub defenders_bank_ms: Option<i64>,
    pub draw_offer_by: Option<Side>,
    pub context: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Whether the game counts for its players' ratings.
    pub rated: bool,
    /// Shown only to its players; otherwise anyone may read it, without a token.
    pub private: bool,
    /// Once a rated game has ended: how it moved each side's rating.
    pub ratings: Option<GameRatings>,
}

/// One move of a game's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// 1-based ply of this move.
    pub ply: u32,
    pub side: Side,
    /// Canonical notation with captures, e.g. "e5-e8xe9/f8".
    pub notation: String,
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WebhookView {
    pub id: WebhookId,
    pub player_id: PlayerId,
    pub url: String,
    pub active: bool,
    pub created_at: i64,
}

impl From<WebhookRow> for WebhookView {
    fn from(w: WebhookRow) -> Self {
        WebhookView {
            id: w.id,
            player_id: w.player_id,
            url: w.url,
            active: w.active,
            created_at: w.created_at,
        }
    }
}

/// One line of "my games".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    pub id: GameId,
    pub variant: Option<String>,
    pub attackers: SeatView,
    pub defenders: SeatView,
    pub status: GameStatus,
    pub result: Option<ResultView>,
    pub ply: u32,
    pub side_to_move: Option<Side>,
    pub your_side: Option<Side>,
    pub your_turn: bool,
    pub deadline_at: Option<i64>,
    pub context: Option<String>,
    pub updated_at: i64,
    pub rated: bool,
    pub private: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeView {
    pub id: ChallengeId,
    pub challenger: SeatView,
    /// Absent for an open challenge.
    pub opponent: Option<SeatView>,
    pub variant: Option<String>,
    pub rules: String,
    /// The challenger's side.
    pub challenger_side: SideChoice,
    pub clock: ClockSpec,
    pub status: ChallengeStatus,
    pub game_id: Option<GameId>,
    pub context: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    /// The game it starts counts for ratings (absent in events stored before ratings: false).
    #[serde(default)]
    pub rated: bool,
    /// The game it starts shows only to its players (absent in older events: false).
    #[serde(default)]
    pub private: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChallengeLists {
    /// Sent to me, or open to anyone.
    pub incoming: Vec<ChallengeView>,
    pub outgoing: Vec<ChallengeView>,
}

/// The answer to a challenge: for the AI the game starts at once.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChallengeCreated {
    pub challenge: ChallengeView,
    pub game: Option<GameView>,
}

/// The answer to an accepted move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovePlayed {
    pub game_id: GameId,
    /// 1-based ply of this move.
    pub ply: u32,
    pub side: Side,
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
    /// Whose turn it is now (absent once the game is over).
    pub side_to_move: Option<Side>,
    pub deadline_at: Option<i64>,
    pub position: String,
    /// Whether the AI moves next (the service starts its turn).
    #[serde(skip)]
    pub ai_to_move: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VariantView {
    pub id: String,
    pub name: String,
    pub dim: u8,
    pub first_to_move: Side,
    pub rules: String,
    pub summary: String,
    pub start_position: String,
    pub board: Vec<String>,
}

/// The legal moves of one side in a game, saying whose they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalMovesView {
    pub game_id: GameId,
    /// The square asked about, if any.
    pub from: Option<String>,
    /// Whose moves these are: the side asked for, else the side to move.
    pub side: Side,
    /// Whether that side is to move now (false for the other side and once the game is over).
    pub to_move: bool,
    /// What that side could play now: for the side not to move, as if it were its turn.
    /// Empty once the game is over.
    pub moves: Vec<String>,
}

/// How one player's rating moved with a rated game: shown in `game_ended` and the game's view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRatings {
    /// The rating pool: the variant's id.
    pub pool: String,
    pub attackers: RatingChange,
    pub defenders: RatingChange,
}

/// A player's page: who they are, their ratings and results per variant, their current games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerProfile {
    #[serde(flatten)]
    pub player: PlayerView,
    /// One per variant they are rated in, by variant.
    pub ratings: Vec<PoolRating>,
    /// Finished games per variant (rated or not, against people or the AI; aborted games do
    /// not count), by variant; `variant` null: custom rules.
    pub results: Vec<VariantResults>,
    /// Active games (private ones only when their player asks).
    pub current_games: Vec<GameSummary>,
}

/// A player's rating in one variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolRating {
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    /// Deviation above 110: not on the leaderboard yet.
    pub provisional: bool,
    /// Rated games played in this variant.
    pub games: u32,
}

/// A player's finished games in one variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VariantResults {
    pub variant: Option<String>,
    pub played: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
}

/// One change of a player's rating in a pool, with the game that made it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingHistoryEntry {
    pub game_id: GameId,
    pub before: f64,
    pub after: f64,
    pub change: f64,
    /// The rating deviation after the game.
    pub deviation: f64,
    /// When the game ended (ms since the epoch).
    pub at: i64,
}
