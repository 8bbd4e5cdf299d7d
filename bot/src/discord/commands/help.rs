//! `/help`: what the bot does and how to play.

use crate::discord::answers::command::send;
use poise::CreateReply;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton, CreateEmbed};

use crate::discord::components::ButtonAction;
use crate::discord::{BotError, Context};

/// Accent colour of the bot's embeds (a dark wood brown).
pub const EMBED_COLOUR: u32 = 0x8B_5A_2B;

/// One line per command, as shown by /help.
const COMMANDS: &[(&str, &str)] = &[
    (
        "/challenge opponent variant side clock rated private",
        "challenge someone (or me, for a game against the AI; leave out opponent for an open challenge anyone here may accept); rated by default with a clock",
    ),
    (
        "/challenges",
        "your open challenges, sent and received, with Accept/Decline/Cancel buttons",
    ),
    (
        "/play variant level side",
        "play against the AI; Brandubh (7x7) unless you or the server pick another",
    ),
    (
        "/move move",
        "make a move, e.g. `e5-e8` (autocomplete lists the legal moves)",
    ),
    (
        "/board text flip",
        "show the board of the game here; `text:true` as text (for screen readers), `flip:true` remembers to show your private boards turned round",
    ),
    ("/resign", "give up the game"),
    (
        "/draw offer|accept|decline",
        "offer, accept or decline a draw",
    ),
    ("/games", "your active games: where, whose turn, deadline"),
    (
        "/analyze game",
        "the computer's analysis of a game: each side's accuracy, the worst moves with a better line, and a chart",
    ),
    (
        "/web",
        "a private link that signs you in to the web client, to play your games in a browser",
    ),
    (
        "/privacy",
        "what taflbot keeps about you, and a button to delete it (privately)",
    ),
    (
        "/hint",
        "the AI's move for you now, in a casual game against the AI (privately)",
    ),
    (
        "/leaderboard variant server_only",
        "the best rated players of a variant (everyone, or this server's)",
    ),
    (
        "/stats user",
        "ratings, results and current games (yours, or someone's)",
    ),
    (
        "/handle new",
        "your handle, by which people find you; change it",
    ),
    (
        "/record",
        "the moves so far, and the game as an OpenTafl .otg file",
    ),
    (
        "/history user page",
        "finished games (yours, or someone's), latest first",
    ),
    (
        "/annotate add|post game",
        "comment on a move of your finished game; post a game's notes here",
    ),
    (
        "/rules variant",
        "the rules of a variant and its start position",
    ),
    (
        "/token",
        "a private API token to play the same games over HTTP",
    ),
    (
        "/notify dm",
        "`on`: a direct message when it is your move, and before deadlines",
    ),
    (
        "/vacation start|end|status",
        "days away: your correspondence clocks stop and your opponents are told",
    ),
    (
        "/follow game",
        "post one of your games here from now on (e.g. one started over HTTP)",
    ),
    (
        "/conditional add|list|remove|clear",
        "queue your answers to your opponent's next moves, played at once; only you see them",
    ),
    (
        "/tournament create|join|leave|standings|start",
        "tournaments joined from any server or the web: news and your games posted where you joined",
    ),
    (
        "/match create|join|leave|start|cancel|status",
        "a team match, this server against another: a board each, both sides, the score summed",
    ),
    (
        "/abort game",
        "end a game without a result (its players before both moved, or moderators)",
    ),
    (
        "/settings",
        "this server's defaults, threads, game channels, moderator role (Manage Server)",
    ),
    ("/help", "this message"),
];

/// What the bot does, and the list of commands
#[poise::command(slash_command, ephemeral)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    let list: String = COMMANDS
        .iter()
        .map(|(usage, what)| format!("`{usage}` - {what}\n"))
        .collect();
    let embed = CreateEmbed::new()
        .title("taflbot: tafl by correspondence")
        .description(format!(
            "Play hnefatafl and its cousins here, one move at a time; games can last days. \
             Each game gets its own thread, where the player to move is pinged.\n\n{list}\n\
             Under each board: **Pick a move** (menus for the piece and its destination), **Legal moves**, \
             **Flip**, **Offer draw**, **Resign** (asks first); after a game, **Rematch** (sides swapped).\n\n\
             New to tafl? `/play` starts Brandubh: a 7x7 board with 13 pieces, learned in one \
             game and played in minutes, before the 11x11 Copenhagen of `/challenge`."
        ))
        .colour(EMBED_COLOUR);
    let button = CreateButton::new(ButtonAction::HowToPlay.custom_id())
        .label("How to play")
        .style(ButtonStyle::Secondary);
    let reply = CreateReply::default()
        .embed(embed)
        .components(vec![CreateActionRow::Buttons(vec![button])])
        .ephemeral(true);
    send(&ctx, reply).await?;
    Ok(())
}

/// The short rules primer behind the "How to play" button.
pub fn how_to_play_embed() -> CreateEmbed {
    CreateEmbed::new()
        .title("How to play tafl")
        .description(
            "Two unequal sides: the attackers surround the board; the defenders guard their king in the middle.\n\
             - Every piece moves like a rook: any distance in a straight line, never jumping.\n\
             - Capture a piece by trapping it between two of yours (custodial capture).\n\
             - The defenders win when the king escapes (to a corner or the edge, by variant).\n\
             - The attackers win by capturing the king.\n\
             \"Raichi!\" means the king has one open road to escape, \"Tuichu!\" two: block them!\n\
             Use `/rules` for the exact rules of a variant.",
        )
        .colour(EMBED_COLOUR)
}
