//! tafl-engine: rules, positions, moves, outcomes, notation, perft and AI for the hnefatafl family.
