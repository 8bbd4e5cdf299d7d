//! The workspace's crates form layers (docs/architecture.md, "Crates"): Cargo already refuses
//! a cycle, so a crate can never use one that uses it; this test keeps what Cargo cannot see,
//! that each crate uses only crates of the layers below its own, so the rules never depend on
//! a front end and no front end on another.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::collections::BTreeMap;
use std::path::Path;

/// The layers, from the bottom up; crates of one layer never use each other.
const LAYERS: &[&[&str]] = &[
    &["tafl-engine", "taflbot-test-support"],
    &["tafl-render", "tafl-cli"],
    &["tafl-tools", "taflbot-domain"],
    &["taflbot-config"],
    &["taflbot-store"],
    &["taflbot-service"],
    &["taflbot-notify", "taflbot-discord"],
    &["taflbot-web"],
    &["taflbot"],
    &["taflbot-bench", "taflbot-e2e"],
];

fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&name))
}

/// Each member's name and the workspace crates among its `[dependencies]`.
fn members() -> BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members_line = manifest
        .lines()
        .find(|l| l.starts_with("members = ["))
        .expect("the workspace lists its members on one line");
    let mut crates = BTreeMap::new();
    for dir in members_line.split('"').skip(1).step_by(2) {
        let text = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or_else(|| panic!("{dir}/Cargo.toml names its package"))
            .to_owned();
        let mut section = "";
        let mut uses = Vec::new();
        for line in text.lines() {
            if line.starts_with('[') {
                section = line;
            } else if section == "[dependencies]" {
                let dependency: String = line
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                if layer_of(&dependency).is_some() {
                    uses.push(dependency);
                }
            }
        }
        crates.insert(name, uses);
    }
    crates
}

#[test]
fn every_crate_uses_only_crates_of_lower_layers() {
    let crates = members();
    assert!(
        crates
            .get("taflbot-service")
            .is_some_and(|uses| uses.iter().any(|u| u == "taflbot-store")),
        "the scan finds what crates use: {crates:?}"
    );
    for (name, uses) in &crates {
        let own = layer_of(name).unwrap_or_else(|| panic!("{name} is in no layer of LAYERS"));
        for dependency in uses {
            let theirs = layer_of(dependency).unwrap_or(usize::MAX);
            assert!(
                theirs < own,
                "{name} uses {dependency}, which is not in a layer below it (docs/architecture.md, \"Crates\")"
            );
        }
    }
}
