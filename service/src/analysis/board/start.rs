//! Where an analysis board starts: a preset's rules or an OpenTafl rules string, and a
//! position (the rules' own start unless another is pasted), with the side to move.

use tafl_engine::{Game, Position, Rules, Side};

use crate::{Result, ServiceError};

/// The longest rules string (or position) a board link may carry (a 19x19 start and every
/// key fit).
pub const MAX_RULES_TEXT: usize = 1_000;

/// What a board was asked to start from, as a link or a form gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartAsked {
    /// A preset's id (`brandubh`).
    pub variant: Option<String>,
    /// An OpenTafl rules string, when no preset is named.
    pub rules: Option<String>,
    /// An OpenTafl position (`/3t3/.../`); the rules' start when absent.
    pub position: Option<String>,
    /// Who moves first in that position; the rules' first mover when absent.
    pub to_move: Option<String>,
}

/// A board's start, checked.
#[derive(Debug, Clone)]
pub struct BoardStart {
    /// The preset, when the rules are one.
    pub variant: Option<&'static tafl_engine::Variant>,
    pub rules: Rules,
    pub position: Position,
}

impl BoardStart {
    /// Reads and checks a start; every refusal names the part that is wrong.
    pub fn read(asked: &StartAsked) -> Result<BoardStart> {
        let (variant, rules) = match (blank(&asked.variant), blank(&asked.rules)) {
            (Some(id), _) => match tafl_engine::variant(id) {
                Some(v) => (Some(v), v.rules()),
                None => return invalid(format!("there is no variant {id:?}: see /variants")),
            },
            (None, Some(text)) if text.len() > MAX_RULES_TEXT => {
                return invalid(format!(
                    "the rules string is {} characters long; at most {MAX_RULES_TEXT} are read",
                    text.len()
                ));
            }
            (None, Some(text)) => match Rules::from_opentafl(text) {
                Ok(rules) => (None, rules),
                Err(e) => return invalid(format!("the rules string is not valid: {e}")),
            },
            (None, None) => {
                return invalid("choose a variant or paste a rules string".to_owned());
            }
        };
        let to_move = match blank(&asked.to_move) {
            None => rules.first_to_move(),
            Some(text) => text
                .parse::<Side>()
                .or_else(|e| invalid(format!("who is to move: {e}")))?,
        };
        let position = match blank(&asked.position) {
            Some(text) if text.len() > MAX_RULES_TEXT => {
                return invalid(format!(
                    "the position is {} characters long; at most {MAX_RULES_TEXT} are read",
                    text.len()
                ));
            }
            None => rules.start_position().with_side_to_move(to_move),
            Some(text) => match Position::from_opentafl(text, to_move) {
                Ok(p) if p.dim() == rules.dim() => p,
                Ok(p) => {
                    return invalid(format!(
                        "the position is {0}x{0} but the rules are for {1}x{1}",
                        p.dim(),
                        rules.dim()
                    ));
                }
                Err(e) => return invalid(format!("the position is not valid: {e}")),
            },
        };
        Ok(BoardStart {
            variant,
            rules,
            position,
        })
    }

    /// The start as a link names it: the preset (or rules string), and the position and side
    /// only when they are not the rules' own start.
    pub fn asked(&self) -> StartAsked {
        let own = self.rules.start_position();
        let own_start = self.position == own.with_side_to_move(self.position.side_to_move());
        let own_side = self.position.side_to_move() == self.rules.first_to_move();
        StartAsked {
            variant: self.variant.map(|v| v.id.to_owned()),
            rules: self.variant.is_none().then(|| self.rules.to_opentafl()),
            position: (!own_start).then(|| self.position.to_opentafl()),
            to_move: (!own_side).then(|| self.position.side_to_move().as_str().to_owned()),
        }
    }

    /// A game at this start.
    pub fn game(&self) -> Game {
        Game::from_position(self.rules.clone(), self.position)
    }

    /// The board's name: the preset's, else "Custom rules (9x9)".
    pub fn name(&self) -> String {
        match self.variant {
            Some(v) => v.name.to_owned(),
            None => format!("Custom rules ({0}x{0})", self.rules.dim()),
        }
    }
}

fn invalid<T>(message: String) -> Result<T> {
    Err(ServiceError::Invalid(message))
}

fn blank(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(variant: Option<&str>, rules: Option<&str>, position: Option<&str>) -> StartAsked {
        StartAsked {
            variant: variant.map(str::to_owned),
            rules: rules.map(str::to_owned),
            position: position.map(str::to_owned),
            to_move: None,
        }
    }

    #[test]
    fn a_presets_own_start_is_named_by_the_preset_alone() {
        let start = BoardStart::read(&asked(Some("brandubh"), None, None)).unwrap();
        assert_eq!(start.asked(), asked(Some("brandubh"), None, None));
        assert_eq!(start.name(), "Brandubh");
    }

    #[test]
    fn a_pasted_position_and_rules_string_are_kept() {
        let rules = tafl_engine::variant("brandubh")
            .unwrap()
            .rules()
            .to_opentafl();
        let position = "/3t3/3t3/7/tt1KTtt/3T3/3t3/3t3/";
        let start = BoardStart::read(&StartAsked {
            to_move: Some("defenders".into()),
            ..asked(None, Some(&rules), Some(position))
        })
        .unwrap();
        assert_eq!(start.position.side_to_move(), Side::Defenders);
        let again = start.asked();
        assert_eq!(again.position.as_deref(), Some(position));
        assert_eq!(again.to_move.as_deref(), Some("defenders"));
        assert!(again.variant.is_none() && again.rules.is_some());
    }

    #[test]
    fn broken_starts_say_what_is_wrong() {
        let refusal = |a: StartAsked| match BoardStart::read(&a) {
            Err(ServiceError::Invalid(m)) => m,
            other => panic!("expected a refusal, got {other:?}"),
        };
        assert!(refusal(asked(Some("chess"), None, None)).contains("no variant \"chess\""));
        assert!(refusal(asked(None, Some("dim:99"), None)).starts_with("the rules string"));
        assert!(refusal(asked(Some("brandubh"), None, Some("/3t3/"))).starts_with("the position"));
        assert!(
            refusal(asked(
                Some("copenhagen"),
                None,
                Some("/3t3/3t3/7/tt1KTtt/3T3/3t3/3t3/")
            ))
            .contains("7x7 but the rules are for 11x11")
        );
        assert!(refusal(asked(None, None, None)).contains("choose a variant"));
    }
}
