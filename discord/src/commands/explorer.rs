//! `/explorer`: the opening explorer's position after some moves: how the games through it
//! ended, the moves most played from it with their results and the engine's chance, and a
//! link to the web explorer's page of the same position.

use poise::CreateReply;

use super::common::autocomplete_variant;
use crate::answers::command::send;
use crate::service::explorer::{ExplorerMove, ExplorerView};
use crate::{BotError, Context, mentions};

/// Moves shown in the table, the most played first.
const MOVES_SHOWN: usize = 10;

/// The opening explorer: the moves finished games played from a position, and how they ended
#[poise::command(slash_command)]
pub async fn explorer(
    ctx: Context<'_>,
    #[description = "The variant"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
    #[description = "The moves from the start, e.g. d1-c1 d3-c3 (default: the start)"]
    moves: Option<String>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let view = data
        .service
        .explorer()
        .position(&variant, moves.as_deref().unwrap_or_default())
        .await?;
    let mut text = explorer_text(&view);
    if let Some(base) = data.web_base.as_deref() {
        text.push_str(&format!("\n{}", web_link(base, &view)));
    }
    let reply = CreateReply::default()
        .content(text)
        .allowed_mentions(mentions::nobody());
    send(&ctx, reply).await?;
    Ok(())
}

/// The web explorer's page of `view`'s position.
fn web_link(base: &str, view: &ExplorerView) -> String {
    format!(
        "{}{}",
        base.trim_end_matches('/'),
        view.page_path(view.played.len(), None)
    )
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_owned()
    } else {
        format!("{:.0}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The position's line, totals and engine view, then the moves as a fixed-width table. Every
/// text in it is the referee's (moves) or the bot's own: nothing a player typed.
pub fn explorer_text(view: &ExplorerView) -> String {
    let line = if view.played.is_empty() {
        "the start".to_owned()
    } else {
        let numbered: Vec<String> = view
            .played
            .iter()
            .enumerate()
            .map(|(i, mv)| match i % 2 {
                0 => format!("{}. {mv}", i / 2 + 1),
                _ => mv.clone(),
            })
            .collect();
        numbered.join(" ")
    };
    let mut text = format!("**Opening explorer · {}** after {line}\n", view.variant);
    if view.games == 0 {
        text.push_str("No finished game reached this position yet.\n");
    } else {
        text.push_str(&format!(
            "{} game{}: attackers won {}, defenders {}, drawn {}.\n",
            view.games,
            if view.games == 1 { "" } else { "s" },
            percent(view.attackers_won, view.games),
            percent(view.defenders_won, view.games),
            percent(view.draws, view.games),
        ));
    }
    match &view.engine {
        Some(e) => {
            text.push_str(&format!("Engine: defenders' chance {:.1}%", e.chance));
            if let Some(best) = &e.best {
                text.push_str(&format!(", best {best}"));
            }
            text.push_str(&format!(" (depth {}).\n", e.depth));
        }
        None if view.games > 0 => text.push_str("Engine: not searched yet; ask again shortly.\n"),
        None => {}
    }
    if !view.moves.is_empty() {
        text.push_str("```\n");
        text.push_str(&format!(
            "{:<8} {:>6} {:>5} {:>5} {:>5} {:>7}\n",
            "Move", "Games", "Att", "Def", "Draw", "Engine"
        ));
        for m in view.moves.iter().take(MOVES_SHOWN) {
            text.push_str(&move_row(m));
        }
        if view.moves.len() > MOVES_SHOWN {
            text.push_str(&format!(
                "... and {} more\n",
                view.moves.len() - MOVES_SHOWN
            ));
        }
        text.push_str("```");
    }
    text
}

fn move_row(m: &ExplorerMove) -> String {
    let engine = m
        .engine_chance
        .map_or_else(|| "-".to_owned(), |c| format!("{c:.1}%"));
    format!(
        "{:<8} {:>6} {:>5} {:>5} {:>5} {:>7}\n",
        m.mv,
        m.games,
        percent(m.attackers_won, m.games),
        percent(m.defenders_won, m.games),
        percent(m.draws, m.games),
        engine
    )
}
