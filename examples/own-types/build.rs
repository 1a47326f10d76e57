//! Generates the tracker's module from `issues.mcpdesc.json` into `$OUT_DIR/issues.rs`
//! with the crate's own types in place of generated ones:
//!
//! - the `Issue` component (and every schema identical to it: `list_issues`'s
//!   `$defs/Issue`, `search_issues`'s inline items) is `crate::model::Issue`;
//! - the generated `IssueState` enum (shared by the component, `list_issues`'s input
//!   and a branch of `update_issue`'s `oneOf`) is `crate::model::State`;
//! - every `format: uuid` is a `uuid::Uuid`, every `format: date-time` a
//!   `chrono::DateTime<Utc>`.
//!
//! `test_server` makes the generated example tests call the tracker through the
//! generated router and compare its answers with the examples.

fn main() {
    mcpdesc_codegen::Builder::new("issues.mcpdesc.json")
        .replace_type("#/components/schemas/Issue", "crate::model::Issue")
        .replace_type("IssueState", "crate::model::State")
        .format_type("uuid", "::uuid::Uuid")
        .format_type("date-time", "::chrono::DateTime<::chrono::Utc>")
        .test_server("crate::Tracker::for_examples()")
        .compile_or_exit();
}
