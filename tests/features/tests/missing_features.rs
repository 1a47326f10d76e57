//! Each feature of `mcpdesc` that generated code or a front end needs (`client`,
//! `macros`, `full-validation`) is, when missing, exactly one compile error naming the
//! feature and the `Cargo.toml` line to add (`cases/*.rs` with their `.stderr`;
//! `TRYBUILD=overwrite` rewrites them). `client-http` needs `client` on, so its case
//! lives in `tests/features-client`.

#[test]
fn a_missing_feature_is_one_error() {
    // trybuild compiles the cases in a project of its own under the target directory;
    // the macro resolves description paths against this crate instead.
    std::env::set_var("MCPDESC_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"));
    let cases = trybuild::TestCases::new();
    cases.compile_fail("cases/*.rs");
}
