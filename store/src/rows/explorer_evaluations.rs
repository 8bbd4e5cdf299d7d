//! The engine's view of the opening explorer's positions: one search per folded position,
//! its best move in the folded image's orientation.

use crate::{Conn, params};

use super::*;

/// What one search found in a folded position.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplorerEvaluation {
    /// The defenders' winning chance in percent (the same from every side of the board).
    pub chance: f64,
    /// The best move in the folded image's orientation (`None` where the game is over).
    pub best: Option<String>,
    /// A proved result ("escape in 3").
    pub forced: Option<String>,
    pub depth: u32,
    pub nodes: u64,
}

/// Stores the evaluation of `variant`'s folded position `key`; a second one of the same
/// position (another instance searched it too) keeps the first: they are the same search.
pub fn put_explorer_evaluation(
    c: &Conn<'_>,
    variant: &str,
    key: u64,
    eval: &ExplorerEvaluation,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO explorer_evaluations (variant, position_key, chance, best, forced, depth, \
         nodes, evaluated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
         ON CONFLICT (variant, position_key) DO NOTHING",
        params![
            variant,
            key as i64,
            eval.chance,
            eval.best.as_deref(),
            eval.forced.as_deref(),
            i64::from(eval.depth),
            eval.nodes as i64,
            now
        ],
    )?;
    Ok(())
}

/// The evaluation of `variant`'s folded position `key`, if it was searched.
pub fn explorer_evaluation(
    c: &Conn<'_>,
    variant: &str,
    key: u64,
) -> Result<Option<ExplorerEvaluation>> {
    c.query_opt(
        "SELECT chance, best, forced, depth, nodes FROM explorer_evaluations \
         WHERE variant = ?1 AND position_key = ?2",
        params![variant, key as i64],
        |r| {
            Ok(ExplorerEvaluation {
                chance: r.get(0)?,
                best: r.get(1)?,
                forced: r.get(2)?,
                depth: u32::try_from(r.get::<i64>(3)?).unwrap_or(u32::MAX),
                nodes: r.get::<i64>(4)? as u64,
            })
        },
    )
}
