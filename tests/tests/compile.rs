//! Every snapshot compiles with `#![deny(warnings)]` (typify's triple, part 2). The
//! wrappers in `tests/compile-pass/` are written by the snapshot test.

#[test]
fn snapshots_compile_without_warnings() {
    let cases = trybuild::TestCases::new();
    cases.pass("compile-pass/*.rs");
}
