//! Board renderer: tafl positions to anti-aliased PNG images (and the analysis chart,
//! [`render_chart`], in the same colours).
//!
//! [`render`] draws an engine position with its decorations (last move, captures, escape
//! warning, caption). Underneath, it draws a [`Scene`] (pieces, special squares, last move,
//! captures, the king's open lines, a caption) with a [`Style`] (size, theme, orientation).
//! The static background and the piece images are cached per geometry and theme, so a picture
//! costs a copy, a few blits and the PNG encoding.

mod background;
mod blit;
mod canvas;
mod caption;
mod chart;
mod decorations;
mod draw;
mod encode;
mod error;
mod from_engine;
mod glyphs;
mod layout;
mod palette;
mod palette_image;
mod scene;
mod sprites;
mod style;
mod text;

pub use chart::{Chart, ChartMark, chart_mark_colour, render_chart};
pub use draw::{draw_scene, render_scene};
pub use error::RenderError;
pub use from_engine::{RenderOptions, render, scene_of};
pub use glyphs::{Shape, mark_shapes, piece_shapes, radius_fraction};
pub use layout::Layout;
pub use palette::{Palette, PieceColors, Rgba};
pub use scene::{
    Caption, CaptionSide, Captured, Coord, MAX_DIM, MIN_DIM, Mark, MarkKind, Scene, ScenePiece,
};
pub use style::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Style, Theme, ThemeParseError};
