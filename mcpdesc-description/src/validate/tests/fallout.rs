//! Tests of `fallout.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use super::*;
use crate::{Description, Limits};

#[test]
fn the_version_error_comes_first_and_fallout_is_counted() {
    let text = r#"{
  "$schema": "https://developer.cisco.com/mcp-description/schema/0.7.0",
  "mcpdesc": "0.7.0",
  "info": {"name": "n", "version": "1", "protocolVersion": "2025-06-18"},
  "transports": [{"type": "stdio", "command": "s", "security": []}],
  "security": [{"type": "http", "scheme": "bearer"}],
  "capabilities": {"tools": {"listChanged": true}},
  "tags": [{"name": "a"}],
  "tools": [{"name": "t", "tags": ["a", "undeclared"]}],
  "prompts": []
}"#;
    let desc = Description::from_text("old.json", text.to_owned(), None, &Limits::default());
    let d = &desc.diagnostics;
    assert_eq!(d[0].code, "legacy-mcpdesc-version", "{d:#?}");
    assert!(d[0].message.contains("mcpdesc migrate"), "{}", d[0].message);
    assert!(
        d[0].message.contains("follow-on errors"),
        "{}",
        d[0].message
    );
    // A problem of the document itself stays visible.
    assert!(
        d.iter()
            .any(|d| d.code == "unknown-tag-reference" && d.pointer == "/tools/0/tags/1"),
        "{d:#?}"
    );
    // Nothing that is only the old format.
    assert!(d[1..].iter().all(|d| !is_fallout(d)), "{d:#?}");
    assert!(
        !d.iter().any(|d| d.pointer.starts_with("/security")),
        "{d:#?}"
    );
}
