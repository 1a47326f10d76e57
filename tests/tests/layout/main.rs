//! The layout rule: no import circles between the files of any target, no source file
//! over 800 lines (ARCHITECTURE.md, "Import circles and file sizes").
//!
//! Every target of every workspace package (lib, bins, tests, benches, examples, build
//! scripts) is read from `cargo metadata`; its module tree follows `mod` declarations
//! from the root file (`#[path]` honoured, `include!`d files are generated code and not
//! followed). File A has an edge to file B when a path in A names an item of B: in `use`
//! items, code, types, patterns, attributes (their paths and arguments), macro
//! invocations' tokens (not `quote!`/`quote_spanned!`/`parse_quote!` bodies) and
//! intra-doc links. Paths start at `crate::`, `$crate::`, `self::`, `super::` or a
//! module name in scope, and walk through declared modules only: re-exports are not
//! followed, so naming `crate::Router` where lib.rs re-exports it is an edge to lib.rs.
//! A circle is a set of two or more files that reach each other.
//!
//! ```text
//! cargo test -p mcpdesc-tests --test layout                      # the whole workspace
//! MCPDESC_LAYOUT_CRATE=mcpdesc-check cargo test -p mcpdesc-tests --test layout
//! MCPDESC_LAYOUT_GRAPH=1 MCPDESC_LAYOUT_CRATE=mcpdesc-docs \
//!     cargo test -p mcpdesc-tests --test layout workspace        # print the graph too
//! ```
//!
//! `MCPDESC_LAYOUT_CRATE` takes package names separated by commas. A failure prints
//! each circle as a cycle of files with, per edge, every `file:line` and the path that
//! makes it, and each file over the bound with its number of lines.

mod check;
mod doc_links;
mod edges;
mod graph;
mod modules;
mod report;
mod rule;
mod scope;
mod selftest;
mod targets;
mod tokens;

use std::io::Write as _;
use std::path::Path;

/// Package names to check, separated by commas (all when unset).
const CRATE_VARIABLE: &str = "MCPDESC_LAYOUT_CRATE";
/// Set to `1` to print every checked target's graph on standard error.
const GRAPH_VARIABLE: &str = "MCPDESC_LAYOUT_GRAPH";

#[test]
fn workspace_has_no_import_circles_and_no_oversize_files() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let workspace = targets::workspace(&manifest).unwrap_or_else(|error| panic!("{error}"));
    let wanted: Vec<String> = std::env::var(CRATE_VARIABLE)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    for name in &wanted {
        let known = workspace.targets.iter().any(|t| &t.package == name);
        assert!(
            known,
            "{CRATE_VARIABLE}: no workspace package is named {name}"
        );
    }
    let selected: Vec<targets::Target> = workspace
        .targets
        .iter()
        .filter(|target| wanted.is_empty() || wanted.contains(&target.package))
        .cloned()
        .collect();
    let outcome = check::check(
        &workspace.root,
        &selected,
        rule::SIZE_EXCEPTIONS,
        wanted.is_empty(),
    );
    if std::env::var(GRAPH_VARIABLE).is_ok_and(|value| value == "1") {
        // Straight to the handle: libtest captures `eprint!` of passing tests.
        let graphs = report::graphs(&outcome, &workspace.root);
        let _ = std::io::stderr().write_all(graphs.as_bytes());
    }
    assert!(
        outcome.is_clean(),
        "{}",
        report::findings(&outcome, &workspace.root)
    );
    eprintln!("{}", report::summary(&outcome, &workspace.root));
}
