//! The strip above the board: players, move number, whose turn, and a warning badge.

use tiny_skia::Pixmap;

use crate::canvas::{fill_circle, fill_rounded_rect, solid, stroke_circle};
use crate::error::RenderError;
use crate::layout::Layout;
use crate::palette::Palette;
use crate::scene::{Caption, CaptionSide};
use crate::text::{Align, cap_and_x_height, draw_text, text_width};

pub fn draw_caption(
    pixmap: &mut Pixmap,
    layout: &Layout,
    palette: &Palette,
    caption: &Caption,
) -> Result<(), RenderError> {
    let height = layout.caption_height as f32;
    if height <= 0.0 {
        return Ok(());
    }
    let px = height * 0.4;
    let (cap, _) = cap_and_x_height(px)?;
    let middle = height / 2.0;
    let baseline = middle + cap / 2.0;
    let pad = height * 0.3;
    let mut right = layout.width as f32 - pad;

    if let Some(warning) = caption.warning.as_deref().filter(|w| !w.is_empty()) {
        let badge_px = px * 0.95;
        let text = fit(warning, badge_px, layout.width as f32 * 0.3)?;
        let text_w = text_width(&text, badge_px)?;
        let badge_h = height * 0.66;
        let badge_w = text_w + badge_h * 0.8;
        let x = right - badge_w;
        fill_rounded_rect(
            pixmap,
            x,
            middle - badge_h / 2.0,
            badge_w,
            badge_h,
            badge_h / 2.0,
            palette.warning,
        );
        draw_text(
            pixmap,
            &text,
            badge_px,
            x + badge_w / 2.0,
            baseline,
            Align::Center,
            palette.warning_text,
        )?;
        right = x - pad;
    }

    let turn = turn_text(caption);
    if !turn.is_empty() {
        let available = (right - pad).max(0.0) * 0.6;
        let text = fit(&turn, px, available)?;
        draw_text(
            pixmap,
            &text,
            px,
            right,
            baseline,
            Align::Right,
            palette.caption_muted,
        )?;
        right -= text_width(&text, px)?;
        if let Some(side) = caption.to_move {
            let radius = px * 0.42;
            let cx = right - pad * 0.6 - radius * 1.3;
            draw_side_icon(pixmap, palette, side, cx, middle, radius);
            right = cx - radius * 1.3;
        }
        right -= pad;
    }

    if let Some(players) = caption.players.as_deref().filter(|p| !p.is_empty()) {
        let text = fit(players, px, (right - pad).max(0.0))?;
        draw_text(
            pixmap,
            &text,
            px,
            pad,
            baseline,
            Align::Left,
            palette.caption_text,
        )?;
    }
    Ok(())
}

fn turn_text(caption: &Caption) -> String {
    let side = caption.to_move.map(|side| match side {
        CaptionSide::Attackers => "Attackers to move",
        CaptionSide::Defenders => "Defenders to move",
    });
    let moved = match (caption.move_number, caption.moved) {
        (Some(n), Some(CaptionSide::Attackers)) => Some(format!("Move {n}, attackers")),
        (Some(n), Some(CaptionSide::Defenders)) => Some(format!("Move {n}, defenders")),
        (Some(n), None) => Some(format!("Move {n}")),
        (None, _) => None,
    };
    match (moved, side) {
        (Some(moved), Some(side)) => format!("{moved} · {side}"),
        (Some(moved), None) => moved,
        (None, Some(side)) => side.to_string(),
        (None, None) => String::new(),
    }
}

/// A miniature of the side's piece, so "to move" reads without words too.
fn draw_side_icon(
    pixmap: &mut Pixmap,
    palette: &Palette,
    side: CaptionSide,
    cx: f32,
    cy: f32,
    r: f32,
) {
    let colors = match side {
        CaptionSide::Attackers => palette.attacker,
        CaptionSide::Defenders => palette.defender,
    };
    // On a patch of board, so a dark piece stays visible on a dark caption strip.
    let patch = r * 1.3;
    fill_rounded_rect(
        pixmap,
        cx - patch,
        cy - patch,
        patch * 2.0,
        patch * 2.0,
        patch * 0.3,
        palette.square,
    );
    fill_circle(pixmap, cx, cy, r, &solid(colors.face));
    stroke_circle(pixmap, cx, cy, r - 0.6, 1.2, colors.outline);
    if side == CaptionSide::Defenders {
        stroke_circle(pixmap, cx, cy, r * 0.55, (r * 0.16).max(1.0), colors.detail);
    }
}

/// The text, shortened with an ellipsis until it fits in `max_width`.
fn fit(text: &str, px: f32, max_width: f32) -> Result<String, RenderError> {
    if text_width(text, px)? <= max_width {
        return Ok(text.to_string());
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let candidate: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
        if text_width(&candidate, px)? <= max_width {
            return Ok(candidate);
        }
    }
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caption_names_the_turn_and_side_of_the_last_move() {
        let caption = |move_number, moved, to_move| Caption {
            move_number,
            moved,
            to_move,
            ..Caption::default()
        };
        let cases = [
            (
                caption(
                    Some(37),
                    Some(CaptionSide::Attackers),
                    Some(CaptionSide::Defenders),
                ),
                "Move 37, attackers · Defenders to move",
            ),
            (
                caption(Some(37), Some(CaptionSide::Defenders), None),
                "Move 37, defenders",
            ),
            (caption(Some(23), None, None), "Move 23"),
            (
                caption(None, None, Some(CaptionSide::Attackers)),
                "Attackers to move",
            ),
            (caption(None, None, None), ""),
        ];
        for (caption, want) in cases {
            assert_eq!(turn_text(&caption), want);
        }
    }
}
