#!/usr/bin/env bash
# The AI's strength target: our top level at 1 s per move against hnefatafl-copenhagen's
# `basic` AI (depth 4), paired games in Copenhagen and in 7x7 Brandubh under that engine's
# rules. Installs what it needs; takes hours (that AI thinks 1-60 s per Copenhagen move here).
#
#   scripts/match-vs-hnefatafl-copenhagen.sh [OPENINGS] [SEED]     (defaults: 10, 11)
#
# Writes every game as .otg under match-games/<variant>/ and prints one summary per variant.
set -euo pipefail
cd "$(dirname "$0")/.."
openings="${1:-10}"
seed="${2:-11}"

if ! command -v hnefatafl-text-protocol >/dev/null; then
    cargo install hnefatafl-copenhagen --version 6.4.1 --no-default-features --locked
fi
# Its own binary cannot play 7x7 (it panics printing the 7x7 escape table), hence the wrapper.
cargo build --release --manifest-path tools/hnefatafl-basic-htp/Cargo.toml \
    --target-dir target/tools
cargo build --release -p tafl-tools --bin tafl

for variant in brandubh-hnefatafl-org copenhagen; do
    case "$variant" in
        copenhagen) engine="hnefatafl-text-protocol" ;;
        *) engine="$PWD/target/tools/release/hnefatafl-basic-htp" ;;
    esac
    target/release/tafl match --variant "$variant" --a 5 --b "htp:$engine" \
        --time-ms 1000 --openings "$openings" --seed "$seed" --out "match-games/$variant"
done
