//! What commands write: the diagnostic output format, files written only when they
//! change, plurals in summary lines.

use clap::ValueEnum;

/// Diagnostic output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// rustc-style text.
    Human,
    /// JSON (`validate`: one array, an object per file; `diff`: one object, see docs/diff.md).
    Json,
}

/// Writes `content` unless the file already holds exactly it (so that builds depending
/// on the file do not rerun for nothing).
pub(crate) fn write_if_changed(path: &std::path::Path, content: &str) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == content.as_bytes()) {
        return Ok(());
    }
    std::fs::write(path, content)
}

/// `"s"` unless `n` is one.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
