//! `taflbot import FILE...`: on the server, game records brought into its database, each
//! checked move by move by the referee and stored like `POST /games/import` stores it
//! (finished, unrated, public, the players as the record names them). One line per file as
//! it goes, a summary at the end, and a failing exit code if any file was refused.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::config::Config;
use crate::service::study::{ImportRequest, MAX_RECORD_BYTES, RecordFormat};

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// Game records: OpenTafl .otg files, or archive move lists (with --variant).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// How the records are written; by default an .otg when the file has a [rules:...] tag.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// The variant of move lists (their rules are not in the record), e.g. copenhagen.
    #[arg(long)]
    pub variant: Option<String>,
    /// Config file (see config.example.toml): the database; TAFLBOT_* variables override it.
    #[arg(long, short, env = "TAFLBOT_CONFIG")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    Otg,
    Moves,
}

impl From<FormatArg> for RecordFormat {
    fn from(arg: FormatArg) -> RecordFormat {
        match arg {
            FormatArg::Otg => RecordFormat::Otg,
            FormatArg::Moves => RecordFormat::Moves,
        }
    }
}

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let service = super::server_database::open_existing(&config)?;
        let total = args.files.len();
        let mut refused = 0;
        for (index, path) in args.files.iter().enumerate() {
            let step = format!("[{}/{total}] {}", index + 1, path.display());
            let text = match read_record(path) {
                Ok(text) => text,
                Err(reason) => {
                    refused += 1;
                    eprintln!("{step}: refused: {reason}");
                    continue;
                }
            };
            let request = ImportRequest {
                text,
                format: args.format.map(RecordFormat::from),
                variant: args.variant.clone(),
            };
            match service.study().import(None, request).await {
                Ok(game) => crate::cli::outln!(
                    "{step}: game {} ({} vs {}, {} moves, {} annotations)",
                    game.game_id,
                    game.attackers,
                    game.defenders,
                    game.plies,
                    game.annotations
                ),
                Err(e) => {
                    refused += 1;
                    eprintln!("{step}: refused: {e}");
                }
            }
        }
        let imported = total - refused;
        crate::cli::outln!("imported {imported} of {total} records; {refused} refused");
        Ok(if refused == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}

/// A record file's text, refused before reading when it is too large to be a record.
fn read_record(path: &std::path::Path) -> Result<String, String> {
    let size = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if size > MAX_RECORD_BYTES as u64 {
        return Err(format!(
            "the file is {size} bytes; a record is at most {MAX_RECORD_BYTES}"
        ));
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}
