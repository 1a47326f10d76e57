//! `mcpdesc::client::http` and `Options::http` without the `client-http` feature: one
//! compile error naming the feature and the `Cargo.toml` line to add (`cases/*.rs`
//! with their `.stderr`; `TRYBUILD=overwrite` rewrites them).

#[test]
fn a_missing_feature_is_one_error() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("cases/*.rs");
}
