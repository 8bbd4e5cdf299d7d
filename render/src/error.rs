//! Everything that can go wrong while drawing a board.

use thiserror::Error;

/// Why a board could not be drawn.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RenderError {
    #[error("board dimension {dim} is not supported: it must be between {min} and {max}")]
    Dimension { dim: u8, min: u8, max: u8 },
    #[error("image size {size} px is not supported: it must be between {min} and {max} px")]
    Size { size: u32, min: u32, max: u32 },
    #[error("the scene has {found} cells but a {dim}x{dim} board needs {expected}")]
    CellCount {
        dim: u8,
        expected: usize,
        found: usize,
    },
    #[error("{what} at file {file}, rank {rank} (0-based) lies off the {dim}x{dim} board")]
    OffBoard {
        what: &'static str,
        file: u8,
        rank: u8,
        dim: u8,
    },
    #[error("bad board diagram: {0}")]
    Diagram(String),
    #[error("the position is {position}x{position} but the rules are for {rules}x{rules}")]
    RulesMismatch { position: u8, rules: u8 },
    #[error("the embedded font could not be loaded")]
    Font,
    #[error("could not allocate a {width}x{height} canvas")]
    Canvas { width: u32, height: u32 },
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}
