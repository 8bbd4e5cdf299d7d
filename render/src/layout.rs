//! Where everything goes on the canvas, in pixels.

use crate::scene::Coord;

/// The geometry of one picture. Cells are whole pixels so grid lines stay crisp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    pub caption_height: u32,
    pub dim: u8,
    pub flip: bool,
    pub cell: u32,
    /// Top-left corner of the top-left square.
    pub board_x: u32,
    pub board_y: u32,
    /// Width of the frame drawn around the squares.
    pub frame: u32,
    /// Height of the coordinate labels' font.
    pub label_px: f32,
}

impl Layout {
    pub fn new(dim: u8, width: u32, flip: bool, with_caption: bool) -> Layout {
        let dim_u = u32::from(dim).max(1);
        // 1.7 cells of room, split between both edges, for the frame and the labels.
        let cell = ((width as f32) / (dim_u as f32 + 1.7)).floor().max(4.0) as u32;
        let board = cell * dim_u;
        let margin = width.saturating_sub(board) / 2;
        let frame = ((cell as f32) * 0.08).round().max(2.0) as u32;
        let band = margin.saturating_sub(frame) as f32;
        let label_px = (cell as f32 * 0.45)
            .min(band * 0.6)
            .min(width as f32 * 0.04)
            .max(6.0);
        let caption_height = if with_caption {
            ((width as f32) * 0.075).round().max(20.0) as u32
        } else {
            0
        };
        Layout {
            width,
            height: caption_height + width,
            caption_height,
            dim,
            flip,
            cell,
            board_x: margin,
            board_y: caption_height + margin,
            frame,
            label_px,
        }
    }

    pub fn board_size(&self) -> u32 {
        self.cell * u32::from(self.dim)
    }

    /// Screen column (0 = left) and row (0 = top) of a square.
    pub fn screen_cell(&self, at: Coord) -> (u32, u32) {
        let last = u32::from(self.dim.saturating_sub(1));
        let file = u32::from(at.file);
        let rank = u32::from(at.rank);
        if self.flip {
            (last.saturating_sub(file), rank)
        } else {
            (file, last.saturating_sub(rank))
        }
    }

    /// Top-left pixel of a square.
    pub fn square_origin(&self, at: Coord) -> (u32, u32) {
        let (col, row) = self.screen_cell(at);
        (
            self.board_x + col * self.cell,
            self.board_y + row * self.cell,
        )
    }

    /// Centre of a square.
    pub fn center(&self, at: Coord) -> (f32, f32) {
        let (x, y) = self.square_origin(at);
        let half = self.cell as f32 / 2.0;
        (x as f32 + half, y as f32 + half)
    }

    /// The file shown in a screen column (0 = left) and the rank shown in a screen row (0 = top).
    pub fn file_in_column(&self, col: u8) -> u8 {
        if self.flip {
            self.dim.saturating_sub(1).saturating_sub(col)
        } else {
            col
        }
    }

    pub fn rank_in_row(&self, row: u8) -> u8 {
        if self.flip {
            row
        } else {
            self.dim.saturating_sub(1).saturating_sub(row)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a1_is_bottom_left_unless_flipped() {
        let layout = Layout::new(11, 800, false, false);
        assert_eq!(layout.screen_cell(Coord::new(0, 0)), (0, 10));
        let flipped = Layout::new(11, 800, true, false);
        assert_eq!(flipped.screen_cell(Coord::new(0, 0)), (10, 0));
    }

    #[test]
    fn board_fits_inside_the_canvas_with_room_for_labels() {
        for dim in 7..=19 {
            for width in [160, 400, 800, 1600] {
                let layout = Layout::new(dim, width, false, true);
                let right = layout.board_x + layout.board_size();
                let bottom = layout.board_y + layout.board_size();
                assert!(layout.board_x > layout.frame + 4, "dim {dim} width {width}");
                assert!(
                    right + layout.frame + 4 < layout.width,
                    "dim {dim} width {width}"
                );
                assert!(
                    bottom + layout.frame + 4 < layout.height,
                    "dim {dim} width {width}"
                );
            }
        }
    }
}
