#!/usr/bin/env bash
# Each level against the one below it at the levels' own (full) budgets, paired games.
#
#   scripts/level-ladder.sh [VARIANT] [OPENINGS] [SEED]     (defaults: copenhagen, 4, 7)
#
# Levels 1-4 are bounded by nodes (the same games on any machine); level 5 thinks 10 s a move,
# so its pairing takes about an hour per 8 games on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:-copenhagen}"
openings="${2:-4}"
seed="${3:-7}"
cargo build --release -p tafl-tools --bin tafl
target/release/tafl match --variant "$variant" --ladder --openings "$openings" \
    --seed "$seed" --out "match-games/ladder-$variant"
