//! What the bot posts about a game: the board PNG and a few lines of text (the move, captures,
//! escape warning, whose turn with a mention, the deadline, the end and its reason).
//! The same post goes out as an interaction reply, a follow-up or a channel message, and pings
//! exactly the users it names in `pings`.

use poise::CreateReply;
use serenity::all::{
    CreateActionRow, CreateAttachment, CreateInteractionResponseFollowup, CreateMessage,
};

use tafl_engine::WarningKind;

use crate::domain::{GameId, GameStatus, ResultReason, Side};
use crate::logging::ErrorChain;
use crate::service::{
    GameRatings, GameView, MovePlayed, MovePlayedEvent, RatingChange, SeatView, render_board,
    variant_label,
};

use super::Data;
use super::alt_text;
use super::data::BOARD_THEME;
use super::game_buttons;
use super::mentions;

/// A message about a game, ready to send anywhere.
#[derive(Debug, Clone)]
pub struct Post {
    pub content: String,
    pub png: Option<Vec<u8>>,
    pub filename: String,
    /// The board's description for screen readers (every board image has one).
    pub alt: String,
    /// The Discord users this post is meant to notify (everyone else mentioned stays silent).
    pub pings: Vec<u64>,
    /// Buttons under the post (a game's actions, a draw's answers, a rematch).
    pub components: Vec<CreateActionRow>,
}

/// A board drawn for a post: the PNG and its description.
#[derive(Debug, Clone)]
pub struct BoardImage {
    pub png: Vec<u8>,
    pub alt: String,
}

impl Post {
    /// The board image as an attachment, described for screen readers.
    pub fn attachment(&self) -> Option<CreateAttachment> {
        self.png.clone().map(|bytes| {
            CreateAttachment::bytes(bytes, self.filename.clone()).description(self.alt.clone())
        })
    }

    /// A post with `board` attached (when it could be drawn).
    pub fn with_board(
        content: String,
        board: Option<BoardImage>,
        filename: String,
        pings: Vec<u64>,
    ) -> Post {
        let (png, alt) = match board {
            Some(board) => (Some(board.png), board.alt),
            None => (None, String::new()),
        };
        Post {
            content,
            png,
            filename,
            alt,
            pings,
            components: Vec::new(),
        }
    }

    /// The same post with these buttons under it.
    pub fn with_components(mut self, components: Vec<CreateActionRow>) -> Post {
        self.components = components;
        self
    }

    /// A text post without a board.
    pub fn text(content: String, pings: Vec<u64>) -> Post {
        Post::with_board(content, None, String::new(), pings)
    }

    fn allowed_mentions(&self) -> serenity::all::CreateAllowedMentions {
        mentions::only(&self.pings)
    }

    pub fn reply(&self) -> CreateReply {
        let reply = CreateReply::default()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components.clone());
        match self.attachment() {
            Some(file) => reply.attachment(file),
            None => reply,
        }
    }

    pub fn message(&self) -> CreateMessage {
        let message = CreateMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components.clone());
        match self.attachment() {
            Some(file) => message.add_file(file),
            None => message,
        }
    }

    pub fn followup(&self) -> CreateInteractionResponseFollowup {
        let followup = CreateInteractionResponseFollowup::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.components.clone());
        match self.attachment() {
            Some(file) => followup.add_file(file),
            None => followup,
        }
    }
}

/// The facts of one move, from the service's answer or from its `move_played` event.
#[derive(Debug, Clone)]
pub struct MoveFacts {
    pub ply: u32,
    pub side: Side,
    pub notation: String,
    pub captures: Vec<String>,
    pub warning: Option<WarningKind>,
    pub deadline_at: Option<i64>,
}

impl From<&MovePlayed> for MoveFacts {
    fn from(m: &MovePlayed) -> Self {
        MoveFacts {
            ply: m.ply,
            side: m.side,
            notation: m.notation.clone(),
            captures: m.captures.clone(),
            warning: m.warning.as_ref().map(|w| w.kind),
            deadline_at: m.deadline_at,
        }
    }
}

impl From<&MovePlayedEvent> for MoveFacts {
    fn from(m: &MovePlayedEvent) -> Self {
        MoveFacts {
            ply: m.ply,
            side: m.side,
            notation: m.notation.clone(),
            captures: m.captures.clone(),
            warning: m.warning.as_ref().map(|w| w.kind),
            deadline_at: m.deadline_at,
        }
    }
}

/// How a seat is named in a post: a mention for a Discord user (Discord shows their name; it
/// pings only if the post's `pings` name them), a literal name for anyone else.
pub fn seat_label(seat: &SeatView) -> String {
    if let Some(id) = seat.discord_user_id {
        return format!("<@{id}>");
    }
    if let Some(level) = seat.ai_level {
        return format!("taflbot (AI level {level})");
    }
    mentions::literal(&seat.name)
}

/// The Discord user of a seat, to ping.
pub fn discord_user(seat: &SeatView) -> Option<u64> {
    seat.discord_user_id
}

/// The Discord users of the side to move next (none when the game is over).
fn to_move_pings(game: &GameView, side: Side) -> Vec<u64> {
    discord_user(seat_of(game, side)).into_iter().collect()
}

pub fn seat_of(game: &GameView, side: Side) -> &SeatView {
    match side {
        Side::Attackers => &game.attackers,
        Side::Defenders => &game.defenders,
    }
}

pub(crate) fn side_title(side: Side) -> &'static str {
    match side {
        Side::Attackers => "Attackers",
        Side::Defenders => "Defenders",
    }
}

/// A Discord timestamp that each reader sees in their own time zone, relative to now.
pub fn discord_time(ms: i64) -> String {
    format!("<t:{}:R>", ms.div_euclid(1000))
}

/// "**Game over** · Defenders (@bob) win: the king escaped.", and for a rated game a second
/// line with both rating changes.
pub fn ending_line(game: &GameView) -> String {
    let line = result_line(game);
    match &game.ratings {
        Some(ratings) => format!("{line}\n{}", ratings_line(game, ratings)),
        None => line,
    }
}

/// "Ratings (brandubh): Attackers <@1> 1500 → 1662 (+162, provisional) · Defenders ..."
fn ratings_line(game: &GameView, ratings: &GameRatings) -> String {
    let side = |side: Side, change: &RatingChange| {
        let provisional = if change.provisional {
            ", provisional"
        } else {
            ""
        };
        format!(
            "{} {} {:.0} → {:.0} ({:+.0}{provisional})",
            side_title(side),
            seat_label(seat_of(game, side)),
            change.before,
            change.after,
            change.change
        )
    };
    format!(
        "Ratings ({}): {} · {}",
        mentions::literal(&ratings.pool),
        side(Side::Attackers, &ratings.attackers),
        side(Side::Defenders, &ratings.defenders)
    )
}

fn result_line(game: &GameView) -> String {
    let Some(result) = &game.result else {
        return format!("**Game #{} is over.**", game.id);
    };
    let reason = result.reason.describe();
    match result.winner {
        Some(winner) => format!(
            "**Game over** · {} ({}) win: {reason}.",
            side_title(winner),
            seat_label(seat_of(game, winner))
        ),
        None if result.reason == ResultReason::Aborted => {
            format!("**Game #{} aborted.**", game.id)
        }
        None if game.status == GameStatus::Aborted => {
            format!("**Game #{} aborted:** {reason}.", game.id)
        }
        None => format!("**Game over** · Draw: {reason}."),
    }
}

fn turn_line(game: &GameView, side: Side, deadline_at: Option<i64>) -> String {
    let mut line = format!("{} ({}) to move", seat_label(seat_of(game, side)), side);
    if let Some(deadline) = deadline_at {
        line.push_str(&format!(" · deadline {}", discord_time(deadline)));
    }
    line
}

fn warning_line(kind: WarningKind) -> &'static str {
    match kind {
        WarningKind::Raichi => "**Raichi!** The king has an open road to escape.",
        WarningKind::Tuichu => "**Tuichu!** The king has two open roads to escape.",
    }
}

/// The board of `game` after `ply` moves, as PNG with its description; `None` (logged) if it
/// cannot be drawn, so the text still goes out.
pub async fn board_png(data: &Data, game: GameId, ply: Option<u32>) -> Option<BoardImage> {
    board_image(data, game, ply, false).await
}

/// Like [`board_png`], turned half a turn when `flip`.
pub async fn board_image(
    data: &Data,
    game: GameId,
    ply: Option<u32>,
    flip: bool,
) -> Option<BoardImage> {
    let snapshot = match data.service.games().board_snapshot(game, ply).await {
        Ok(snapshot) => snapshot,
        Err(e) => {
            tracing::warn!(%game, error = %ErrorChain(&e), "no board snapshot");
            return None;
        }
    };
    match render_board(&snapshot, flip, BOARD_THEME).await {
        Ok(png) => Some(BoardImage {
            png,
            alt: alt_text::describe(&snapshot, flip),
        }),
        Err(e) => {
            tracing::warn!(%game, error = %ErrorChain(&e), "board not drawn");
            None
        }
    }
}

/// The start position of `rules`, drawn off the async runtime (for /rules: no game exists).
pub async fn start_position_png(rules: tafl_engine::Rules) -> Result<Vec<u8>, String> {
    let start = rules.start_position();
    position_png(rules, start).await
}

/// `position` under `rules`, drawn off the async runtime (a puzzle's: no game of its own).
pub async fn position_png(
    rules: tafl_engine::Rules,
    position: tafl_engine::Position,
) -> Result<Vec<u8>, String> {
    let theme: tafl_render::Theme = BOARD_THEME.parse().map_err(|e| format!("{e}"))?;
    let options = tafl_render::RenderOptions {
        style: tafl_render::Style {
            theme,
            ..Default::default()
        },
        ..Default::default()
    };
    tokio::task::spawn_blocking(move || {
        tafl_render::render(&position, &rules, &options).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

pub fn board_filename(game: GameId, ply: u32) -> String {
    format!("game-{game}-ply-{ply}.png")
}

/// The move number of ply `ply` (1-based), counted in turns of both sides as the board image's
/// caption and the `.otg` record count them: plies 1 and 2 are move 1.
fn move_number(ply: u32) -> u32 {
    ply.div_ceil(2)
}

/// The post after a move: board, notation, captures, warning, whose turn or the end.
pub async fn move_post(data: &Data, game: &GameView, facts: &MoveFacts) -> Post {
    let mover = seat_label(seat_of(game, facts.side));
    let mut lines = vec![format!(
        "**Game #{}** · move {}: {} {mover} played **{}**",
        game.id,
        move_number(facts.ply),
        side_title(facts.side),
        facts.notation
    )];
    if !facts.captures.is_empty() {
        lines.push(format!("Captured: {}", facts.captures.join(", ")));
    }
    if let Some(kind) = facts.warning {
        lines.push(warning_line(kind).to_owned());
    }
    // The game may have moved on (an AI reply) since this move: only end it if this move did.
    let ended_here = !game.status.is_active() && game.ply == facts.ply;
    let next = facts.side.opponent();
    if ended_here {
        lines.push(ending_line(game));
    } else {
        lines.push(turn_line(game, next, facts.deadline_at));
    }
    let components = if ended_here {
        game_buttons::rematch_rows(game)
    } else if game.status.is_active() {
        game_buttons::game_rows(game.id)
    } else {
        Vec::new()
    };
    Post::with_board(
        lines.join("\n"),
        board_png(data, game.id, Some(facts.ply)).await,
        board_filename(game.id, facts.ply),
        // The player who answers this move (or who just lost or drew by it).
        to_move_pings(game, next),
    )
    .with_components(components)
}

/// The post that opens a game: who plays which side, who moves first, the start board.
pub async fn start_post(data: &Data, game: &GameView) -> Post {
    let name = variant_label(game.variant.as_deref());
    let mut lines = vec![format!(
        "**Game #{}** ({name}) begins: Attackers {} vs Defenders {}",
        game.id,
        seat_label(&game.attackers),
        seat_label(&game.defenders)
    )];
    let (pings, components) = match game.side_to_move {
        Some(side) => {
            lines.push(turn_line(game, side, game.deadline_at));
            (to_move_pings(game, side), game_buttons::game_rows(game.id))
        }
        None => {
            lines.push(ending_line(game));
            (Vec::new(), game_buttons::rematch_rows(game))
        }
    };
    Post::with_board(
        lines.join("\n"),
        board_png(data, game.id, Some(game.ply)).await,
        board_filename(game.id, game.ply),
        pings,
    )
    .with_components(components)
}

/// The current board of a game, with whose turn it is (for /board).
pub async fn board_post(data: &Data, game: &GameView) -> Post {
    let mut lines = vec![format!(
        "**Game #{}** · Attackers {} vs Defenders {} · {} moves played",
        game.id,
        seat_label(&game.attackers),
        seat_label(&game.defenders),
        game.ply
    )];
    if let Some(warning) = &game.warning {
        lines.push(warning_line(warning.kind).to_owned());
    }
    if let Some(side) = game.draw_offer_by {
        lines.push(format!(
            "{} offer a draw (`/draw accept` or `/draw decline`).",
            side_title(side)
        ));
    }
    match game.side_to_move {
        Some(side) => lines.push(turn_line(game, side, game.deadline_at)),
        None => lines.push(ending_line(game)),
    }
    let components = match (game.status.is_active(), game.draw_offer_by) {
        (true, Some(_)) => [
            game_buttons::game_rows(game.id),
            game_buttons::draw_answer_rows(game.id),
        ]
        .concat(),
        (true, None) => game_buttons::game_rows(game.id),
        (false, _) => Vec::new(),
    };
    Post::with_board(
        lines.join("\n"),
        board_png(data, game.id, None).await,
        board_filename(game.id, game.ply),
        // A look at the board notifies nobody.
        Vec::new(),
    )
    .with_components(components)
}

/// A game that ended without a move (resignation, timeout, agreed draw, abort): pings its players,
/// except `actor`, who ended it.
pub async fn end_post(data: &Data, game: &GameView, actor: Option<u64>) -> Post {
    let pings = [&game.attackers, &game.defenders]
        .into_iter()
        .filter_map(discord_user)
        .filter(|user| Some(*user) != actor)
        .collect();
    Post::with_board(
        ending_line(game),
        board_png(data, game.id, None).await,
        board_filename(game.id, game.ply),
        pings,
    )
    .with_components(game_buttons::rematch_rows(game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::PlayerId;

    #[test]
    fn move_facts_are_read_from_a_stored_move_played_event() {
        // The data of a move_played event as the store keeps it.
        let data = serde_json::json!({
            "ply": 7, "side": "defenders", "move": "e5-e8", "notation": "e5-e8xe9",
            "captures": ["e9"], "king_captured": null,
            "warning": {"kind": "raichi", "paths": [["e8", "e11"]]},
            "by": null, "side_to_move": "attackers", "deadline_at": 1_000_000, "context": null
        });
        let event: MovePlayedEvent = serde_json::from_value(data).unwrap();
        let facts = MoveFacts::from(&event);
        assert_eq!(facts.ply, 7);
        assert_eq!(facts.side, Side::Defenders);
        assert_eq!(facts.notation, "e5-e8xe9");
        assert_eq!(facts.captures, vec!["e9".to_owned()]);
        assert_eq!(facts.warning, Some(WarningKind::Raichi));
        let incomplete = serde_json::json!({"side": "attackers"});
        assert!(serde_json::from_value::<MovePlayedEvent>(incomplete).is_err());
    }

    #[test]
    fn seats_are_mentions_for_people_and_named_for_the_ai() {
        let person = SeatView {
            player_id: Some(PlayerId(1)),
            handle: None,
            discord_user_id: Some(42),
            name: "alice".into(),
            ai_level: None,
        };
        let ai = SeatView {
            player_id: None,
            handle: None,
            discord_user_id: None,
            name: "AI".into(),
            ai_level: Some(3),
        };
        let http = SeatView {
            player_id: Some(PlayerId(2)),
            handle: None,
            discord_user_id: None,
            name: "bob".into(),
            ai_level: None,
        };
        assert_eq!(seat_label(&person), "<@42>");
        assert_eq!(seat_label(&ai), "taflbot (AI level 3)");
        assert_eq!(seat_label(&http), "bob");
        let everyone = SeatView {
            name: "@everyone".into(),
            ..http
        };
        assert_eq!(seat_label(&everyone), "@\u{200B}everyone");
    }

    #[test]
    fn moves_are_numbered_in_turns_like_the_caption_and_the_record() {
        assert_eq!(move_number(1), 1);
        assert_eq!(move_number(2), 1);
        assert_eq!(move_number(3), 2);
        assert_eq!(move_number(74), 37);
    }

    #[test]
    fn deadlines_are_discord_timestamps_in_seconds() {
        assert_eq!(discord_time(1_700_000_123_456), "<t:1700000123:R>");
    }
}
