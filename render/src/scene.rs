//! What is on the board, independent of any rules engine: the renderer draws a `Scene`.

use crate::error::RenderError;

/// Smallest and largest board the renderer draws.
pub const MIN_DIM: u8 = 7;
pub const MAX_DIM: u8 = 19;

/// A square, 0-based: file 0 is `a` (left), rank 0 is `1` (bottom), so `a1` is `Coord::new(0, 0)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub file: u8,
    pub rank: u8,
}

impl Coord {
    pub const fn new(file: u8, rank: u8) -> Coord {
        Coord { file, rank }
    }
}

/// The three kinds of tafl pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScenePiece {
    Attacker,
    Defender,
    King,
}

/// Special squares, drawn distinctly from plain ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkKind {
    Throne,
    Corner,
    AttackerFortress,
    DefenderFortress,
}

/// A special square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mark {
    pub at: Coord,
    pub kind: MarkKind,
}

/// A piece taken by the last move: drawn as a faint ghost (when its kind is known) under a cross.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Captured {
    pub at: Coord,
    pub piece: Option<ScenePiece>,
}

/// The side named in the caption's "to move" text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptionSide {
    Attackers,
    Defenders,
}

/// The optional strip above the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caption {
    /// Free text, typically "Alice vs Bob".
    pub players: Option<String>,
    /// The turn of the last move, counted as the `.otg` record counts them: a turn is one
    /// move of each side, so ply 73 and ply 74 are both in turn 37.
    pub move_number: Option<u32>,
    /// The side that made the last move, named after the turn: "Move 37, attackers".
    pub moved: Option<CaptionSide>,
    pub to_move: Option<CaptionSide>,
    /// Short alert such as "Raichi!" or "Tuichu!", drawn as a badge.
    pub warning: Option<String>,
}

/// Everything the renderer draws for one picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scene {
    pub dim: u8,
    /// Row-major from rank 1 upwards: index `rank * dim + file`.
    pub cells: Vec<Option<ScenePiece>>,
    pub marks: Vec<Mark>,
    /// From and to squares of the last move.
    pub last_move: Option<(Coord, Coord)>,
    pub captured: Vec<Captured>,
    /// The king's open paths (raichi / tuichu): each runs from the square next to the king to
    /// the winning square; the line is drawn from the king.
    pub open_lines: Vec<Vec<Coord>>,
    pub caption: Option<Caption>,
}

impl Scene {
    /// An empty board with no marks or decorations.
    pub fn empty(dim: u8) -> Result<Scene, RenderError> {
        check_dim(dim)?;
        let n = usize::from(dim) * usize::from(dim);
        Ok(Scene {
            dim,
            cells: vec![None; n],
            marks: Vec::new(),
            last_move: None,
            captured: Vec::new(),
            open_lines: Vec::new(),
            caption: None,
        })
    }

    /// A board from a text diagram, top rank first, one line per rank: `t` attacker,
    /// `T` defender, `K` king, `.` empty; blank lines and spaces are ignored. For examples and
    /// tests; real positions come from the engine.
    pub fn from_diagram(diagram: &str) -> Result<Scene, RenderError> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let dim = u8::try_from(rows.len()).unwrap_or(u8::MAX);
        let mut scene = Scene::empty(dim)?;
        for (row_index, row) in rows.iter().enumerate() {
            if row.len() != rows.len() {
                return Err(RenderError::Diagram(format!(
                    "row {} has {} squares, expected {}",
                    row_index + 1,
                    row.len(),
                    rows.len()
                )));
            }
            let rank = dim - 1 - u8::try_from(row_index).unwrap_or(0);
            for (file, c) in row.iter().enumerate() {
                let piece = match c {
                    't' => Some(ScenePiece::Attacker),
                    'T' => Some(ScenePiece::Defender),
                    'K' => Some(ScenePiece::King),
                    '.' => None,
                    other => {
                        return Err(RenderError::Diagram(format!(
                            "unknown square `{other}` in row {}; expected t, T, K or .",
                            row_index + 1
                        )));
                    }
                };
                scene.set(
                    Coord::new(u8::try_from(file).unwrap_or(u8::MAX), rank),
                    piece,
                )?;
            }
        }
        Ok(scene)
    }

    /// Marks the four corners and the centre as corner squares and throne.
    pub fn with_corners_and_throne(mut self) -> Scene {
        let last = self.dim - 1;
        let centre = self.dim / 2;
        for (file, rank) in [(0, 0), (0, last), (last, 0), (last, last)] {
            self.marks.push(Mark {
                at: Coord::new(file, rank),
                kind: MarkKind::Corner,
            });
        }
        self.marks.push(Mark {
            at: Coord::new(centre, centre),
            kind: MarkKind::Throne,
        });
        self
    }

    pub fn piece_at(&self, at: Coord) -> Option<ScenePiece> {
        if !self.contains(at) {
            return None;
        }
        self.cells.get(self.index(at)).copied().flatten()
    }

    /// Puts (or with `None` removes) a piece; squares off the board are an error.
    pub fn set(&mut self, at: Coord, piece: Option<ScenePiece>) -> Result<(), RenderError> {
        self.check_coord("piece", at)?;
        let index = self.index(at);
        match self.cells.get_mut(index) {
            Some(cell) => {
                *cell = piece;
                Ok(())
            }
            None => Err(self.off_board("piece", at)),
        }
    }

    pub fn contains(&self, at: Coord) -> bool {
        at.file < self.dim && at.rank < self.dim
    }

    /// The king's square, if a king is on the board.
    pub fn king(&self) -> Option<Coord> {
        let dim = usize::from(self.dim);
        self.cells
            .iter()
            .position(|cell| *cell == Some(ScenePiece::King))
            .and_then(|i| {
                Some(Coord::new(
                    u8::try_from(i % dim).ok()?,
                    u8::try_from(i / dim).ok()?,
                ))
            })
    }

    /// Checks that the scene is self-consistent before drawing it.
    pub fn validate(&self) -> Result<(), RenderError> {
        check_dim(self.dim)?;
        let expected = usize::from(self.dim) * usize::from(self.dim);
        if self.cells.len() != expected {
            return Err(RenderError::CellCount {
                dim: self.dim,
                expected,
                found: self.cells.len(),
            });
        }
        for mark in &self.marks {
            self.check_coord("marked square", mark.at)?;
        }
        if let Some((from, to)) = self.last_move {
            self.check_coord("last move's origin", from)?;
            self.check_coord("last move's destination", to)?;
        }
        for captured in &self.captured {
            self.check_coord("captured piece", captured.at)?;
        }
        for at in self.open_lines.iter().flatten() {
            self.check_coord("open line square", *at)?;
        }
        Ok(())
    }

    fn index(&self, at: Coord) -> usize {
        usize::from(at.rank) * usize::from(self.dim) + usize::from(at.file)
    }

    fn check_coord(&self, what: &'static str, at: Coord) -> Result<(), RenderError> {
        if self.contains(at) {
            Ok(())
        } else {
            Err(self.off_board(what, at))
        }
    }

    fn off_board(&self, what: &'static str, at: Coord) -> RenderError {
        RenderError::OffBoard {
            what,
            file: at.file,
            rank: at.rank,
            dim: self.dim,
        }
    }
}

fn check_dim(dim: u8) -> Result<(), RenderError> {
    if (MIN_DIM..=MAX_DIM).contains(&dim) {
        Ok(())
    } else {
        Err(RenderError::Dimension {
            dim,
            min: MIN_DIM,
            max: MAX_DIM,
        })
    }
}
