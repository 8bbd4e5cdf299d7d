//! `/annotate`: a finished game's notes from Discord. `add` writes a comment on one of its
//! moves (who may is what HTTP allows: its players, or whoever imported it); `post` posts the
//! game's notes in the channel it is used in (the game's thread, as a rule), a line each
//! ("12. d4-d7: the decisive move"), the text escaped and pinging nobody, over as many
//! messages as Discord's 2,000 characters need, up to a bound.

use poise::CreateReply;

use super::common::{autocomplete_finished_game, cut_to};
use crate::answers::command::send;
use crate::domain::GameId;
use crate::service::MoveView;
use crate::service::study::{AnnotateRequest, AnnotationView, VariationMove};
use crate::{BotError, Context, mentions};

/// The most characters of one Discord message.
const MESSAGE_CHARS: usize = 2_000;
/// The most characters of a comment shown (the whole is on the game's page): with its escapes
/// and a variation's 60 moves, one note's line stays well within a message.
const COMMENT_SHOWN_CHARS: usize = 400;
/// The most messages one `/annotate post` sends: a thorough study is read on the web.
const MAX_MESSAGES: usize = 5;

/// Notes on a finished game: add one, or post them here
#[poise::command(
    slash_command,
    subcommands("annotate_add", "annotate_post"),
    subcommand_required
)]
pub async fn annotate(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Comment on a move of a finished game of yours
#[poise::command(slash_command, ephemeral, rename = "add")]
pub async fn annotate_add(
    ctx: Context<'_>,
    #[description = "Which finished game: its number"]
    #[min = 1]
    #[autocomplete = "autocomplete_finished_game"]
    game: i64,
    #[description = "The move it is about: 1 is the first move"]
    #[min = 1]
    ply: u32,
    #[description = "What you say about it"]
    #[max_length = 2000]
    text: String,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let id = GameId(game);
    let request = AnnotateRequest {
        ply,
        comment: Some(text),
        variation: None,
    };
    let note = data.service.study().annotate(me, id, request).await?;
    let reply = CreateReply::default()
        .content(format!(
            "Noted on move {} of game #{id}. `/annotate post game:{id}` posts the game's notes.",
            note.ply
        ))
        .allowed_mentions(mentions::nobody());
    send(&ctx, reply).await?;
    Ok(())
}

/// Post the notes of a finished game in this channel
#[poise::command(slash_command, rename = "post")]
pub async fn annotate_post(
    ctx: Context<'_>,
    #[description = "Which finished game: its number"]
    #[min = 1]
    #[autocomplete = "autocomplete_finished_game"]
    game: i64,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let id = GameId(game);
    let view = data.service.games().game(Some(me), id).await?;
    let notes = data.service.study().annotations(Some(me), id).await?;
    let lines: Vec<String> = notes.iter().map(|n| note_line(n, &view.moves)).collect();
    let head = format!(
        "**Notes on game #{id}** · {} (attackers) vs {} (defenders)",
        mentions::literal(&view.attackers.name),
        mentions::literal(&view.defenders.name)
    );
    let messages = if lines.is_empty() {
        vec![format!(
            "{head}\nNo notes yet: its players add them with `/annotate add`."
        )]
    } else {
        messages_of(&head, &lines)
    };
    for text in messages {
        let reply = CreateReply::default()
            .content(text)
            .allowed_mentions(mentions::nobody());
        send(&ctx, reply).await?;
    }
    Ok(())
}

/// "12. d4-d7: the decisive move", "12… c5-a5, instead c5-c6 f5-f6: quieter": the move's
/// number as turns are counted, the game's move, the line played instead, the comment.
fn note_line(note: &AnnotationView, moves: &[MoveView]) -> String {
    let number = if note.ply % 2 == 1 {
        format!("{}.", note.ply.div_ceil(2))
    } else {
        format!("{}…", note.ply / 2)
    };
    let played = moves
        .iter()
        .find(|m| m.ply == note.ply)
        .map_or("?", |m| m.notation.as_str());
    let mut line = format!("{number} {played}");
    if let Some(variation) = &note.variation {
        line.push_str(", instead ");
        line.push_str(&variation_text(variation));
    }
    let comment = note.comment.as_deref().or_else(|| {
        note.variation
            .as_ref()
            .and_then(|v| v.first())
            .and_then(|m| m.comment.as_deref())
    });
    if let Some(comment) = comment {
        line.push_str(": ");
        // Cut before escaping, so that the ellipsis never splits an escape from its character.
        line.push_str(&mentions::literal_long(&cut_to(
            comment,
            COMMENT_SHOWN_CHARS,
        )));
    }
    line
}

/// A variation's own moves (not the lines inside it), in code so nothing in them is markdown.
fn variation_text(line: &[VariationMove]) -> String {
    let moves: Vec<&str> = line.iter().map(|m| m.mv.as_str()).collect();
    format!("`{}`", moves.join(" "))
}

/// `lines` under `head`, packed into messages of Discord's length; past [`MAX_MESSAGES`] the
/// last says how many notes were left out.
fn messages_of(head: &str, lines: &[String]) -> Vec<String> {
    let mut messages = Vec::new();
    let mut current = head.to_owned();
    for (i, line) in lines.iter().enumerate() {
        if current.chars().count() + 1 + line.chars().count() <= MESSAGE_CHARS {
            current.push('\n');
            current.push_str(line);
            continue;
        }
        if messages.len() + 1 == MAX_MESSAGES {
            let left = lines.len() - i;
            let more = format!("\n… and {left} more notes: the game's page has them all.");
            while current.chars().count() + more.chars().count() > MESSAGE_CHARS {
                match current.rfind('\n') {
                    Some(cut) => current.truncate(cut),
                    None => break,
                }
            }
            current.push_str(&more);
            messages.push(current);
            return messages;
        }
        messages.push(std::mem::replace(&mut current, line.clone()));
    }
    messages.push(current);
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_fill_messages_of_discords_length_and_a_long_list_says_what_is_left_out() {
        let lines: Vec<String> = (1..=40)
            .map(|i| format!("{i}. d1-d3: {}", "x".repeat(COMMENT_SHOWN_CHARS * 2)))
            .collect();
        let messages = messages_of("**Notes**", &lines);
        assert_eq!(messages.len(), MAX_MESSAGES);
        assert!(messages.iter().all(|m| m.chars().count() <= MESSAGE_CHARS));
        let last = messages.last().unwrap();
        assert!(
            last.ends_with("more notes: the game's page has them all."),
            "{last}"
        );
        let shown: usize = messages.iter().map(|m| m.matches(". d1-d3").count()).sum();
        assert!(last.contains(&format!("and {} more", 40 - shown)), "{last}");
        // Few notes: one message.
        assert_eq!(messages_of("**Notes**", &lines[..2]).len(), 1);
    }
}
