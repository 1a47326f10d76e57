//! Which files are a target's source files, and the size bound over them.

use std::collections::BTreeSet;

use super::fixture::Fixture;
use crate::check::check;
use crate::rule::SizeException;
use crate::targets::workspace;

#[test]
fn module_files_are_found_as_rustc_finds_them() {
    let fixture = Fixture::new(
        "module-files",
        &[
            (
                "src/lib.rs",
                "mod flat;\nmod nested;\n#[path = \"elsewhere/renamed.rs\"]\nmod renamed;\n\
                 mod inline {\n    mod deep;\n}\n\
                 mod generated {\n    include!(\"gen.rs\");\n}\n\
                 #[cfg(windows)]\nmod flat_alternative;\n",
            ),
            (
                "src/flat.rs",
                "mod child;\nmod inner {\n    #[path = \"p.rs\"]\n    mod p;\n}\n",
            ),
            ("src/flat/child.rs", ""),
            ("src/flat/inner/p.rs", ""),
            ("src/nested/mod.rs", "mod leaf;\n"),
            ("src/nested/leaf.rs", ""),
            ("src/elsewhere/renamed.rs", "mod sibling;\n"),
            ("src/elsewhere/sibling.rs", ""),
            ("src/inline/deep.rs", "pub fn f() {}\n"),
            (
                "src/gen.rs",
                "pub fn generated() { crate::flat::missing(); }\n",
            ),
            ("src/flat_alternative.rs", ""),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    let expected = [
        "src/lib.rs",
        "src/flat.rs",
        "src/flat/child.rs",
        "src/flat/inner/p.rs",
        "src/nested/mod.rs",
        "src/nested/leaf.rs",
        "src/elsewhere/renamed.rs",
        "src/elsewhere/sibling.rs",
        "src/inline/deep.rs",
        "src/flat_alternative.rs",
    ];
    let expected: BTreeSet<String> = expected.iter().map(|f| f.to_string()).collect();
    assert_eq!(fixture.files(&outcome), expected);
    assert!(fixture.edges(&outcome).is_empty());
}

#[test]
fn a_missing_module_file_is_a_problem_naming_its_declaration() {
    let fixture = Fixture::new("missing", &[("src/lib.rs", "//! Docs.\nmod gone;\n")]);
    let target = crate::targets::Target {
        package: "fixture".into(),
        name: "fixture".into(),
        kind: "lib".into(),
        root: fixture.dir.join("src/lib.rs"),
    };
    let outcome = check(&fixture.dir, &[target], &[], true);
    assert!(!outcome.is_clean());
    let report = fixture.findings(&outcome);
    assert!(report.contains("gone.rs: cannot read"), "{report}");
    assert!(report.contains("(module `gone` declared at "), "{report}");
    assert!(report.contains("src/lib.rs:2)"), "{report}");
}

#[test]
fn files_over_the_bound_are_reported_with_their_length() {
    let lines = |n: usize| "// line\n".repeat(n);
    let (at_bound, over) = (
        lines(800),
        format!("mod at_bound;\nmod over;\n{}", lines(799)),
    );
    let fixture = Fixture::new(
        "sizes",
        &[
            ("src/lib.rs", &over),
            ("src/at_bound.rs", &at_bound),
            ("src/over.rs", &lines(1203)),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    let report = fixture.findings(&outcome);
    assert!(
        report.contains("  src/lib.rs: 801 lines\n  src/over.rs: 1203 lines\n"),
        "{report}"
    );
    assert!(!report.contains("at_bound"), "{report}");

    let exceptions = [
        SizeException {
            path: "src/lib.rs",
            reason: "a test",
        },
        SizeException {
            path: "src/over.rs",
            reason: "a test",
        },
        SizeException {
            path: "src/at_bound.rs",
            reason: "a test",
        },
        SizeException {
            path: "src/gone.rs",
            reason: "a test",
        },
    ];
    let outcome = fixture.check_with("src/lib.rs", &exceptions);
    assert!(outcome.oversize.is_empty());
    let report = fixture.findings(&outcome);
    assert!(
        report.contains("\n  allowed over the bound: src/lib.rs: 801 lines (a test)\n"),
        "{report}"
    );
    assert_eq!(
        outcome.stale_exceptions,
        [
            "src/at_bound.rs: 800 lines, within the bound: remove its exception",
            "src/gone.rs: no target has this file: remove its exception",
        ]
    );
}

#[test]
fn cargo_metadata_lists_every_target_and_each_is_checked() {
    let manifest = "[package]\nname = \"layout-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
                    publish = false\n\n[workspace]\n";
    let fixture = Fixture::new(
        "metadata",
        &[
            ("Cargo.toml", manifest),
            ("build.rs", "fn main() {}\n"),
            ("src/lib.rs", "pub fn f() {}\n"),
            ("src/bin/tool.rs", "fn main() {}\n"),
            ("examples/demo.rs", "fn main() {}\n"),
            ("benches/speed.rs", "fn main() {}\n"),
            (
                "tests/probe.rs",
                "mod support;\npub struct Shared;\npub fn g() {\n    support::f(Shared);\n}\n",
            ),
            ("tests/support/mod.rs", "pub fn f(_: super::Shared) {}\n"),
        ],
    );
    let workspace = workspace(&fixture.dir.join("Cargo.toml")).unwrap();
    assert_eq!(workspace.root, fixture.dir);
    let mut found: Vec<(String, String, String)> = workspace
        .targets
        .iter()
        .map(|target| {
            let root = target.root.strip_prefix(&fixture.dir).unwrap();
            (
                target.kind.clone(),
                target.name.clone(),
                root.display().to_string(),
            )
        })
        .collect();
    found.sort();
    let expected = [
        ("bench", "speed", "benches/speed.rs"),
        ("bin", "tool", "src/bin/tool.rs"),
        ("custom-build", "build-script-build", "build.rs"),
        ("example", "demo", "examples/demo.rs"),
        ("lib", "layout_probe", "src/lib.rs"),
        ("test", "probe", "tests/probe.rs"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(k, n, r)| (k.to_string(), n.to_string(), r.to_string()))
        .collect();
    assert_eq!(found, expected);

    let outcome = check(&workspace.root, &workspace.targets, &[], true);
    let report = fixture.findings(&outcome);
    assert!(report.contains("1 circle(s)"), "{report}");
    assert!(
        report.contains("  in layout-probe test probe\n"),
        "{report}"
    );
    assert!(
        report.contains("      tests/support/mod.rs:1: super::Shared\n"),
        "{report}"
    );
}
