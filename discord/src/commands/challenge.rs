//! `/challenge` and `/play`: starting games, against a person (with Accept/Decline buttons) or
//! against the AI.

use crate::answers::command::send;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton, User};

use crate::challenge_posts;
use crate::logging::ErrorChain;

use super::common::{SideParam, answer, autocomplete_variant, parse_clock};
use crate::components::ButtonAction;
use crate::mentions;
use crate::places::here;
use crate::posts::{self, discord_time};
use crate::service::{
    ChallengeView, ClockSpec, DEFAULT_AI_LEVEL, DEFAULT_VARIANT, NewChallenge, Opponent,
    PLAY_DEFAULT_VARIANT, RulesChoice, ServerSettings, ServiceError, SideChoice, variant_label,
};
use crate::{BotError, Context};
use crate::{server, threads};

// Both start a game whose later moves (over HTTP, by the AI) the bot posts in this channel, so
// the member must be allowed to write there, and the bot to post there with the board image
// (`server::check_may_post_game_here`).

/// The clock of a challenge when none is given: three days per move.
pub const DEFAULT_CLOCK: ClockSpec = ClockSpec::PerMove {
    seconds: 3 * 86_400,
};

/// The buttons of a challenge: Accept, Decline (not on an open challenge: anyone may accept,
/// nobody declines for all), and Cancel for its challenger. Their ids carry the challenge id, so
/// they work after a restart.
pub fn challenge_buttons(challenge: &ChallengeView) -> Vec<CreateActionRow> {
    let id = challenge.id;
    let mut buttons = vec![
        CreateButton::new(ButtonAction::Accept(id).custom_id())
            .label("Accept")
            .style(ButtonStyle::Success),
    ];
    if challenge.opponent.is_some() {
        buttons.push(
            CreateButton::new(ButtonAction::Decline(id).custom_id())
                .label("Decline")
                .style(ButtonStyle::Danger),
        );
    }
    buttons.push(
        CreateButton::new(ButtonAction::Cancel(id).custom_id())
            .label("Cancel")
            .style(ButtonStyle::Secondary),
    );
    vec![CreateActionRow::Buttons(buttons)]
}

/// The text of a challenge's message.
pub fn challenge_text(challenge: &ChallengeView) -> String {
    let challenger = posts::seat_label(&challenge.challenger);
    let opponent = challenge
        .opponent
        .as_ref()
        .map(posts::seat_label)
        .unwrap_or_else(|| "Anyone here".to_owned());
    let variant = variant_label(challenge.variant.as_deref());
    let side = match challenge.challenger_side.as_str() {
        "attackers" => format!("{challenger} takes the attackers"),
        "defenders" => format!("{challenger} takes the defenders"),
        _ => "sides drawn at random".to_owned(),
    };
    let kind = if challenge.rated { "rated" } else { "casual" };
    format!(
        "{opponent}, {challenger} challenges you to **{variant}** ({kind}, {side}, {}). Challenge #{} expires {}.",
        challenge.clock,
        challenge.id,
        discord_time(challenge.expires_at)
    )
}

/// Challenge someone to a game here (no opponent: anyone here may accept; me: the AI)
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play (leave out for an open challenge anyone here may accept)"]
    opponent: Option<User>,
    #[description = "Which variant (default: the server's, else copenhagen)"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "Your side (default: random)"] side: Option<SideParam>,
    #[description = "Clock: unlimited, 3d per move, 7d+1d bank, 7d+1d shrinking 25% every 10 to 3h (default: server's)"]
    clock: Option<String>,
    #[description = "Rated or casual (default: rated if timed; against me, the AI: casual)"] rated: Option<
        bool,
    >,
    #[description = "Hide the game from the web and the API (default: public)"] private: Option<
        bool,
    >,
) -> Result<(), BotError> {
    server::check_may_post_game_here(&ctx)?;
    let settings = server::settings(&ctx).await?;
    server::check_game_channel(&ctx, settings.as_ref())?;
    let side = side.map(SideChoice::from).unwrap_or_default();
    let private = private.unwrap_or(false);
    let bot_id = ctx.serenity_context().cache.current_user().id;
    if opponent.as_ref().is_some_and(|o| o.id == bot_id) {
        let variant = variant.unwrap_or_else(|| play_variant(settings.as_ref()));
        let level = settings
            .as_ref()
            .map_or(DEFAULT_AI_LEVEL, |s| s.play_level());
        let terms = AiTerms::new(settings.as_ref(), clock.as_deref(), rated)?;
        return start_ai_game(ctx, variant, level, side, terms, private).await;
    }
    let variant = variant.unwrap_or_else(|| {
        settings
            .as_ref()
            .map_or_else(|| DEFAULT_VARIANT.to_owned(), |s| s.challenge_variant())
    });
    if let Some(opponent) = opponent.as_ref().filter(|o| o.bot) {
        return Err(BotError::BadOption(format!(
            "{} is a bot; challenge a person, or me for the AI.",
            mentions::literal(&opponent.name)
        )));
    }
    let clock = match clock {
        Some(typed) => parse_clock(&typed)?,
        None => challenge_clock(settings.as_ref()),
    };
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let against = match &opponent {
        Some(opponent) => {
            if let Some(guild) = ctx.guild_id() {
                data.seen_in_guild(guild.get(), opponent).await?;
            }
            Opponent::Player(data.player_of(opponent).await?)
        }
        None => Opponent::Open,
    };
    let request = NewChallenge {
        opponent: against,
        rules: RulesChoice::Variant(variant),
        side,
        clock,
        context: Some(here(ctx.channel_id())),
        rated,
        private,
    };
    let created = data.service.challenges().create(me, request).await?;
    // The challenged player is the one to notify; an open challenge pings nobody.
    let pings: Vec<u64> = opponent.iter().map(|o| o.id.get()).collect();
    let reply = poise::CreateReply::default()
        .content(challenge_text(&created.challenge))
        .components(challenge_buttons(&created.challenge))
        .allowed_mentions(mentions::only(&pings));
    let shown = send(&ctx, reply).await?;
    // Remembered so the buttons can be taken off when the challenge expires.
    let shown = match (shown, ctx) {
        (Some(message), _) => Ok(message),
        (None, poise::Context::Application(app)) => app.interaction.get_response(ctx.http()).await,
        (None, poise::Context::Prefix(_)) => return Ok(()),
    };
    match shown {
        Ok(message) => challenge_posts::note(data, created.challenge.id, &message).await,
        Err(e) => {
            tracing::info!(challenge = %created.challenge.id, error = %ErrorChain(&e), "challenge message not read back")
        }
    }
    Ok(())
}

/// Play against the AI here
#[poise::command(slash_command)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "Which variant (default: the server's, else brandubh, small and quick)"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
    #[description = "AI level, 1 (beginner) and up (default: the server's, else 2)"]
    #[min = 1]
    level: Option<u8>,
    #[description = "Your side (default: random)"] side: Option<SideParam>,
    #[description = "Rated: the level's rating is measured from such games (levels 1-4; default: casual)"]
    rated: Option<bool>,
    #[description = "Clock: unlimited, 3d per move, 7d+1d bank (default: none; a rated game: the server's)"]
    clock: Option<String>,
    #[description = "Hide the game from the web and the API (default: public)"] private: Option<
        bool,
    >,
) -> Result<(), BotError> {
    server::check_may_post_game_here(&ctx)?;
    let settings = server::settings(&ctx).await?;
    server::check_game_channel(&ctx, settings.as_ref())?;
    let variant = variant.unwrap_or_else(|| play_variant(settings.as_ref()));
    let side = side.map(SideChoice::from).unwrap_or_default();
    let level = level.unwrap_or_else(|| {
        settings
            .as_ref()
            .map_or(DEFAULT_AI_LEVEL, |s| s.play_level())
    });
    let terms = AiTerms::new(settings.as_ref(), clock.as_deref(), rated)?;
    start_ai_game(ctx, variant, level, side, terms, private.unwrap_or(false)).await
}

/// The clock of a challenge that names none: the server's, else [`DEFAULT_CLOCK`].
fn challenge_clock(settings: Option<&ServerSettings>) -> ClockSpec {
    settings
        .and_then(|s| s.default_clock)
        .unwrap_or(DEFAULT_CLOCK)
}

/// Whether a game against the AI is rated, and its clock: casual and untimed unless asked; a
/// rated one needs a clock (the service refuses it untimed), so it gets the challenge's
/// default when none is typed.
struct AiTerms {
    rated: Option<bool>,
    clock: ClockSpec,
}

impl AiTerms {
    fn new(
        settings: Option<&ServerSettings>,
        clock: Option<&str>,
        rated: Option<bool>,
    ) -> Result<AiTerms, BotError> {
        let clock = match (clock, rated) {
            (Some(typed), _) => parse_clock(typed)?,
            (None, Some(true)) => challenge_clock(settings),
            (None, _) => ClockSpec::Unlimited {},
        };
        Ok(AiTerms { rated, clock })
    }
}

/// Starts a game against the AI: acknowledged at once (the AI may move first), then the start
/// board; the AI's move follows through the announcer.
async fn start_ai_game(
    ctx: Context<'_>,
    variant: String,
    level: u8,
    side: SideChoice,
    terms: AiTerms,
    private: bool,
) -> Result<(), BotError> {
    let data = ctx.data();
    let request = NewChallenge {
        opponent: Opponent::Ai { level },
        rules: RulesChoice::Variant(variant),
        side,
        clock: terms.clock,
        context: Some(here(ctx.channel_id())),
        rated: terms.rated,
        private,
    };
    // What the user can get wrong is refused before the game is created.
    data.service.challenges().check(&request)?;
    let me = data.player_of(ctx.author()).await?;
    // The reply shows the start; the AI's first move waits in the outbox behind it.
    let scope = data.service.discord().in_reply_in(ctx.channel_id().get());
    let created = scope.service().challenges().create(me, request).await?;
    let game = created
        .game
        .ok_or_else(|| ServiceError::internal("the AI challenge started no game"))?;
    let thread =
        threads::open_game_thread(ctx.http(), data, &game, server::start_place(&ctx)).await;
    if let Some(thread) = thread {
        // The start and the AI's moves go to the thread (the outbox); the channel keeps a link.
        let reply = poise::CreateReply::default()
            .content(threads::link_line(data, &game, thread))
            .allowed_mentions(mentions::nobody());
        let sent = send(&ctx, reply).await;
        scope.not_shown().await;
        sent?;
        return Ok(());
    }
    if let poise::Context::Application(app) = ctx {
        data.expect_ai_reply(game.id, &app.interaction.token);
    }
    let post = posts::start_post(data, &game).await;
    answer(&ctx, scope, post.reply()).await
}

/// The variant of a game against the AI that names none: the server's, else a small one.
fn play_variant(settings: Option<&ServerSettings>) -> String {
    settings.map_or_else(
        || PLAY_DEFAULT_VARIANT.to_owned(),
        ServerSettings::play_variant,
    )
}
