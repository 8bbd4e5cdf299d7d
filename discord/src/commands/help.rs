//! `/help`: what the bot does and how to play.

use crate::answers::command::send;
use poise::CreateReply;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton, CreateEmbed};

use crate::components::ButtonAction;
use crate::{BotError, Context};

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
        "/stats user level",
        "ratings, results and current games (yours, someone's, or the AI level's)",
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
        "/puzzle variant",
        "a position from a real game with one winning line: find it with the picker; your puzzle rating moves (privately)",
    ),
    (
        "/explorer variant moves",
        "the opening explorer: each move from a position, how often it was played, who won, and the engine's view",
    ),
    (
        "/abort game",
        "end a game without a result (its players before both moved, or moderators)",
    ),
    (
        "/settings",
        "this server's defaults, threads, game channels, moderator role, daily puzzle (Manage Server)",
    ),
    ("/help", "this message"),
];

/// What the bot does, and the list of commands
#[poise::command(slash_command, ephemeral)]
pub async fn help(ctx: Context<'_>) -> Result<(), BotError> {
    let embed = CreateEmbed::new()
        .title("taflbot: tafl by correspondence")
        .description(description())
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

/// What /help says: the bot in a sentence, every command, the buttons under a board.
fn description() -> String {
    let list: String = COMMANDS
        .iter()
        .map(|(usage, what)| format!("`{usage}` - {what}\n"))
        .collect();
    format!(
        "Play hnefatafl and its cousins here, one move at a time; games can last days. \
         Each game gets its own thread, where the player to move is pinged.\n\n{list}\n\
         Under each board: **Pick a move** (menus for the piece and its destination), **Legal moves**, \
         **Flip**, **Offer draw**, **Resign** (asks first); after a game, **Rematch** (sides swapped).\n\n\
         New to tafl? `/play` starts Brandubh: a 7x7 board with 13 pieces, learned in one \
         game and played in minutes, before the 11x11 Copenhagen of `/challenge`."
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord's limit on an embed's description, in characters.
    const EMBED_DESCRIPTION_CHARS: usize = 4_096;

    /// The command a /help line is about: "/annotate add|post game" is about "annotate".
    fn command_of(usage: &str) -> &str {
        usage
            .trim_start_matches('/')
            .split(' ')
            .next()
            .unwrap_or_default()
    }

    #[test]
    fn help_lists_every_registered_command_and_only_those_within_one_embed() {
        let registered: Vec<String> = super::super::all()
            .into_iter()
            .map(|c| c.name.into_owned())
            .collect();
        for name in &registered {
            assert!(
                COMMANDS.iter().any(|(usage, _)| command_of(usage) == name),
                "/help does not list /{name}"
            );
        }
        for (usage, _) in COMMANDS {
            assert!(
                registered.iter().any(|name| name == command_of(usage)),
                "/help lists {usage}, which is not registered"
            );
        }
        let shown = description().chars().count();
        assert!(
            shown <= EMBED_DESCRIPTION_CHARS,
            "/help is {shown} characters; an embed holds {EMBED_DESCRIPTION_CHARS}"
        );
    }
}
