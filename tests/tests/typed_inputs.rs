//! Typed inputs are easy to write (issue 39): a schema's defaults are reachable through
//! the builder every struct gets (`Settings::builders`, on by default), and an integer
//! with `minimum: 1` is a plain integer (`Settings::non_zero_integers` off by
//! default). The bookshelf case's `lend_book` takes `reader`, `title` and `days`
//! (default 14, `minimum: 1`).

#[allow(dead_code)]
mod bookshelf {
    include!("../snapshots/case-bookshelf.rs");
}

use bookshelf::types::LendBookInput;

#[test]
fn the_builder_fills_in_the_schema_defaults() {
    let input: LendBookInput = LendBookInput::builder()
        .reader("ada")
        .title("Dune")
        .try_into()
        .unwrap();
    // The schema's default, and a plain integer.
    let days: i64 = input.days;
    assert_eq!(days, 14);
    assert_eq!(
        serde_json::to_value(&input).unwrap(),
        serde_json::json!({"days": 14, "reader": "ada", "title": "Dune"})
    );
    let shorter: LendBookInput = LendBookInput::builder()
        .reader("ada")
        .title("Dune")
        .days(3)
        .try_into()
        .unwrap();
    assert_eq!(shorter.days, 3);
    // A required field left out is an error naming it, not a panic.
    let missing = LendBookInput::try_from(LendBookInput::builder().title("Dune")).unwrap_err();
    assert!(missing.to_string().contains("reader"), "{missing}");
}
