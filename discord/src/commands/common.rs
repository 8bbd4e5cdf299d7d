//! What several commands share: finding the game of this channel, the `game` (a game here, a
//! finished game of the player's) and `variant` autocompletes, the side choice, clock parsing.

use serenity::all::{AutocompleteChoice, CreateAutocompleteResponse, ResolvedValue};

use crate::domain::{GameId, GameStatus, PlayerId};
use crate::places::here;
use crate::service::{ClockSpec, GameSummary, HistoryQuery, InReply, SideChoice};
use crate::{BotError, Context};

/// Discord shows at most 25 autocomplete choices.
pub const MAX_CHOICES: usize = 25;

/// The most characters Discord takes in a message's content.
const MAX_CONTENT_CHARS: usize = 2_000;

/// The most characters of an autocomplete choice's name, and of a string choice's value:
/// Discord refuses the whole answer (and the user sees no suggestions) for one longer choice.
pub const MAX_CHOICE_CHARS: usize = 100;

/// An autocomplete choice whose name is cut to Discord's 100 characters, on one line. (A
/// choice's name is shown as plain text: no markdown to escape.)
pub fn choice(name: &str, value: impl Into<serde_json::Value>) -> AutocompleteChoice {
    AutocompleteChoice::new(cut_to(name, MAX_CHOICE_CHARS), value)
}

/// `text` on one line and at most `max` characters, with an ellipsis where it was cut.
pub fn cut_to(text: &str, max: usize) -> String {
    let line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if line.chars().count() <= max {
        return line;
    }
    let cut: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

/// `text` cut to what Discord takes in one message, with an ellipsis where it was cut: a reply
/// built from many names is shortened, never refused.
pub fn fitted(text: String) -> String {
    if text.chars().count() <= MAX_CONTENT_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_CONTENT_CHARS - 1).collect();
    format!("{cut}…")
}

/// Which side the command's user wants.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SideParam {
    #[name = "attackers"]
    Attackers,
    #[name = "defenders"]
    Defenders,
    #[name = "random"]
    Random,
}

impl From<SideParam> for SideChoice {
    fn from(side: SideParam) -> Self {
        match side {
            SideParam::Attackers => SideChoice::Attackers,
            SideParam::Defenders => SideChoice::Defenders,
            SideParam::Random => SideChoice::Random,
        }
    }
}

/// The active games of this channel.
pub async fn games_here(
    ctx: &Context<'_>,
    viewer: Option<PlayerId>,
) -> Result<Vec<GameSummary>, BotError> {
    Ok(ctx
        .data()
        .service
        .games()
        .games_in_place(&here(ctx.channel_id()), viewer)
        .await?)
}

/// A game in a message: its number and players, names shown literally.
fn describe(game: &GameSummary) -> String {
    format!(
        "#{} {} vs {}",
        game.id,
        crate::mentions::literal(&game.attackers.name),
        crate::mentions::literal(&game.defenders.name)
    )
}

/// A game as an autocomplete choice's name (plain text, cut to Discord's limit by [`choice`]).
fn choice_name(game: &GameSummary) -> String {
    format!(
        "#{} {} vs {}",
        game.id, game.attackers.name, game.defenders.name
    )
}

/// The game a command in this channel is about: the `game` option if given, else the only
/// game here (or the only one here that the player plays in).
pub async fn game_here(
    ctx: &Context<'_>,
    player: PlayerId,
    chosen: Option<GameId>,
) -> Result<GameSummary, BotError> {
    let games = games_here(ctx, Some(player)).await?;
    if let Some(id) = chosen {
        return games
            .into_iter()
            .find(|g| g.id == id)
            .ok_or(BotError::GameNotHere(id));
    }
    let mine: Vec<&GameSummary> = games.iter().filter(|g| g.your_side.is_some()).collect();
    match (games.len(), mine.len()) {
        (0, _) => Err(BotError::NoGameHere),
        (1, _) => Ok(games[0].clone()),
        (_, 1) => Ok(mine[0].clone()),
        _ => Err(BotError::SeveralGames(
            games.iter().map(describe).collect::<Vec<_>>().join(", "),
        )),
    }
}

/// Sends `reply` as this command's answer and settles `scope`: if Discord took the reply, the
/// change it shows is done; if not, the outbox posts the change in the channel instead.
pub async fn answer(
    ctx: &Context<'_>,
    scope: InReply,
    reply: poise::CreateReply,
) -> Result<(), BotError> {
    match crate::answers::command::send(ctx, reply).await {
        Ok(_) => {
            scope.shown().await;
            Ok(())
        }
        Err(e) => {
            scope.not_shown().await;
            Err(BotError::ReplyNotSent(Box::new(e)))
        }
    }
}

/// The value the user already gave for option `name` while typing another one (autocomplete).
pub fn typed_option(ctx: &Context<'_>, name: &str) -> Option<String> {
    let poise::Context::Application(app) = ctx else {
        return None;
    };
    app.interaction
        .data
        .options()
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match &o.value {
            ResolvedValue::Integer(i) => Some(i.to_string()),
            ResolvedValue::String(s) => Some((*s).to_owned()),
            ResolvedValue::Autocomplete { value, .. } => Some((*value).to_owned()),
            _ => None,
        })
}

/// Autocomplete of the `game` option: the active games of this channel.
pub async fn autocomplete_game(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let games = games_here(&ctx, None).await.unwrap_or_default();
    CreateAutocompleteResponse::new().set_choices(game_choices(&games, partial))
}

/// Autocomplete of a `game` option about a finished game (`/annotate`): the player's latest
/// finished games, filtered by the number typed.
pub async fn autocomplete_finished_game(
    ctx: Context<'_>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let games = finished_games(&ctx).await;
    CreateAutocompleteResponse::new().set_choices(game_choices(&games, partial))
}

/// Autocomplete of `/analyze`'s `game`: the active games of this channel, then the player's
/// latest finished games (what an analysis is mostly asked for).
pub async fn autocomplete_game_to_analyse(
    ctx: Context<'_>,
    partial: &str,
) -> CreateAutocompleteResponse {
    let mut games = games_here(&ctx, None).await.unwrap_or_default();
    for game in finished_games(&ctx).await {
        if !games.iter().any(|g| g.id == game.id) {
            games.push(game);
        }
    }
    CreateAutocompleteResponse::new().set_choices(game_choices(&games, partial))
}

/// The author's latest finished games, as many as a list of choices shows; none when they
/// cannot be read (an autocomplete answers what it can).
async fn finished_games(ctx: &Context<'_>) -> Vec<GameSummary> {
    let data = ctx.data();
    let Ok(me) = data.player_of(ctx.author()).await else {
        return Vec::new();
    };
    let query = HistoryQuery {
        status: Some(GameStatus::Finished),
        variant: None,
        page: 1,
        page_size: MAX_CHOICES as u32,
    };
    match data
        .service
        .games()
        .games_of_player(me, Some(me), query)
        .await
    {
        Ok(page) => page.items,
        Err(e) => {
            tracing::warn!("finished games for an autocomplete: {e}");
            Vec::new()
        }
    }
}

/// `games` as autocomplete choices, those whose number starts with what was typed.
fn game_choices(games: &[GameSummary], partial: &str) -> Vec<AutocompleteChoice> {
    let typed = partial.trim().trim_start_matches('#');
    games
        .iter()
        .filter(|g| g.id.to_string().starts_with(typed))
        .take(MAX_CHOICES)
        .map(|g| choice(&choice_name(g), g.id.get()))
        .collect()
}

/// Autocomplete of the `variant` option: the preset ids, filtered by what was typed.
pub async fn autocomplete_variant(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let typed = partial.trim().to_ascii_lowercase();
    let choices = ctx
        .data()
        .service
        .games()
        .variants()
        .into_iter()
        .filter(|v| v.id.contains(&typed) || v.name.to_ascii_lowercase().contains(&typed))
        .take(MAX_CHOICES)
        .map(|v| choice(&format!("{} ({}x{})", v.name, v.dim, v.dim), v.id))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Reads a clock: `unlimited`, `3d` or `12h` per move, a bank plus increment `7d+1d`, or one
/// whose increment shrinks, `10d+12h shrinking 25% every 10 to 3h` (the service's words).
pub fn parse_clock(text: &str) -> Result<ClockSpec, BotError> {
    crate::service::parse_clock_text(text).map_err(|e| BotError::BadOption(e.to_string()))
}

/// The rules and clock of every game of a tournament or a team match, as their `create`
/// options give them: Brandubh and 3 days per move when not said.
pub fn event_game_terms(
    variant: Option<String>,
    clock: Option<&str>,
) -> Result<(crate::service::RulesChoice, ClockSpec), BotError> {
    let rules = crate::service::RulesChoice::Variant(
        variant.unwrap_or_else(|| crate::service::PLAY_DEFAULT_VARIANT.to_owned()),
    );
    Ok((rules, parse_clock(clock.unwrap_or("3d"))?))
}

/// The autocomplete of a tournament or match option: "#id name" of the newest `items` (id,
/// name, whether it is offered), read by `list` (none when the read fails).
pub async fn event_choices<T>(
    partial: &str,
    list: impl std::future::Future<Output = Result<Vec<T>, crate::service::ServiceError>>,
    item: impl Fn(&T) -> Option<(i64, &str)>,
) -> CreateAutocompleteResponse {
    let list = list.await.unwrap_or_default();
    numbered_choices(partial, list.iter().filter_map(item))
}

/// Answers the command with `text`, pinging nobody (names in it are shown, not pinged).
pub async fn reply_nobody_pinged(ctx: &Context<'_>, text: String) -> Result<(), BotError> {
    crate::answers::command::send(
        ctx,
        poise::CreateReply::default()
            .content(fitted(text))
            .allowed_mentions(crate::mentions::nobody()),
    )
    .await?;
    Ok(())
}

/// The autocomplete choices "#id name" among `items` (id, name) whose id starts with, or name
/// holds, what was typed (a leading `#` aside).
pub fn numbered_choices<'a>(
    partial: &str,
    items: impl Iterator<Item = (i64, &'a str)>,
) -> CreateAutocompleteResponse {
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let choices = items
        .filter(|(id, name)| {
            typed.is_empty()
                || id.to_string().starts_with(&typed)
                || name.to_lowercase().contains(&typed)
        })
        .take(MAX_CHOICES)
        .map(|(id, name)| choice(&format!("#{id} {name}"), id))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_names_fit_discords_hundred_characters_on_one_line() {
        let long = format!("#12 {} vs {}", "A".repeat(64), "B".repeat(64));
        let cut = cut_to(&long, MAX_CHOICE_CHARS);
        assert_eq!(cut.chars().count(), MAX_CHOICE_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(cut_to("two\nlines", MAX_CHOICE_CHARS), "two lines");
        assert_eq!(cut_to("short", MAX_CHOICE_CHARS), "short");
    }

    #[test]
    fn clocks_are_read_forgivingly() {
        assert_eq!(parse_clock("unlimited").unwrap(), ClockSpec::Unlimited {});
        assert_eq!(
            parse_clock(" 3d ").unwrap(),
            ClockSpec::PerMove {
                seconds: 3 * 86_400
            }
        );
        assert_eq!(
            parse_clock("12h").unwrap(),
            ClockSpec::PerMove {
                seconds: 12 * 3_600
            }
        );
        assert_eq!(
            parse_clock("7d+1d").unwrap(),
            ClockSpec::bank(7 * 86_400, 86_400)
        );
    }

    #[test]
    fn unreadable_clocks_say_what_is_accepted() {
        for bad in ["soon", "3x", "d", "99999999999999999999d", "0d"] {
            let error = parse_clock(bad).unwrap_err();
            assert!(error.is_user_error(), "{bad}: {error}");
            assert!(!error.user_message().is_empty());
        }
    }
}
