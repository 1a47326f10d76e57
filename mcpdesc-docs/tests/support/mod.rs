//! Shared by the tests of the page: loading, the repository root, a well-formedness
//! check.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use mcpdesc_description::{Description, Limits};

pub mod cdp;

/// The flags of every headless Chromium of the tests: sandbox off (containers), no GPU,
/// nothing fetched in the background, a first run without questions.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Loads (and validates) a description file.
pub fn load(path: &Path) -> Description {
    Description::from_path(path, &Limits::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every element the page uses opens as often as it closes, and the page holds exactly
/// one `<script>` and one `<style>` (its own).
pub fn assert_well_formed(page: &str, name: &str) {
    for tag in [
        "html", "head", "body", "aside", "nav", "main", "header", "section", "div", "table",
        "thead", "tbody", "tr", "td", "th", "ul", "ol", "li", "dl", "dt", "dd", "p", "pre", "code",
        "span", "a", "b", "q", "h1", "h2", "h3", "h4", "h5", "h6", "details", "summary", "select",
        "option", "script", "style", "title",
    ] {
        let opens =
            page.matches(&format!("<{tag}>")).count() + page.matches(&format!("<{tag} ")).count();
        let closes = page.matches(&format!("</{tag}>")).count();
        assert_eq!(
            opens, closes,
            "{name}: <{tag}> opened {opens} times, closed {closes}"
        );
    }
    assert_eq!(page.matches("<script").count(), 1, "{name}: scripts");
    assert_eq!(page.matches("<style").count(), 1, "{name}: styles");
}
