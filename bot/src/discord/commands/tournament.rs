//! `/tournament create|join|leave|standings|start`: tournaments from Discord. One tournament
//! can be joined from several servers (and from the web and over HTTP): the channel a player
//! joins from gets the tournament's news, and each of their games is played in a thread there.
//! Refusals (full, already running, not the organiser) are answered privately, in words.

use serenity::all::CreateAutocompleteResponse;

use super::common::{MAX_CHOICES, autocomplete_variant, choice, fitted, parse_clock};
use crate::discord::answers::command::send;
use crate::discord::tournament_news::{name_of, title};
use crate::discord::{BotError, Context, mentions, server};
use crate::domain::{TournamentId, TournamentStatus};
use crate::service::tournaments::{
    DiscordJoinPlace, Format, NewTournament, TournamentSummary, TournamentView,
};
use crate::service::{PLAY_DEFAULT_VARIANT, RulesChoice};

/// Tournaments: round robins and Swiss, joined from any server, the web or HTTP
#[poise::command(
    slash_command,
    guild_only,
    subcommands("create", "join", "leave", "standings", "start"),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// How a tournament pairs its players.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FormatParam {
    #[name = "round robin"]
    RoundRobin,
    #[name = "double round robin"]
    DoubleRoundRobin,
    #[name = "swiss"]
    Swiss,
}

/// Create a tournament that you organise (you join it like anyone else)
#[poise::command(slash_command, guild_only)]
#[allow(
    clippy::too_many_arguments,
    reason = "one option each, as Discord shows them"
)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "Its name (up to 80 characters)"]
    #[max_length = 80]
    name: String,
    #[description = "round robin: everyone meets everyone once; double: twice; swiss: by score"]
    format: FormatParam,
    #[description = "Rounds of a Swiss tournament"]
    #[min = 1]
    #[max = 255]
    rounds: Option<u32>,
    #[description = "Which variant (default: brandubh)"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Every game's clock: 3d or 12h per move, 7d+1d, or unlimited (default: 3d)"]
    clock: Option<String>,
    #[description = "Rated (default: yes, on a preset with a clock)"] rated: Option<bool>,
    #[description = "Fewest players to start (default: 2)"]
    #[min = 2]
    #[max = 256]
    min_players: Option<u32>,
    #[description = "Most players (default: 64)"]
    #[min = 2]
    #[max = 256]
    max_players: Option<u32>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let format = match (format, rounds) {
        (FormatParam::Swiss, Some(rounds)) => Format::Swiss { rounds },
        (FormatParam::Swiss, None) => {
            return Err(BotError::BadOption(
                "A Swiss tournament needs `rounds`: how many rounds it plays.".into(),
            ));
        }
        (_, Some(_)) => {
            return Err(BotError::BadOption(
                "`rounds` is only for a Swiss tournament; a round robin's follow from its players."
                    .into(),
            ));
        }
        (FormatParam::RoundRobin, None) => Format::RoundRobin,
        (FormatParam::DoubleRoundRobin, None) => Format::DoubleRoundRobin,
    };
    let clock = parse_clock(clock.as_deref().unwrap_or("3d"))?;
    let t = data
        .service
        .tournaments()
        .create(
            me,
            NewTournament {
                name,
                format,
                rules: RulesChoice::Variant(
                    variant.unwrap_or_else(|| PLAY_DEFAULT_VARIANT.to_owned()),
                ),
                clock,
                rated,
                min_players: min_players.unwrap_or(2),
                max_players: max_players.unwrap_or(64),
                starts_at: None,
                vacation: Default::default(),
            },
        )
        .await?;
    let text = format!(
        "{} is open for sign-up ({}, {} players at most). Join it here or from any server with \
         `/tournament join tournament:{}`, or on the web; its organiser starts it with \
         `/tournament start`.",
        title(&t),
        t.clock,
        t.max_players,
        t.id
    );
    send(
        &ctx,
        poise::CreateReply::default()
            .content(fitted(text))
            .allowed_mentions(mentions::nobody()),
    )
    .await?;
    Ok(())
}

/// Join a tournament: its news and your games are posted in this channel
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Which tournament"]
    #[autocomplete = "autocomplete_open"]
    tournament: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    server::check_may_post_game_here(&ctx)?;
    let settings = server::settings(&ctx).await?;
    server::check_game_channel(&ctx, settings.as_ref())?;
    let Some(guild) = ctx.guild_id() else {
        return Err(BotError::BadOption(
            "Join a tournament from a server's channel: its news and your games are posted there."
                .into(),
        ));
    };
    let me = data.player_of(ctx.author()).await?;
    let t = data
        .service
        .tournaments()
        .join_from_discord(
            me,
            TournamentId(tournament),
            DiscordJoinPlace {
                guild_id: guild.get(),
                channel_id: ctx.channel_id().get(),
            },
        )
        .await?;
    let text = format!(
        "{} joined {} ({} of {} players). Its news and your games will be posted here.",
        name_of(&t, me),
        title(&t),
        t.players.len(),
        t.max_players
    );
    reply_nobody_pinged(&ctx, text).await
}

/// Leave a tournament (once it runs: withdraw, your remaining games forfeited)
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "Which tournament"]
    #[autocomplete = "autocomplete_any"]
    tournament: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let before = data
        .service
        .tournaments()
        .get(TournamentId(tournament))
        .await?;
    let who = name_of(&before, me);
    let t = data
        .service
        .tournaments()
        .leave(me, TournamentId(tournament))
        .await?;
    let text = match t.status {
        TournamentStatus::SignUp => format!("{who} left {}.", title(&t)),
        _ => format!(
            "{who} withdrew from {}: their game in progress is resigned and their later games \
             forfeited.",
            title(&t)
        ),
    };
    reply_nobody_pinged(&ctx, text).await
}

/// Start a tournament you organise: round 1's games begin at once
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which tournament"]
    #[autocomplete = "autocomplete_open"]
    tournament: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let t = data
        .service
        .tournaments()
        .start(me, TournamentId(tournament))
        .await?;
    let text = format!(
        "{} has started: {} players. Each game is posted in its players' channels.",
        title(&t),
        t.players.len()
    );
    reply_nobody_pinged(&ctx, text).await
}

/// A tournament's standings, with its tie-breaks
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "Which tournament"]
    #[autocomplete = "autocomplete_any"]
    tournament: i64,
) -> Result<(), BotError> {
    let t = ctx
        .data()
        .service
        .tournaments()
        .get(TournamentId(tournament))
        .await?;
    reply_nobody_pinged(&ctx, standings_text(&t)).await
}

/// The standings as lines: rank, player, points, then the tie-breaks.
fn standings_text(t: &TournamentView) -> String {
    let state = match t.status {
        TournamentStatus::SignUp => "open for sign-up".to_owned(),
        TournamentStatus::Running => format!("round {}", t.round),
        TournamentStatus::Finished => "final".to_owned(),
        TournamentStatus::Cancelled => "cancelled".to_owned(),
    };
    let mut text = format!("{} · standings ({state})", title(t));
    if t.standings.is_empty() {
        text.push_str(&format!(
            "\n{} players have joined; standings show once it starts.",
            t.players.len()
        ));
    }
    for s in &t.standings {
        text.push_str(&format!(
            "\n{}. {} · {} pts · SB {} · Buchholz {} · {}W {}D {}L",
            s.rank,
            name_of(t, s.player),
            s.points,
            s.sonneborn_berger,
            s.buchholz,
            s.wins,
            s.draws,
            s.losses
        ));
    }
    if let Some(winner) = t.winner {
        text.push_str(&format!("\nWinner: {}", name_of(t, winner)));
    }
    fitted(text)
}

async fn reply_nobody_pinged(ctx: &Context<'_>, text: String) -> Result<(), BotError> {
    send(
        ctx,
        poise::CreateReply::default()
            .content(fitted(text))
            .allowed_mentions(mentions::nobody()),
    )
    .await?;
    Ok(())
}

/// Autocomplete of tournaments open for sign-up.
async fn autocomplete_open(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    tournament_choices(ctx, partial, |t| t.status == TournamentStatus::SignUp).await
}

/// Autocomplete of the newest tournaments, whatever their state.
async fn autocomplete_any(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    tournament_choices(ctx, partial, |_| true).await
}

async fn tournament_choices(
    ctx: Context<'_>,
    partial: &str,
    keep: impl Fn(&TournamentSummary) -> bool,
) -> CreateAutocompleteResponse {
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let list = ctx
        .data()
        .service
        .tournaments()
        .list()
        .await
        .unwrap_or_default();
    let choices = list
        .iter()
        .filter(|t| keep(t))
        .filter(|t| {
            typed.is_empty()
                || t.id.to_string().starts_with(&typed)
                || t.name.to_lowercase().contains(&typed)
        })
        .take(MAX_CHOICES)
        .map(|t| choice(&format!("#{} {}", t.id, t.name), t.id.0))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}
