//! How a board is drawn: size, theme, orientation.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::error::RenderError;

/// Default image width in pixels.
pub const DEFAULT_SIZE: u32 = 800;
/// Below this, labels and pieces stop being legible.
pub const MIN_SIZE: u32 = 160;
/// Above this, a picture costs too much memory for a chat message.
pub const MAX_SIZE: u32 = 4096;

/// Colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Theme {
    /// Maple board, walnut frame, on parchment.
    #[default]
    Light,
    /// Slate board on a near-black background, for dark chat clients.
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 2] = [Theme::Light, Theme::Dark];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A theme name that is not one of ours.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("unknown theme `{given}`: expected one of light, dark")]
pub struct ThemeParseError {
    pub given: String,
}

impl FromStr for Theme {
    type Err = ThemeParseError;

    fn from_str(text: &str) -> Result<Theme, ThemeParseError> {
        let wanted = text.trim();
        Theme::ALL
            .into_iter()
            .find(|theme| theme.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| ThemeParseError {
                given: text.to_string(),
            })
    }
}

/// Size, theme and orientation of a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Style {
    /// Image width in pixels (the caption strip, if any, adds to the height).
    pub size: u32,
    pub theme: Theme,
    /// Turn the board half a turn so that rank 1 and file `a` sit at the top right.
    pub flip: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            size: DEFAULT_SIZE,
            theme: Theme::Light,
            flip: false,
        }
    }
}

impl Style {
    pub fn validate(&self) -> Result<(), RenderError> {
        if (MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            Ok(())
        } else {
            Err(RenderError::Size {
                size: self.size,
                min: MIN_SIZE,
                max: MAX_SIZE,
            })
        }
    }
}
