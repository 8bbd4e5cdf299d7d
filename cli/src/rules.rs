//! The `variants` and `rules VARIANT` commands, of both `taflbot` and `tafl`.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use tafl_engine::variants;

use crate::RulesSource;

/// The `variants` and `rules` commands, flattened into each binary's own commands.
#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// List the named variants.
    Variants,
    /// Print a readable summary of a variant's rules (and its OpenTafl rules string).
    Rules(RulesArgs),
}

impl RulesCommand {
    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self {
            RulesCommand::Variants => list_variants(),
            RulesCommand::Rules(args) => run(args),
        }
    }
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A named variant.
    #[arg(value_name = "VARIANT")]
    pub name: Option<String>,
    #[command(flatten)]
    pub source: RulesSource,
}

fn list_variants() -> anyhow::Result<ExitCode> {
    for v in variants() {
        crate::outln!("{:<24} {:<48} {}", v.id, v.name, v.source);
    }
    Ok(ExitCode::SUCCESS)
}

fn run(args: RulesArgs) -> anyhow::Result<ExitCode> {
    let mut source = args.source;
    if let Some(id) = args.name {
        source.variant = Some(id);
    }
    let rules = source.load()?;
    crate::outln!("{}", rules.summary());
    crate::outln!("");
    crate::outln!("OpenTafl rules string:");
    crate::outln!("{}", rules.to_opentafl());
    Ok(ExitCode::SUCCESS)
}
