//! `/move`: play a move in this channel's game, with autocomplete of the legal moves.

use serenity::all::CreateAutocompleteResponse;

use super::common::{MAX_CHOICES, answer, autocomplete_game, choice, game_here, typed_option};
use crate::domain::GameId;
use crate::posts::{self, MoveFacts};
use crate::service::{GameSummary, MoveRequest};
use crate::{BotError, Context};

/// Letters and digits only, lowercased: "E5 - e8" and "e5e8" compare equal.
fn squash(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The legal moves that start like what was typed, at most [`MAX_CHOICES`].
pub fn matching_moves(legal: &[String], typed: &str) -> Vec<String> {
    let typed = squash(typed);
    legal
        .iter()
        .filter(|m| squash(m).starts_with(&typed))
        .take(MAX_CHOICES)
        .cloned()
        .collect()
}

fn is_ai_game(game: &GameSummary) -> bool {
    game.attackers.ai_level.is_some() || game.defenders.ai_level.is_some()
}

/// Autocomplete of `move`: the legal moves of the game here, for the player to move.
async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let data = ctx.data();
    let chosen = typed_option(&ctx, "game").and_then(|g| g.trim_start_matches('#').parse().ok());
    let legal = async {
        let me = data.player_of(ctx.author()).await?;
        let game = game_here(&ctx, me, chosen).await?;
        Ok::<_, BotError>(data.service.games().legal_moves(game.id, None).await?)
    };
    let choices = match legal.await {
        Ok(legal) => matching_moves(&legal, partial)
            .into_iter()
            .map(|m| choice(&m, m.clone()))
            .collect(),
        Err(e) => {
            tracing::debug!("no move suggestions: {e}");
            Vec::new()
        }
    };
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Make a move in this channel's game, e.g. e5-e8
#[poise::command(slash_command, rename = "move")]
pub async fn move_piece(
    ctx: Context<'_>,
    #[description = "The move, e.g. e5-e8 (start typing for the legal moves)"]
    #[rename = "move"]
    #[autocomplete = "autocomplete_move"]
    mv: String,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let summary = game_here(&ctx, me, game.map(GameId)).await?;
    // Against the AI too, the player's move is checked and answered at once (deferred only past
    // the answer budget); the AI thinks in the service and its move follows up later.
    let against_ai = is_ai_game(&summary);
    let request = MoveRequest {
        text: mv,
        expected_ply: None,
        idempotency_key: None,
    };
    // The reply shows this move (and the end of the game, if the move ended it); the AI's
    // answer waits in the outbox behind it.
    let scope = data.service.discord().in_reply_in(ctx.channel_id().get());
    let played = scope
        .service()
        .games()
        .play(me, summary.id, request)
        .await?;
    if against_ai
        && played.status.is_active()
        && let poise::Context::Application(app) = ctx
    {
        data.expect_ai_reply(played.game_id, &app.interaction.token);
    }
    let view = data.service.games().game(Some(me), played.game_id).await?;
    let post = posts::move_post(data, &view, &MoveFacts::from(&played)).await;
    answer(&ctx, scope, post.reply()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| (*m).to_owned()).collect()
    }

    #[test]
    fn suggestions_follow_what_was_typed_however_it_is_written() {
        let moves = legal(&["e5-e8", "e5-e7", "e4-a4", "d4-d1"]);
        assert_eq!(matching_moves(&moves, "e5"), legal(&["e5-e8", "e5-e7"]));
        assert_eq!(matching_moves(&moves, "E5 e8"), legal(&["e5-e8"]));
        assert_eq!(matching_moves(&moves, "e5-e"), legal(&["e5-e8", "e5-e7"]));
        assert_eq!(matching_moves(&moves, ""), moves);
        assert!(matching_moves(&moves, "z9").is_empty());
    }

    #[test]
    fn at_most_25_suggestions() {
        let many: Vec<String> = (0..40).map(|i| format!("a{}-b{}", i, i)).collect();
        assert_eq!(matching_moves(&many, "a").len(), MAX_CHOICES);
    }
}
