//! `/match create|join|leave|start|cancel|status`: a team match between two Discord servers.
//! It is created in one server (the home team); members join their own server's team from their
//! server (the first member of another server makes it the away team), one board each in the
//! order they join, and may leave before the start (later boards move up); its organiser starts
//! it and every game begins at once, each posted in a thread of each team's channel, or calls it
//! off before the start. Names are shown literally; refusals are private, in words.

use serenity::all::CreateAutocompleteResponse;

use super::common::{
    autocomplete_variant, event_choices, event_game_terms, fitted, reply_nobody_pinged,
};
use crate::domain::{MatchStatus, TeamMatchId, TeamSide};
use crate::match_news::{name_of, team_name, title};
use crate::service::matches::{
    DiscordTeamPlace, MAX_BOARDS, NewTeam, NewTeamMatch, OPEN_TEAM, TeamMatchSummary, TeamMatchView,
};
use crate::service::tournaments::score_text;
use crate::{BotError, Context, server};

/// Team matches: this server against another, a pair of games on each board
#[poise::command(
    slash_command,
    guild_only,
    rename = "match",
    subcommands("create", "join", "leave", "start", "cancel", "status"),
    subcommand_required
)]
pub async fn team_match(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Create a match of this server against another (you organise it; join it to play)
#[poise::command(slash_command, guild_only)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "Its name (up to 80 characters)"]
    #[max_length = 80]
    name: String,
    #[description = "Boards: players a team (default: 4)"]
    #[min = 1]
    #[max = 32]
    boards: Option<u32>,
    #[description = "Which variant (default: brandubh)"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Every game's clock: 3d or 12h per move, 7d+1d, or unlimited (default: 3d)"]
    clock: Option<String>,
    #[description = "Rated (default: yes, on a preset with a clock)"] rated: Option<bool>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let place = team_place(&ctx)?;
    let me = data.player_of(ctx.author()).await?;
    let (rules, clock) = event_game_terms(variant, clock.as_deref())?;
    let m = data
        .service
        .matches()
        .create_from_discord(
            me,
            NewTeamMatch {
                name,
                rules,
                clock,
                rated,
                boards: Some(boards.unwrap_or(4).min(MAX_BOARDS)),
                teams: [place.guild_name.clone(), OPEN_TEAM.to_owned()].map(|name| NewTeam {
                    name,
                    players: Vec::new(),
                }),
            },
            place,
        )
        .await?;
    let text = format!(
        "{} is open: {} against another server, {} boards, {}. Members join their server's team \
         with `/match join match:{}` (here, or from the other server); its organiser starts it \
         with `/match start`.",
        title(&m),
        team_name(&m, TeamSide::Home),
        m.max_boards,
        m.clock,
        m.id
    );
    reply_nobody_pinged(&ctx, text).await
}

/// Join your server's team in a match: you take its next board
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Which match"]
    #[rename = "match"]
    #[autocomplete = "autocomplete_open"]
    id: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let place = team_place(&ctx)?;
    let me = data.player_of(ctx.author()).await?;
    let m = data
        .service
        .matches()
        .join_from_discord(me, TeamMatchId(id), place)
        .await?;
    let Some(team) = m
        .teams
        .iter()
        .find(|t| t.players.iter().any(|p| p.player_id == Some(me)))
    else {
        return reply_nobody_pinged(&ctx, format!("Joined {}.", title(&m))).await;
    };
    let text = format!(
        "{} joined {} for {}: board {} of {}. The match's news and its games will be posted here.",
        name_of(&m, me),
        title(&m),
        team_name(&m, team.team),
        team.players.len(),
        m.max_boards
    );
    reply_nobody_pinged(&ctx, text).await
}

/// Leave your team before the match starts (the players after you move up a board)
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "Which match"]
    #[rename = "match"]
    #[autocomplete = "autocomplete_open"]
    id: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let before = data.service.matches().get(TeamMatchId(id)).await?;
    let who = name_of(&before, me);
    let m = data.service.matches().leave(me, TeamMatchId(id)).await?;
    reply_nobody_pinged(&ctx, format!("{who} left {}.", title(&m))).await
}

/// Call off a match you organise, before it starts: no game of it is played
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which match"]
    #[rename = "match"]
    #[autocomplete = "autocomplete_open"]
    id: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let m = data.service.matches().cancel(me, TeamMatchId(id)).await?;
    let text = format!("{} is called off: no game of it is played.", title(&m));
    reply_nobody_pinged(&ctx, text).await
}

/// Start a match you organise: every game begins at once
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which match"]
    #[rename = "match"]
    #[autocomplete = "autocomplete_open"]
    id: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let m = data.service.matches().start(me, TeamMatchId(id)).await?;
    let text = format!(
        "{} has started: {} boards, {} games. Each game is posted in both teams' channels.",
        title(&m),
        m.boards.len(),
        m.boards.len() * 2
    );
    reply_nobody_pinged(&ctx, text).await
}

/// A match's teams, boards and score
#[poise::command(slash_command, guild_only)]
pub async fn status(
    ctx: Context<'_>,
    #[description = "Which match"]
    #[rename = "match"]
    #[autocomplete = "autocomplete_any"]
    id: i64,
) -> Result<(), BotError> {
    let m = ctx.data().service.matches().get(TeamMatchId(id)).await?;
    reply_nobody_pinged(&ctx, status_text(&m)).await
}

/// The score, then each board with its games' results.
fn status_text(m: &TeamMatchView) -> String {
    let state = match m.status {
        MatchStatus::SignUp => "open for sign-up",
        MatchStatus::Running => "being played",
        MatchStatus::Finished => "final",
        MatchStatus::Cancelled => "called off",
    };
    let points = |team: TeamSide| {
        m.teams
            .iter()
            .find(|t| t.team == team)
            .map_or_else(|| score_text(0.0), |t| score_text(t.points))
    };
    let mut text = format!(
        "{} · {state}\n{} {} – {} {}",
        title(m),
        team_name(m, TeamSide::Home),
        points(TeamSide::Home),
        points(TeamSide::Away),
        team_name(m, TeamSide::Away)
    );
    if m.status == MatchStatus::SignUp {
        for t in &m.teams {
            let names: Vec<String> = t
                .players
                .iter()
                .filter_map(|p| p.player_id)
                .map(|p| name_of(m, p))
                .collect();
            text.push_str(&format!(
                "\n{}: {} of {} ({})",
                team_name(m, t.team),
                t.players.len(),
                m.max_boards,
                if names.is_empty() {
                    "nobody yet".to_owned()
                } else {
                    names.join(", ")
                }
            ));
        }
    }
    for b in &m.boards {
        let games: Vec<String> = b
            .games
            .iter()
            .map(|g| {
                let result = match g.result {
                    Some(r) => format!("{r:?}").to_lowercase(),
                    None => "playing".to_owned(),
                };
                format!("#{} {result}", g.game_id)
            })
            .collect();
        text.push_str(&format!(
            "\nBoard {}: {} vs {} · {}",
            b.board,
            name_of(m, b.home),
            name_of(m, b.away),
            games.join(", ")
        ));
    }
    match (m.status, m.winner) {
        (MatchStatus::Finished, Some(team)) => {
            text.push_str(&format!("\nWinner: {}", team_name(m, team)));
        }
        (MatchStatus::Finished, None) => text.push_str("\nA draw."),
        _ => {}
    }
    fitted(text)
}

/// The server and channel the command came from, with the server's name (the team's name).
fn team_place(ctx: &Context<'_>) -> Result<DiscordTeamPlace, BotError> {
    server::check_may_post_game_here(ctx)?;
    let Some(guild) = ctx.guild_id() else {
        return Err(BotError::BadOption(
            "A team match is played from a server's channel: its news and games are posted there."
                .into(),
        ));
    };
    let guild_name = ctx
        .guild()
        .map_or_else(|| format!("Server {guild}"), |g| g.name.clone());
    Ok(DiscordTeamPlace {
        guild_id: guild.get(),
        guild_name,
        channel_id: ctx.channel_id().get(),
    })
}

/// Autocomplete of matches open for sign-up.
async fn autocomplete_open(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    match_choices(ctx, partial, |m| m.status == MatchStatus::SignUp).await
}

/// Autocomplete of the newest matches, whatever their state.
async fn autocomplete_any(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    match_choices(ctx, partial, |_| true).await
}

async fn match_choices(
    ctx: Context<'_>,
    partial: &str,
    keep: impl Fn(&TeamMatchSummary) -> bool,
) -> CreateAutocompleteResponse {
    let list = ctx.data().service.matches().list();
    event_choices(partial, list, |m| {
        keep(m).then_some((m.id.0, m.name.as_str()))
    })
    .await
}
