//! The rules model: one struct general enough for every preset of docs/rules.md and every
//! OpenTafl rules string (OpenTafl notation spec, section 3), plus what the rule sources need
//! that OpenTafl lacks (Slavic special capture and rescue move, draw forts).

use crate::bitboard::{Bitboard, row_mask};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::piece_set::PieceSet;
use crate::position::Position;
use crate::side::{Piece, Side};
use crate::square::Square;

/// Where the king must reach to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// Any edge square (`esc:e`).
    Edge,
    /// The corner squares (`esc:c`, the `cor:` list).
    Corner,
}

/// What a third occurrence of the same position (same side to move) does (`tfr:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    Ignore,
    Draw,
    /// The player whose move creates the third occurrence loses (docs/rules.md,
    /// R-aggressive-player).
    MoverLoses,
    MoverWins,
    /// Copenhagen: "if a player causes perpetual repetition, the defenders lose", whoever moved.
    DefendersLose,
}

impl Repetition {
    /// The result when `mover`'s move makes a position's third occurrence.
    pub fn outcome(self, mover: Side) -> Option<Outcome> {
        let win = |winner| {
            Some(Outcome::Win {
                winner,
                reason: WinReason::Repetition,
            })
        };
        match self {
            Repetition::Ignore => None,
            Repetition::Draw => Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            }),
            Repetition::MoverLoses => win(mover.opponent()),
            Repetition::MoverWins => win(mover),
            Repetition::DefendersLose => win(Side::Attackers),
        }
    }
}

/// Whether the king takes part in captures (`ka:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingArmed {
    /// Captures by moving and helps as the anvil.
    Yes,
    /// Others can capture against him, but he cannot capture by moving.
    AnvilOnly,
    /// Captures by moving, but others cannot capture against him.
    HammerOnly,
    No,
}

impl KingArmed {
    pub fn is_hammer(self) -> bool {
        matches!(self, KingArmed::Yes | KingArmed::HammerOnly)
    }

    pub fn is_anvil(self) -> bool {
        matches!(self, KingArmed::Yes | KingArmed::AnvilOnly)
    }
}

/// How the king is captured (`ks:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingStrength {
    /// Surrounded on four sides by attackers or hostile squares.
    Strong,
    /// Strong on or next to the throne, captured between two attackers elsewhere.
    StrongNearThrone,
    /// Strong, but the board edge counts as hostile.
    Middleweight,
    /// Captured between two attackers like any piece.
    Weak,
}

/// Shieldwall captures along the board edge (`sw:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shieldwall {
    None,
    /// Corners may not close a shieldwall.
    Weak,
    /// Corners may close a shieldwall.
    Strong,
}

/// The kinds of special square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SquareKind {
    Plain,
    Throne,
    Corner,
    AttackerFortress,
    DefenderFortress,
}

/// Who may do what on one kind of special square; each field lists piece kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareRules {
    /// Hostile to these while occupied (for the throne: while the king is on it).
    pub hostile: PieceSet,
    /// Hostile to these while empty.
    pub hostile_empty: PieceSet,
    /// May move through it.
    pub pass: PieceSet,
    /// May end a move on it.
    pub stop: PieceSet,
    /// May end a move on it when the move started off squares of this kind.
    pub reenter: PieceSet,
}

/// A complete rule set. Build one with [`Rules::from_opentafl`] or a preset from [`crate::variants`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub(crate) dim: u8,
    pub escape: Escape,
    pub attackers_first: bool,
    /// Attackers win by enclosing the king and every defender (`surf:`; docs/rules.md,
    /// R-003-encirclement).
    pub encirclement: bool,
    pub repetition: Repetition,
    pub king_armed: KingArmed,
    pub king_strength: KingStrength,
    /// The king on the throne is captured only by four, whatever `king_strength` says of
    /// him elsewhere (`xkt:`; hnefatafl.org's Brandubh).
    pub king_strong_on_throne: bool,
    pub corners: Bitboard,
    pub thrones: Bitboard,
    pub attacker_fortresses: Bitboard,
    pub defender_fortresses: Bitboard,
    pub corner_rules: SquareRules,
    pub throne_rules: SquareRules,
    pub attacker_fortress_rules: SquareRules,
    pub defender_fortress_rules: SquareRules,
    /// Most squares a piece may move, per piece kind (indexed by [`Piece::index`]).
    pub speed_limits: [Option<u8>; 3],
    pub shieldwall: Shieldwall,
    /// A shieldwall is captured only by a move that closes one of its ends (`swf:`).
    pub shieldwall_flank_required: bool,
    /// The defenders win by an unbreakable fort on the edge around a mobile king (`efe:`).
    pub edge_fort_escape: bool,
    /// A defender beside the king on the throne, his other three sides held by attackers,
    /// may be captured against the occupied throne (`linc:`).
    pub linnaean_capture: bool,
    /// Slavic (docs/rules.md, R-001-special-capture): a defender flanked by two attackers with the
    /// king on its third side is captured by an attacker closing the fourth side.
    pub slavic_capture: bool,
    /// Slavic (docs/rules.md, R-001-rescue): when the king is captured the defenders get one move
    /// to free him.
    pub king_rescue: bool,
    /// docs/rules.md, R-003-draw-forts: defenders repeating their arrangement three times with no
    /// capture lose.
    pub draw_forts: bool,
    pub(crate) start: Position,
    pub(crate) tables: MoveTables,
}

/// Precomputed row masks that make move generation a few bit operations per ray.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveTables {
    /// Per piece kind: special squares the piece may not pass, by rank (rows) and by file (cols).
    pub impassable_rows: [Bitboard; 3],
    pub impassable_cols: [Bitboard; 3],
    /// Per piece kind: squares a piece coming from a plain square may stop on.
    pub stoppable_rows: [Bitboard; 3],
    pub stoppable_cols: [Bitboard; 3],
    /// Every special square.
    pub special: Bitboard,
    pub escape: Bitboard,
    pub edge: Bitboard,
}

impl Rules {
    /// Board side.
    pub fn dim(&self) -> u8 {
        self.dim
    }

    pub fn first_to_move(&self) -> Side {
        if self.attackers_first {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }

    /// The start position, with the first side to move.
    pub fn start_position(&self) -> Position {
        let mut position = self.start;
        position.set_side_to_move(self.first_to_move());
        position
    }

    pub fn square_kind(&self, sq: Square) -> SquareKind {
        if self.thrones.contains(sq) {
            SquareKind::Throne
        } else if self.corners.contains(sq) {
            SquareKind::Corner
        } else if self.attacker_fortresses.contains(sq) {
            SquareKind::AttackerFortress
        } else if self.defender_fortresses.contains(sq) {
            SquareKind::DefenderFortress
        } else {
            SquareKind::Plain
        }
    }

    pub fn square_rules(&self, kind: SquareKind) -> Option<&SquareRules> {
        match kind {
            SquareKind::Plain => None,
            SquareKind::Throne => Some(&self.throne_rules),
            SquareKind::Corner => Some(&self.corner_rules),
            SquareKind::AttackerFortress => Some(&self.attacker_fortress_rules),
            SquareKind::DefenderFortress => Some(&self.defender_fortress_rules),
        }
    }

    /// Squares on which the king wins.
    pub fn escape_squares(&self) -> &Bitboard {
        &self.tables.escape
    }

    pub fn is_escape_square(&self, sq: Square) -> bool {
        self.tables.escape.contains(sq)
    }

    pub fn is_throne(&self, sq: Square) -> bool {
        self.thrones.contains(sq)
    }

    pub fn speed_limit(&self, piece: Piece) -> Option<u8> {
        self.speed_limits[piece.index()]
    }

    /// Is `sq` on the throne or orthogonally next to it?
    pub fn on_or_beside_throne(&self, sq: Square) -> bool {
        self.thrones.contains(sq) || sq.neighbours(self.dim).any(|n| self.thrones.contains(n))
    }

    /// How strong the king is on `sq`, from `king_strength` and `king_strong_on_throne`.
    pub fn king_strength_on(&self, sq: Square) -> KingStrength {
        if self.king_strong_on_throne && self.thrones.contains(sq) {
            return KingStrength::Strong;
        }
        match self.king_strength {
            KingStrength::StrongNearThrone if self.on_or_beside_throne(sq) => KingStrength::Strong,
            KingStrength::StrongNearThrone => KingStrength::Weak,
            other => other,
        }
    }

    /// Recomputes the derived tables; call after changing any field.
    pub fn rebuild(&mut self) {
        self.tables = MoveTables::build(self);
    }

    pub(crate) fn new_unbuilt(dim: u8, start: Position) -> Rules {
        let open = SquareRules {
            hostile: PieceSet::NONE,
            hostile_empty: PieceSet::NONE,
            pass: PieceSet::ALL,
            stop: PieceSet::ALL,
            reenter: PieceSet::ALL,
        };
        Rules {
            dim,
            escape: Escape::Corner,
            attackers_first: true,
            encirclement: true,
            repetition: Repetition::Draw,
            king_armed: KingArmed::Yes,
            king_strength: KingStrength::Strong,
            king_strong_on_throne: false,
            corners: Bitboard::EMPTY,
            thrones: Bitboard::EMPTY,
            attacker_fortresses: Bitboard::EMPTY,
            defender_fortresses: Bitboard::EMPTY,
            corner_rules: open,
            throne_rules: open,
            attacker_fortress_rules: open,
            defender_fortress_rules: open,
            speed_limits: [None; 3],
            shieldwall: Shieldwall::None,
            shieldwall_flank_required: true,
            edge_fort_escape: false,
            linnaean_capture: false,
            slavic_capture: false,
            king_rescue: false,
            draw_forts: false,
            start,
            tables: MoveTables::empty(),
        }
    }
}

impl MoveTables {
    fn empty() -> MoveTables {
        MoveTables {
            impassable_rows: [Bitboard::EMPTY; 3],
            impassable_cols: [Bitboard::EMPTY; 3],
            stoppable_rows: [Bitboard::EMPTY; 3],
            stoppable_cols: [Bitboard::EMPTY; 3],
            special: Bitboard::EMPTY,
            escape: Bitboard::EMPTY,
            edge: Bitboard::EMPTY,
        }
    }

    fn build(rules: &Rules) -> MoveTables {
        let dim = rules.dim;
        let mut tables = MoveTables::empty();
        tables.edge = Bitboard::edge(dim);
        let kinds = [
            (rules.thrones, rules.throne_rules),
            (rules.corners, rules.corner_rules),
            (rules.attacker_fortresses, rules.attacker_fortress_rules),
            (rules.defender_fortresses, rules.defender_fortress_rules),
        ];
        for (squares, _) in &kinds {
            tables.special = tables.special.union(squares);
        }
        for piece in Piece::ALL {
            let mut impassable = Bitboard::EMPTY;
            let mut stoppable = Bitboard::full(dim).difference(&tables.special);
            for (squares, square_rules) in &kinds {
                if !square_rules.pass.contains(piece) {
                    impassable = impassable.union(squares);
                }
                if square_rules.stop.contains(piece) && square_rules.reenter.contains(piece) {
                    stoppable = stoppable.union(squares);
                }
            }
            tables.impassable_rows[piece.index()] = impassable;
            tables.impassable_cols[piece.index()] = impassable.transposed(dim);
            tables.stoppable_rows[piece.index()] = stoppable;
            tables.stoppable_cols[piece.index()] = stoppable.transposed(dim);
        }
        tables.escape = match rules.escape {
            Escape::Corner => rules.corners,
            Escape::Edge => {
                // The king cannot win on an edge square he may not stop on (Slavic 13x13: "any border
                // square except fortress squares").
                let mut escape = Bitboard::EMPTY;
                for sq in Bitboard::edge(dim).squares() {
                    let kind = rules.square_kind(sq);
                    let allowed = rules
                        .square_rules(kind)
                        .is_none_or(|r| r.stop.contains(Piece::King));
                    if allowed {
                        escape.insert(sq);
                    }
                }
                escape
            }
        };
        debug_assert!(tables.escape.row(0) & !row_mask(dim) == 0);
        tables
    }
}
