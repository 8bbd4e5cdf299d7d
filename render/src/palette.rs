//! The colours of each theme.

use tiny_skia::Color;

use crate::style::Theme;

/// An sRGB colour with straight (not premultiplied) alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const fn opaque(hex: u32) -> Rgba {
        Rgba((hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255)
    }

    pub const fn with_alpha(self, alpha: u8) -> Rgba {
        Rgba(self.0, self.1, self.2, alpha)
    }

    pub fn color(self) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, self.3)
    }
}

/// Colours of one piece kind: top face, side (the rim seen below the face), outline, detail (ring or crown).
#[derive(Debug, Clone, Copy)]
pub struct PieceColors {
    pub face: Rgba,
    pub side: Rgba,
    pub outline: Rgba,
    pub detail: Rgba,
}

#[derive(Debug, Clone, Copy)]
pub struct Palette {
    pub canvas: Rgba,
    pub caption_band: Rgba,
    pub caption_text: Rgba,
    pub caption_muted: Rgba,
    pub frame: Rgba,
    pub square: Rgba,
    pub grid: Rgba,
    pub label: Rgba,
    pub throne: Rgba,
    pub corner: Rgba,
    pub fortress_attacker: Rgba,
    pub fortress_defender: Rgba,
    pub mark_symbol: Rgba,
    pub shadow: Rgba,
    pub attacker: PieceColors,
    pub defender: PieceColors,
    pub king: PieceColors,
    pub move_from: Rgba,
    pub move_to: Rgba,
    pub move_line: Rgba,
    pub capture_cross: Rgba,
    pub warning: Rgba,
    pub warning_text: Rgba,
}

impl Palette {
    pub fn of(theme: Theme) -> &'static Palette {
        match theme {
            Theme::Light => &LIGHT,
            Theme::Dark => &DARK,
        }
    }

    /// Colours a palette image must offer: the theme's solid colours, and shades between each
    /// text colour and its background so that small anti-aliased text keeps its shape.
    pub fn seed_colours(&self) -> Vec<[u8; 3]> {
        let text_on_ground = [
            (self.warning_text, self.warning),
            (self.caption_text, self.caption_band),
            (self.caption_muted, self.caption_band),
            (self.label, self.canvas),
            (self.warning, self.caption_band),
        ];
        let shades = text_on_ground.into_iter().flat_map(|(text, ground)| {
            [0.2f32, 0.4, 0.6, 0.8].map(|t| {
                let mix =
                    |a: u8, b: u8| (f32::from(a) * t + f32::from(b) * (1.0 - t)).round() as u8;
                [
                    mix(text.0, ground.0),
                    mix(text.1, ground.1),
                    mix(text.2, ground.2),
                ]
            })
        });
        let pieces = [self.attacker, self.defender, self.king]
            .into_iter()
            .flat_map(|p| [p.face, p.side, p.outline, p.detail]);
        [
            self.canvas,
            self.caption_band,
            self.caption_text,
            self.caption_muted,
            self.frame,
            self.square,
            self.grid,
            self.label,
            self.throne,
            self.corner,
            self.fortress_attacker,
            self.fortress_defender,
            self.mark_symbol,
            self.capture_cross,
            self.warning,
            self.warning_text,
        ]
        .into_iter()
        .chain(pieces)
        .filter(|c| c.3 == 255)
        .map(|c| [c.0, c.1, c.2])
        .chain(shades)
        .collect()
    }
}

static LIGHT: Palette = Palette {
    canvas: Rgba::opaque(0xF4EEE2),
    caption_band: Rgba::opaque(0xE6DAC3),
    caption_text: Rgba::opaque(0x33281C),
    caption_muted: Rgba::opaque(0x6B5740),
    frame: Rgba::opaque(0x6E4A2A),
    square: Rgba::opaque(0xEBD3A4),
    grid: Rgba::opaque(0xB38D5A),
    label: Rgba::opaque(0x5E4127),
    throne: Rgba::opaque(0xD8B275),
    corner: Rgba::opaque(0xCFA262),
    fortress_attacker: Rgba::opaque(0xDDC08C),
    fortress_defender: Rgba::opaque(0xF3E6C8),
    mark_symbol: Rgba::opaque(0x7A5230),
    shadow: Rgba(40, 24, 8, 90),
    attacker: PieceColors {
        face: Rgba::opaque(0x35302B),
        side: Rgba::opaque(0x15120F),
        outline: Rgba::opaque(0x0C0A09),
        detail: Rgba::opaque(0x6C645D),
    },
    defender: PieceColors {
        face: Rgba::opaque(0xFBF7EE),
        side: Rgba::opaque(0xC9BB9C),
        outline: Rgba::opaque(0x3A2F25),
        detail: Rgba::opaque(0x3A2F25),
    },
    king: PieceColors {
        face: Rgba::opaque(0xFFFAEA),
        side: Rgba::opaque(0xD3BE86),
        outline: Rgba::opaque(0x3A2F25),
        detail: Rgba::opaque(0xB8860B),
    },
    move_from: Rgba(255, 200, 40, 90),
    move_to: Rgba(255, 190, 20, 150),
    move_line: Rgba(214, 140, 0, 220),
    capture_cross: Rgba::opaque(0xC62828),
    warning: Rgba::opaque(0xD32F2F),
    warning_text: Rgba::opaque(0xFFFFFF),
};

static DARK: Palette = Palette {
    canvas: Rgba::opaque(0x17191E),
    caption_band: Rgba::opaque(0x23272F),
    caption_text: Rgba::opaque(0xE8EAEE),
    caption_muted: Rgba::opaque(0x9AA3B2),
    frame: Rgba::opaque(0x0C0D10),
    square: Rgba::opaque(0x4A5366),
    grid: Rgba::opaque(0x363D4C),
    label: Rgba::opaque(0x9AA3B2),
    throne: Rgba::opaque(0x5F6B85),
    corner: Rgba::opaque(0x6A7792),
    fortress_attacker: Rgba::opaque(0x3E4657),
    fortress_defender: Rgba::opaque(0x5A6479),
    mark_symbol: Rgba::opaque(0xC3CBD9),
    shadow: Rgba(0, 0, 0, 120),
    attacker: PieceColors {
        face: Rgba::opaque(0x1C1F25),
        side: Rgba::opaque(0x07080A),
        outline: Rgba::opaque(0xA3ACBB),
        detail: Rgba::opaque(0x4A505B),
    },
    defender: PieceColors {
        face: Rgba::opaque(0xF4F0E6),
        side: Rgba::opaque(0xB4AA95),
        outline: Rgba::opaque(0x101216),
        detail: Rgba::opaque(0x2A303A),
    },
    king: PieceColors {
        face: Rgba::opaque(0xFFF8E4),
        side: Rgba::opaque(0xC9B27A),
        outline: Rgba::opaque(0x101216),
        detail: Rgba::opaque(0xC8961E),
    },
    move_from: Rgba(90, 170, 255, 70),
    move_to: Rgba(90, 170, 255, 120),
    move_line: Rgba(124, 192, 255, 230),
    capture_cross: Rgba::opaque(0xFF6B6B),
    warning: Rgba::opaque(0xE53935),
    warning_text: Rgba::opaque(0xFFFFFF),
};
