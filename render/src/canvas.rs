//! Small drawing helpers over tiny-skia, all anti-aliased.

use tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

use crate::error::RenderError;
use crate::palette::Rgba;

pub fn new_pixmap(width: u32, height: u32) -> Result<Pixmap, RenderError> {
    Pixmap::new(width, height).ok_or(RenderError::Canvas { width, height })
}

pub fn solid(color: Rgba) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color.color());
    paint.anti_alias = true;
    paint
}

pub fn fill_rect(pixmap: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, color: Rgba) {
    if let Some(rect) = Rect::from_xywh(x, y, w, h) {
        pixmap.fill_rect(rect, &solid(color), Transform::identity(), None);
    }
}

pub fn fill_circle(pixmap: &mut Pixmap, cx: f32, cy: f32, radius: f32, paint: &Paint) {
    if let Some(path) = PathBuilder::from_circle(cx, cy, radius) {
        pixmap.fill_path(&path, paint, FillRule::Winding, Transform::identity(), None);
    }
}

pub fn stroke_circle(pixmap: &mut Pixmap, cx: f32, cy: f32, radius: f32, width: f32, color: Rgba) {
    if let Some(path) = PathBuilder::from_circle(cx, cy, radius) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &solid(color), &stroke, Transform::identity(), None);
    }
}

/// A rounded rectangle path.
pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, radius: f32) -> Option<tiny_skia::Path> {
    let r = radius.min(w / 2.0).min(h / 2.0).max(0.0);
    // Cubic approximation of a quarter circle.
    let k = r * 0.552_284_8;
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish()
}

pub fn fill_rounded_rect(pixmap: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, r: f32, color: Rgba) {
    if let Some(path) = rounded_rect(x, y, w, h, r) {
        pixmap.fill_path(
            &path,
            &solid(color),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// Strokes a polyline; `dash` is (on, off) lengths.
pub fn stroke_polyline(
    pixmap: &mut Pixmap,
    points: &[(f32, f32)],
    width: f32,
    color: Rgba,
    dash: Option<(f32, f32)>,
) {
    let mut pb = PathBuilder::new();
    let mut rest = points.iter();
    let Some(&(x0, y0)) = rest.next() else {
        return;
    };
    pb.move_to(x0, y0);
    for &(x, y) in rest {
        pb.line_to(x, y);
    }
    let Some(path) = pb.finish() else {
        return;
    };
    let stroke = Stroke {
        width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        dash: dash.and_then(|(on, off)| StrokeDash::new(vec![on, off], 0.0)),
        ..Stroke::default()
    };
    pixmap.stroke_path(&path, &solid(color), &stroke, Transform::identity(), None);
}

/// Fills a closed polygon.
pub fn fill_polygon(pixmap: &mut Pixmap, points: &[(f32, f32)], paint: &Paint) {
    if let Some(path) = polygon_path(points) {
        pixmap.fill_path(&path, paint, FillRule::Winding, Transform::identity(), None);
    }
}

/// The closed path through `points` (none for fewer than two).
fn polygon_path(points: &[(f32, f32)]) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    let mut rest = points.iter();
    let &(x0, y0) = rest.next()?;
    pb.move_to(x0, y0);
    for &(x, y) in rest {
        pb.line_to(x, y);
    }
    pb.close();
    pb.finish()
}

/// Draws `shapes` (`glyphs`) for the square `cell` pixels wide at `(x, y)`.
pub fn draw_shapes(
    pixmap: &mut Pixmap,
    shapes: &[crate::glyphs::Shape],
    x: f32,
    y: f32,
    cell: f32,
) {
    use crate::glyphs::Shape;
    for shape in shapes {
        match shape {
            Shape::Square { fill } => fill_rect(pixmap, x, y, cell, cell, *fill),
            Shape::Disc { cx, cy, r, fill } => fill_circle(pixmap, *cx, *cy, *r, &solid(*fill)),
            Shape::Ring {
                cx,
                cy,
                r,
                width,
                colour,
            } => stroke_circle(pixmap, *cx, *cy, *r, *width, *colour),
            Shape::Polygon {
                points,
                fill,
                outline,
                width,
            } => fill_and_outline_polygon(pixmap, points, *fill, *outline, *width),
            Shape::Line {
                points,
                width,
                colour,
            } => stroke_polyline(pixmap, points, *width, *colour, None),
        }
    }
}

/// Fills a closed polygon, then strokes its outline with round joins.
fn fill_and_outline_polygon(
    pixmap: &mut Pixmap,
    points: &[(f32, f32)],
    fill: Rgba,
    outline: Rgba,
    width: f32,
) {
    let Some(path) = polygon_path(points) else {
        return;
    };
    pixmap.fill_path(
        &path,
        &solid(fill),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    let stroke = Stroke {
        width,
        line_join: LineJoin::Round,
        ..Stroke::default()
    };
    pixmap.stroke_path(&path, &solid(outline), &stroke, Transform::identity(), None);
}
