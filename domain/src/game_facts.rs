//! What every public feature asks of a game before it takes anything from it: who may see it,
//! and where it came from.

use super::Seat;

/// Who may see a game: everyone, or its players alone (`private: true` when it was made).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    /// Its players (and, for an imported game, its importer) alone: no public page, list,
    /// feed, explorer, puzzle or announcement shows it.
    Private,
}

impl Visibility {
    /// The visibility a game's `private` flag stands for.
    pub fn of_private_flag(private: bool) -> Visibility {
        if private {
            Visibility::Private
        } else {
            Visibility::Public
        }
    }

    pub fn is_public(self) -> bool {
        self == Visibility::Public
    }
}

/// Where a game's moves came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameOrigin {
    /// Played here, between people.
    Played,
    /// Played here, a person against the taflbot AI (or two AI levels).
    AgainstAi,
    /// Read from a record played elsewhere: not a game of this server's players.
    Imported,
}

impl GameOrigin {
    /// The origin its seats show: an imported name on either seat makes an imported game.
    pub fn of_seats(attackers: Seat, defenders: Seat) -> GameOrigin {
        match (attackers, defenders) {
            (Seat::Imported(_), _) | (_, Seat::Imported(_)) => GameOrigin::Imported,
            (Seat::Ai(_), _) | (_, Seat::Ai(_)) => GameOrigin::AgainstAi,
            (Seat::Player(_), Seat::Player(_)) => GameOrigin::Played,
        }
    }

    /// Whether the game was played on this server (and so may count as "played here").
    pub fn played_here(self) -> bool {
        self != GameOrigin::Imported
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ImportedPlayerId, PlayerId};

    #[test]
    fn a_game_with_an_imported_seat_was_not_played_here() {
        let person = Seat::Player(PlayerId(1));
        let imported = Seat::Imported(ImportedPlayerId(2));
        assert_eq!(GameOrigin::of_seats(person, imported), GameOrigin::Imported);
        assert!(!GameOrigin::of_seats(imported, imported).played_here());
        assert_eq!(GameOrigin::of_seats(person, person), GameOrigin::Played);
        assert!(GameOrigin::of_seats(person, person).played_here());
        assert_eq!(Visibility::of_private_flag(true), Visibility::Private);
        assert!(Visibility::of_private_flag(false).is_public());
    }
}
