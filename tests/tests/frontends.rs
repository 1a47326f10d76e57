//! The `mcpdesc!` macro under `trybuild`: the description errors it reports
//! (`compile-fail/*.rs` with their `.stderr`), the schema-drift cases (an implementation
//! of `drift/v1.mcpdesc.json` compiled against each `drift/v2-*.mcpdesc.json`) and their
//! pass side (`frontends-pass/`). `TRYBUILD=overwrite` rewrites the `.stderr` files.

#[test]
fn macro_compile_fail_and_drift() {
    // trybuild compiles the cases in a project of its own under the target directory;
    // the macro resolves description paths against this crate instead.
    std::env::set_var("MCPDESC_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"));
    let cases = trybuild::TestCases::new();
    cases.pass("frontends-pass/*.rs");
    cases.compile_fail("compile-fail/*.rs");
}
