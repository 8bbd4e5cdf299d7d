//! Talking to other tafl programs: our engine behind the OpenTafl Engine Protocol, and
//! external engines (OpenTafl Engine Protocol or the hnefatafl text protocol) as match players.

pub mod engine;
pub mod htp_client;
pub mod otep_client;
pub mod player;
pub mod process;
