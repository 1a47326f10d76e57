//! Each way of naming another file's items makes its edge, and the circles they close
//! are found and reported with their sites.

use std::collections::BTreeSet;

use super::fixture::{edge, Fixture};

#[test]
fn a_parent_and_a_child_through_a_re_export_are_a_circle() {
    let fixture = Fixture::new(
        "reexport",
        &[
            (
                "src/lib.rs",
                "mod router;\npub use router::Router;\npub struct ToolResult;\n",
            ),
            (
                "src/router.rs",
                "pub struct Router(pub crate::ToolResult);\n",
            ),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    assert_eq!(outcome.circles.len(), 1);
    let report = fixture.findings(&outcome);
    let expected = "\
circle 1 of 1: 2 files: src/lib.rs, src/router.rs
  in fixture lib fixture
  cycle: src/lib.rs -> src/router.rs -> src/lib.rs
    src/lib.rs -> src/router.rs
      src/lib.rs:2: router::Router
    src/router.rs -> src/lib.rs
      src/router.rs:1: crate::ToolResult
";
    assert!(report.contains(expected), "{report}");

    // Moving `ToolResult` below both and naming it by its module breaks the circle.
    let fixed = Fixture::new(
        "reexport-fixed",
        &[
            (
                "src/lib.rs",
                "mod result;\nmod router;\npub use result::ToolResult;\npub use router::Router;\n",
            ),
            ("src/result.rs", "pub struct ToolResult;\n"),
            (
                "src/router.rs",
                "pub struct Router(pub crate::result::ToolResult);\n",
            ),
        ],
    );
    let outcome = fixed.check("src/lib.rs");
    assert!(outcome.is_clean(), "{}", fixed.findings(&outcome));
    assert_eq!(
        fixed.edges(&outcome),
        BTreeSet::from([
            edge("src/lib.rs", "src/result.rs", &["3: result::ToolResult"]),
            edge("src/lib.rs", "src/router.rs", &["4: router::Router"]),
            edge(
                "src/router.rs",
                "src/result.rs",
                &["1: crate::result::ToolResult"]
            ),
        ])
    );
}

#[test]
fn a_glob_of_super_names_the_parent_and_binds_its_modules() {
    let fixture = Fixture::new(
        "glob",
        &[
            (
                "src/lib.rs",
                "mod a;\nmod b;\npub fn helper() {}\npub fn run() {\n    a::go();\n}\n",
            ),
            (
                "src/a.rs",
                "use super::*;\n\npub fn go() {\n    helper();\n    b::x();\n}\n",
            ),
            (
                "src/b.rs",
                "pub fn x() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    \
                 #[test]\n    fn t() {\n        x();\n    }\n}\n",
            ),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    assert_eq!(
        fixture.edges(&outcome),
        BTreeSet::from([
            edge("src/a.rs", "src/lib.rs", &["1: super::*"]),
            edge("src/a.rs", "src/b.rs", &["5: b::x"]),
            edge("src/lib.rs", "src/a.rs", &["5: a::go"]),
        ])
    );
    let circles: Vec<_> = outcome.circles.iter().map(|c| c.files.len()).collect();
    assert_eq!(circles, [2]);
}

#[test]
fn a_module_alias_names_the_deepest_module_its_paths_reach() {
    let fixture = Fixture::new(
        "alias",
        &[
            ("src/lib.rs", "mod m;\nmod user;\nmod other;\n"),
            ("src/m.rs", "pub mod x;\n"),
            (
                "src/m/x.rs",
                "pub struct Y;\npub fn f() -> crate::user::U {\n    crate::user::U\n}\n",
            ),
            (
                "src/user.rs",
                "use crate::m;\n\npub struct U;\npub fn g() -> m::x::Y {\n    m::x::Y\n}\n",
            ),
            (
                "src/other.rs",
                "pub fn h() {\n    use crate::m::x as renamed;\n    let _ = renamed::Y;\n}\n\
                 pub fn k() {\n    let _ = x::Y;\n}\n",
            ),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    assert_eq!(
        fixture.edges(&outcome),
        BTreeSet::from([
            edge(
                "src/m/x.rs",
                "src/user.rs",
                &["2: crate::user::U", "3: crate::user::U"]
            ),
            // A block's `use` binds its alias in the block only: `x::Y` in `k` is not
            // the crate's.
            edge("src/other.rs", "src/m/x.rs", &["3: renamed::Y"]),
            edge("src/user.rs", "src/m/x.rs", &["4: m::x::Y", "5: m::x::Y"]),
        ])
    );
    assert_eq!(outcome.circles.len(), 1);
    let report = fixture.findings(&outcome);
    assert!(
        report.contains("cycle: src/m/x.rs -> src/user.rs -> src/m/x.rs"),
        "{report}"
    );
}

#[test]
fn intra_doc_links_with_a_path_are_edges() {
    let fixture = Fixture::new(
        "doc-links",
        &[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            (
                "src/a.rs",
                "//! See [`crate::b::B`] and [the other](super::b::C).\n\
                 /// ```\n\
                 /// let _ = crate::b::NotALink;\n\
                 /// [crate::b::InAFence]\n\
                 /// ```\n\
                 /// [a page](https://example.com/crate::b) and `[crate::b::InCode]`\n\
                 /// [`B`] alone is an item in scope; [`crate::b::B<u8>`] is a path.\n\
                 ///\n\
                 /// [defined]: fn@crate::b::make()\n\
                 pub struct A;\n",
            ),
            (
                "src/b.rs",
                "/// Made from [`A`](crate::a::A).\npub struct B;\npub struct C;\npub fn make() {}\n",
            ),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    let link = |path: &str| format!("[{path}] (doc link)");
    let a_to_b = [
        format!("1: {}", link("crate::b::B")),
        format!("1: {}", link("super::b::C")),
        format!("7: {}", link("crate::b::B")),
        format!("9: {}", link("crate::b::make")),
    ];
    let b_to_a = [format!("1: {}", link("crate::a::A"))];
    fn as_str(sites: &[String]) -> Vec<&str> {
        sites.iter().map(String::as_str).collect()
    }
    assert_eq!(
        fixture.edges(&outcome),
        BTreeSet::from([
            edge("src/a.rs", "src/b.rs", &as_str(&a_to_b)),
            edge("src/b.rs", "src/a.rs", &as_str(&b_to_a)),
        ])
    );
    assert_eq!(outcome.circles.len(), 1);
}

#[test]
fn paths_in_macro_invocations_and_attributes_are_edges() {
    let fixture = Fixture::new(
        "macro-tokens",
        &[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
            (
                "src/a.rs",
                "pub fn a() -> String {\n    format!(\"{}\", crate::b::B)\n}\n",
            ),
            (
                "src/b.rs",
                "pub struct B;\npub fn all() -> Vec<u8> {\n    vec![crate::c::C]\n}\n",
            ),
            (
                "src/c.rs",
                "pub const C: u8 = 1;\nmacro_rules! call {\n    () => {\n        \
                 $crate::d::d()\n    };\n}\n",
            ),
            (
                "src/d.rs",
                "#[crate::a::attribute]\n#[arg(value_parser = crate::a::parse)]\npub fn d() {}\n",
            ),
        ],
    );
    let outcome = fixture.check("src/lib.rs");
    assert_eq!(
        fixture.edges(&outcome),
        BTreeSet::from([
            edge("src/a.rs", "src/b.rs", &["2: crate::b::B"]),
            edge("src/b.rs", "src/c.rs", &["3: crate::c::C"]),
            edge("src/c.rs", "src/d.rs", &["4: $crate::d::d"]),
            edge(
                "src/d.rs",
                "src/a.rs",
                &["1: crate::a::attribute", "2: crate::a::parse"]
            ),
        ])
    );
    let files: Vec<_> = outcome.circles.iter().map(|c| c.files.len()).collect();
    assert_eq!(files, [4]);
    let report = fixture.findings(&outcome);
    assert!(
        report.contains("cycle: src/a.rs -> src/b.rs -> src/c.rs -> src/d.rs -> src/a.rs"),
        "{report}"
    );
}
