//! The modules of `bot/src` form layers (docs/architecture.md, "Modules, and which may use
//! which"): no two of them use each other, directly or through others.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `bot/src` and the other top-level modules its files name as
/// `crate::X`.
fn uses() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "lib.rs" && name != "main.rs")
        .map(|name| name.trim_end_matches(".rs").to_owned())
        .collect();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap();
            let module = first.as_os_str().to_string_lossy();
            let module = module.trim_end_matches(".rs").to_owned();
            if !modules.contains(&module) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, _) in text.match_indices("crate::") {
                let name: String = text[at + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name != module && modules.contains(&name) {
                    uses.entry(module.clone()).or_default().insert(name);
                }
            }
        }
    }
    uses
}

/// A chain of modules from `from` back to itself, if there is one.
fn cycle_through(from: &str, uses: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut path = vec![from.to_owned()];
    let mut seen = BTreeSet::new();
    fn walk(
        at: &str,
        from: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in uses.get(at).into_iter().flatten() {
            if next == from {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(next, from, uses, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    walk(from, from, uses, &mut path, &mut seen).then_some(path)
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let uses = uses();
    assert!(
        uses.get("service").is_some_and(|u| u.contains("store")),
        "the scan finds what modules use: {uses:?}"
    );
    for module in uses.keys() {
        if let Some(cycle) = cycle_through(module, &uses) {
            panic!("modules use each other: {}", cycle.join(" -> "));
        }
    }
}
