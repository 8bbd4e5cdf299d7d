//! The options the commands that play from a position share: which rules, and which position.

use anyhow::{Context, anyhow, bail};
use clap::Args;
use tafl_engine::{Position, Rules, Side, check_start, variant, variants};

#[derive(Debug, Clone, Args)]
pub struct RulesSource {
    /// A named variant (see the `variants` command).
    #[arg(long, conflicts_with = "rules")]
    pub variant: Option<String>,
    /// An OpenTafl rules string, e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".
    #[arg(long)]
    pub rules: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct PositionArgs {
    /// An OpenTafl position record (first row = rank 1); default: the start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Side to move in --position: attackers or defenders (default: who moves first).
    #[arg(long)]
    pub to_move: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct GameSource {
    #[command(flatten)]
    pub rules: RulesSource,
    #[command(flatten)]
    pub position: PositionArgs,
}

impl RulesSource {
    /// The rules, refused when their start cannot begin a game (see `Rules::check_start`).
    pub fn load(&self) -> anyhow::Result<Rules> {
        let rules = self.named_or_custom()?;
        rules
            .check_start()
            .map_err(|e| anyhow!("these rules cannot start a game: {e}"))?;
        Ok(rules)
    }

    fn named_or_custom(&self) -> anyhow::Result<Rules> {
        match (&self.variant, &self.rules) {
            (Some(id), _) => match variant(id) {
                Some(v) => Ok(v.rules()),
                None => {
                    let known: Vec<&str> = variants().iter().map(|v| v.id).collect();
                    bail!("unknown variant {id:?}; known: {}", known.join(", "))
                }
            },
            (None, Some(text)) => Rules::from_opentafl(text).context("bad --rules"),
            (None, None) => {
                bail!("say which rules: --variant NAME or --rules \"OpenTafl rules string\"")
            }
        }
    }
}

impl GameSource {
    /// The rules and the position to play from, refused only when no game can begin there
    /// (see `tafl_engine::check_start`): a mid-game position is judged, not the rules' start.
    pub fn load(&self) -> anyhow::Result<(Rules, Position)> {
        let rules = self.rules.named_or_custom()?;
        let to_move = match &self.position.to_move {
            Some(text) => text.parse::<Side>().context("bad --to-move")?,
            None => rules.first_to_move(),
        };
        let position = match &self.position.position {
            Some(record) => {
                let position =
                    Position::from_opentafl(record, to_move).context("bad --position")?;
                if position.dim() != rules.dim() {
                    bail!(
                        "--position is {}x{}, but the rules are for {}x{}",
                        position.dim(),
                        position.dim(),
                        rules.dim(),
                        rules.dim()
                    );
                }
                position
            }
            None => rules.start_position().with_side_to_move(to_move),
        };
        check_start(&rules, &position).map_err(|e| match self.position.position {
            Some(_) => anyhow!("this position cannot start a game: {e}"),
            None => anyhow!("these rules cannot start a game: {e}"),
        })?;
        Ok((rules, position))
    }
}
