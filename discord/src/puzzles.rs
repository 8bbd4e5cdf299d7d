//! Puzzles in Discord: `/puzzle` and the daily puzzle's **Solve** button open a private
//! (ephemeral) board with the move picker's menus (the pieces that can move, then a piece's
//! destinations); each chosen move is sent as a try through the same service call as the API,
//! so a right move shows the opponent's reply and the next menus, and the end shows the result
//! and the rating changes. Every menu's custom id carries the puzzle and the moves made so far,
//! so a try survives a restart with nothing kept in memory.

use poise::CreateReply;
use serenity::all::{
    ButtonStyle, ComponentInteractionDataKind, CreateActionRow, CreateAttachment, CreateButton,
};

use super::answers::ClickAnswer;
use super::components::{ButtonAction, answer_privately};
use super::picker::{Choice, page_of, pieces, select_menu, targets};
use super::posts::{self, Post};
use super::{BotError, Data, mentions};
use crate::domain::{PlayerId, PuzzleId};
use crate::service::puzzles::{AttemptResult, AttemptView, PuzzleView};

/// Which puzzle control was used; the moves are the solver's so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleStep {
    /// The daily post's **Solve** button.
    Open { puzzle: PuzzleId },
    /// The pieces menu.
    Pieces {
        puzzle: PuzzleId,
        moves: Vec<String>,
    },
    /// The destinations menu of the piece on `from`.
    Targets {
        puzzle: PuzzleId,
        moves: Vec<String>,
        from: String,
    },
}

fn moves_text(moves: &[String]) -> String {
    moves.join(".")
}

fn moves_of(text: &str) -> Option<Vec<String>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    let moves: Vec<String> = text.split('.').map(str::to_owned).collect();
    moves
        .iter()
        .all(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then_some(moves)
}

impl PuzzleStep {
    pub fn custom_id(&self) -> String {
        match self {
            PuzzleStep::Open { puzzle } => format!("pz:open:{puzzle}"),
            PuzzleStep::Pieces { puzzle, moves } => {
                format!("pz:from:{puzzle}:{}", moves_text(moves))
            }
            PuzzleStep::Targets {
                puzzle,
                moves,
                from,
            } => format!("pz:to:{puzzle}:{}:{from}", moves_text(moves)),
        }
    }

    /// Reads a custom id already split at `:` (starting with "pz").
    pub fn parse(parts: &[&str]) -> Option<PuzzleStep> {
        match parts {
            ["pz", "open", puzzle] => Some(PuzzleStep::Open {
                puzzle: puzzle.parse().ok()?,
            }),
            ["pz", "from", puzzle, moves] => Some(PuzzleStep::Pieces {
                puzzle: puzzle.parse().ok()?,
                moves: moves_of(moves)?,
            }),
            ["pz", "to", puzzle, moves, from]
                if !from.is_empty() && from.chars().all(|c| c.is_ascii_alphanumeric()) =>
            {
                Some(PuzzleStep::Targets {
                    puzzle: puzzle.parse().ok()?,
                    moves: moves_of(moves)?,
                    from: (*from).to_owned(),
                })
            }
            _ => None,
        }
    }
}

/// "Defenders to move: the king escapes in 1 (puzzle #4, rating 1500)."
pub fn describe(view: &PuzzleView) -> String {
    let goal = match view.theme.as_str() {
        "escape" => "the king escapes",
        "capture_king" => "the king is captured",
        _ => "win material",
    };
    format!(
        "**Puzzle #{}** ({}, rating {:.0}): {} to move, {goal} in {}.",
        view.id, view.variant, view.rating, view.side_to_move, view.moves_to_find
    )
}

/// The daily puzzle's post: the board, what to find, and a **Solve** button.
pub async fn daily_post(data: &Data, id: PuzzleId) -> Result<Post, BotError> {
    let view = data.service.puzzles().get(id).await?;
    let png = board_png(data, id, Vec::new()).await;
    let solve =
        CreateButton::new(ButtonAction::Puzzle(PuzzleStep::Open { puzzle: id }).custom_id())
            .label("Solve")
            .style(ButtonStyle::Primary);
    let content = format!(
        "🧩 Puzzle of the day. {} Press **Solve** to try it: only you see your try.",
        describe(&view)
    );
    Ok(Post::with_board(
        content,
        png.map(|png| posts::BoardImage {
            png,
            alt: format!("The board of puzzle #{id}."),
        }),
        format!("puzzle-{id}.png"),
        Vec::new(),
    )
    .with_components(vec![CreateActionRow::Buttons(vec![solve])]))
}

async fn board_png(data: &Data, id: PuzzleId, moves: Vec<String>) -> Option<Vec<u8>> {
    let (rules, position) = data.service.puzzles().board(id, moves).await.ok()?;
    match posts::position_png(rules, position).await {
        Ok(png) => Some(png),
        Err(e) => {
            tracing::warn!(puzzle = %id, error = %e, "puzzle board not drawn");
            None
        }
    }
}

fn menu(step: &PuzzleStep, choices: Vec<Choice>, placeholder: &str) -> Vec<CreateActionRow> {
    select_menu(
        ButtonAction::Puzzle(step.clone()).custom_id(),
        choices,
        placeholder,
    )
}

/// The private board of puzzle `id` after `moves`, with `intro` and the pieces menu.
pub async fn board_message(
    data: &Data,
    id: PuzzleId,
    moves: Vec<String>,
    intro: String,
) -> Result<CreateReply, BotError> {
    let legal = data
        .service
        .puzzles()
        .legal_moves(id, moves.clone(), None)
        .await?;
    let (shown, _, _) = page_of(&pieces(&legal), 0);
    let step = PuzzleStep::Pieces {
        puzzle: id,
        moves: moves.clone(),
    };
    let mut reply = CreateReply::default()
        .content(intro)
        .components(menu(&step, shown, "Pick a piece"))
        .allowed_mentions(mentions::nobody())
        .ephemeral(true);
    if let Some(png) = board_png(data, id, moves).await {
        let image = CreateAttachment::bytes(png, format!("puzzle-{id}.png"))
            .description(format!("The board of puzzle #{id}."));
        reply = reply.attachment(image);
    }
    Ok(reply)
}

/// What was selected in a menu.
fn selected(click: &ClickAnswer<'_>) -> Result<String, BotError> {
    let press = click.press();
    match &press.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values
            .first()
            .cloned()
            .ok_or_else(|| BotError::BadOption("Nothing was selected.".into())),
        _ => Err(BotError::UnknownButton(press.data.custom_id.clone())),
    }
}

/// Handles a puzzle button or menu.
pub async fn run(click: &ClickAnswer<'_>, data: &Data, step: PuzzleStep) -> Result<(), BotError> {
    match step {
        PuzzleStep::Open { puzzle } => {
            let view = data.service.puzzles().get(puzzle).await?;
            let first = board_message(data, puzzle, Vec::new(), describe(&view)).await?;
            answer_privately(click, first).await
        }
        PuzzleStep::Pieces { puzzle, moves } => {
            let from = selected(click)?;
            let legal = data
                .service
                .puzzles()
                .legal_moves(puzzle, moves.clone(), Some(from.clone()))
                .await?;
            let (shown, _, _) = page_of(&targets(&legal), 0);
            let step = PuzzleStep::Targets {
                puzzle,
                moves,
                from: from.clone(),
            };
            let reply = CreateReply::default()
                .content(format!("Puzzle #{puzzle}: where to, from {from}?"))
                .components(menu(&step, shown, "Pick a destination"))
                .allowed_mentions(mentions::nobody());
            click.update(reply).await?;
            Ok(())
        }
        PuzzleStep::Targets {
            puzzle,
            mut moves,
            from,
        } => {
            let to = selected(click)?;
            moves.push(format!("{from}-{to}"));
            let me = data.player_of(&click.press().user).await?;
            try_moves(click, data, me, puzzle, moves).await
        }
    }
}

async fn try_moves(
    click: &ClickAnswer<'_>,
    data: &Data,
    me: PlayerId,
    puzzle: PuzzleId,
    moves: Vec<String>,
) -> Result<(), BotError> {
    let answer = data
        .service
        .puzzles()
        .attempt(me, puzzle, moves.clone())
        .await?;
    if answer.result == AttemptResult::Continue {
        let reply = answer.replies.last().cloned().unwrap_or_default();
        let intro = format!("Right! The answer is {reply}. Your next move:");
        let next = board_message(data, puzzle, moves, intro).await?;
        click.update(next).await?;
        return Ok(());
    }
    let reply = CreateReply::default()
        .content(result_text(&answer))
        .components(Vec::new())
        .allowed_mentions(mentions::nobody());
    click.update(reply).await?;
    Ok(())
}

/// "Solved! Your puzzle rating: 1500 → 1662 (+162)."
pub fn result_text(answer: &AttemptView) -> String {
    let mut text = match answer.result {
        AttemptResult::Correct => format!("Solved puzzle #{}!", answer.puzzle_id),
        _ => {
            let refutation = answer
                .refutation
                .as_deref()
                .map(|r| format!(", answered by {r}"))
                .unwrap_or_default();
            format!(
                "Not this time: {}{refutation}.",
                answer.wrong_move.as_deref().unwrap_or("that move")
            )
        }
    };
    if let Some(line) = &answer.solution {
        text.push_str(&format!(" The line: {}.", line.join(" ")));
    }
    match &answer.player_rating {
        Some(change) => text.push_str(&format!(
            " Your puzzle rating: {:.0} → {:.0} ({:+.0}).",
            change.before, change.after, change.change
        )),
        None => text.push_str(" (Tried before: your rating stays.)"),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_ids_round_trip_and_refuse_junk() {
        for step in [
            PuzzleStep::Open {
                puzzle: PuzzleId(3),
            },
            PuzzleStep::Pieces {
                puzzle: PuzzleId(3),
                moves: Vec::new(),
            },
            PuzzleStep::Targets {
                puzzle: PuzzleId(3),
                moves: vec!["a3-a1".into(), "k10-k11".into()],
                from: "b2".into(),
            },
        ] {
            let id = step.custom_id();
            assert!(id.len() < 100, "{id}");
            let parts: Vec<&str> = id.split(':').collect();
            assert_eq!(PuzzleStep::parse(&parts), Some(step));
        }
        for junk in [
            "pz:to:1::",
            "pz:from:x:",
            "pz:from:1:a3-a1..",
            "pz:to:1::a-1",
        ] {
            let parts: Vec<&str> = junk.split(':').collect();
            assert_eq!(PuzzleStep::parse(&parts), None, "{junk}");
        }
    }
}
