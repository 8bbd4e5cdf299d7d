//! `/tournament create|join|leave|standings|start`: tournaments from Discord. One tournament
//! can be joined from several servers (and from the web and over HTTP): the channel a player
//! joins from gets the tournament's news, and each of their games is played in a thread there.
//! Refusals (full, already running, not the organiser) are answered privately, in words.

use serenity::all::CreateAutocompleteResponse;

use super::common::{
    autocomplete_variant, event_choices, event_game_terms, fitted, reply_nobody_pinged,
};
use crate::domain::{TournamentId, TournamentStatus};
use crate::posts::discord_time;
use crate::service::TournamentVacation;
use crate::service::tournaments::{
    DiscordJoinPlace, Format, NewTournament, TournamentSummary, TournamentView, WithdrawalRule,
    read_start_time, score_text,
};
use crate::tournament_news::{format_words, name_of, title};
use crate::{BotError, Context, server};

/// Tournaments: round robins, Swiss, groups then knockout, joined from any server or the web
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
    #[name = "groups then knockout"]
    GroupsKnockout,
}

/// What a withdrawal does to the player's games.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum WithdrawalParam {
    #[name = "forfeit the games left"]
    Forfeit,
    #[name = "annul all their games"]
    Annul,
    #[name = "annul if under half played"]
    AnnulUnderHalf,
}

impl From<WithdrawalParam> for WithdrawalRule {
    fn from(param: WithdrawalParam) -> WithdrawalRule {
        match param {
            WithdrawalParam::Forfeit => WithdrawalRule::Forfeit,
            WithdrawalParam::Annul => WithdrawalRule::Annul,
            WithdrawalParam::AnnulUnderHalf => WithdrawalRule::AnnulUnderHalf,
        }
    }
}

/// The largest group of groups then knockout when none is asked, as on the web form.
const DEFAULT_GROUP_SIZE: u32 = 4;

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
    #[description = "round robin: all meet once; double: twice; swiss: by score; groups, winners go on"]
    format: FormatParam,
    #[description = "Rounds of a Swiss tournament"]
    #[min = 1]
    #[max = 255]
    rounds: Option<u32>,
    #[description = "Largest group, for groups then knockout (default: 4)"]
    #[min = 2]
    #[max = 256]
    group_size: Option<u32>,
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
    #[description = "When it starts by itself, in UTC: 2026-12-01 18:00, or in 2 days (default: you start it)"]
    #[max_length = 40]
    starts: Option<String>,
    #[description = "Vacation in its games: allowed (default), forbidden, or at most N days a player: 5"]
    #[max_length = 20]
    vacation: Option<String>,
    #[description = "Days between round starts (default: each round as soon as the one before ends)"]
    #[min = 1]
    #[max = 90]
    round_days: Option<u32>,
    #[description = "When a player withdraws (default: forfeit the games left; annulling is not for Swiss)"]
    withdrawal: Option<WithdrawalParam>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let format = format_of(format, rounds, group_size)?;
    let (rules, clock) = event_game_terms(variant, clock.as_deref())?;
    let vacation = match vacation.as_deref() {
        Some(text) => TournamentVacation::parse_text(text)
            .map_err(|e| BotError::BadOption(capitalised(&e.to_string())))?,
        None => TournamentVacation::Allowed,
    };
    let starts_at = match starts.as_deref() {
        Some(text) => Some(
            read_start_time(text, data.service.now_ms())
                .map_err(|e| BotError::BadOption(capitalised(&e.to_string())))?,
        ),
        None => None,
    };
    let me = data.player_of(ctx.author()).await?;
    let t = data
        .service
        .tournaments()
        .create(
            me,
            NewTournament {
                name,
                format,
                rules,
                clock,
                rated,
                min_players: min_players.unwrap_or(2),
                max_players: max_players.unwrap_or(64),
                starts_at,
                vacation,
                round_days,
                withdrawal: withdrawal.map(WithdrawalRule::from).unwrap_or_default(),
            },
        )
        .await?;
    let start = match t.starts_at {
        Some(at) => format!("it starts by itself {}", discord_time(at)),
        None => "its organiser starts it with `/tournament start`".to_owned(),
    };
    let text = format!(
        "{} is open for sign-up ({}, {}, {}, {} players at most; {}). Join it here or from any \
         server with `/tournament join tournament:{}`, or on the web; {start}.",
        title(&t),
        format_words(&t),
        t.clock,
        t.vacation,
        t.max_players,
        t.withdrawal.sentence(),
        t.id
    );
    reply_nobody_pinged(&ctx, text).await
}

/// The format asked for, its `rounds` and `group_size` checked against it.
fn format_of(
    format: FormatParam,
    rounds: Option<u32>,
    group_size: Option<u32>,
) -> Result<Format, BotError> {
    let refused = |text: &str| Err(BotError::BadOption(text.to_owned()));
    match (format, rounds, group_size) {
        (FormatParam::Swiss, Some(rounds), None) => Ok(Format::Swiss { rounds }),
        (FormatParam::Swiss, None, _) => {
            refused("A Swiss tournament needs `rounds`: how many rounds it plays.")
        }
        (FormatParam::GroupsKnockout, None, size) => Ok(Format::GroupsKnockout {
            group_size: size.unwrap_or(DEFAULT_GROUP_SIZE),
        }),
        (_, Some(_), _) => refused(
            "`rounds` is only for a Swiss tournament; the other formats' rounds follow from \
             their players.",
        ),
        (_, None, Some(_)) => {
            refused("`group_size` is only for groups then knockout: the largest group.")
        }
        (FormatParam::RoundRobin, None, None) => Ok(Format::RoundRobin),
        (FormatParam::DoubleRoundRobin, None, None) => Ok(Format::DoubleRoundRobin),
    }
}

/// `text` with its first letter upper-case, as a sentence of its own.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect::<String>() + "."
    })
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

/// Leave a tournament (once it runs: withdraw; its rule forfeits or annuls your games)
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
        _ if withdrawn_annulled(&t, me) => format!(
            "{who} withdrew from {}: their game in progress is resigned, and under its rule all \
             their games are annulled (they count for nobody).",
            title(&t)
        ),
        _ => format!(
            "{who} withdrew from {}: their game in progress is resigned and their later games \
             forfeited.",
            title(&t)
        ),
    };
    reply_nobody_pinged(&ctx, text).await
}

/// Whether `player` withdrew with their games annulled.
fn withdrawn_annulled(t: &TournamentView, player: crate::domain::PlayerId) -> bool {
    t.players
        .iter()
        .any(|p| p.player.player_id == Some(player) && p.games_annulled)
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
    let mut text = format!(
        "{} · standings ({state}) · {}",
        title(t),
        t.withdrawal.sentence()
    );
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
            score_text(s.points),
            score_text(s.sonneborn_berger),
            score_text(s.buchholz),
            s.wins,
            s.draws,
            s.losses
        ));
    }
    let unranked: Vec<String> = t
        .players
        .iter()
        .filter(|p| p.games_annulled)
        .filter_map(|p| p.player.player_id)
        .map(|p| name_of(t, p))
        .collect();
    if !unranked.is_empty() {
        text.push_str(&format!(
            "\nNot ranked (withdrew, games annulled): {}",
            unranked.join(", ")
        ));
    }
    if let Some(winner) = t.winner {
        text.push_str(&format!("\nWinner: {}", name_of(t, winner)));
    }
    fitted(text)
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
    let list = ctx.data().service.tournaments().list();
    event_choices(partial, list, |t| {
        keep(t).then_some((t.id.0, t.name.as_str()))
    })
    .await
}
