//! tafl-tools: the engine's tooling, apart from the service. Our AI behind the OpenTafl
//! Engine Protocol (`protocol::engine`), external engines as players (`protocol`), refereed
//! matches between players (`matches`) and the fitting of evaluation weights (`tune`).
//!
//! The `tafl` binary (`src/bin/tafl/`, one file per subcommand) parses its arguments and
//! calls here; nothing here knows about the service.

pub mod matches;
pub mod protocol;
pub mod rating_list;
pub mod sprt;
pub mod stats;
pub mod tune;
