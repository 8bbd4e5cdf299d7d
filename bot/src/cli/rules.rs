//! `taflbot variants` and `taflbot rules VARIANT`.

use std::process::ExitCode;

use clap::Args;
use tafl_engine::variants;

use super::RulesSource;

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A named variant.
    #[arg(value_name = "VARIANT")]
    pub name: Option<String>,
    #[command(flatten)]
    pub source: RulesSource,
}

pub fn list_variants() -> anyhow::Result<ExitCode> {
    for v in variants() {
        super::outln!("{:<24} {:<48} {}", v.id, v.name, v.source);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: RulesArgs) -> anyhow::Result<ExitCode> {
    let mut source = args.source;
    if let Some(id) = args.name {
        source.variant = Some(id);
    }
    let rules = source.load()?;
    super::outln!("{}", rules.summary());
    super::outln!("");
    super::outln!("OpenTafl rules string:");
    super::outln!("{}", rules.to_opentafl());
    Ok(ExitCode::SUCCESS)
}
