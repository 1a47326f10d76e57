//! What a migration is asked ([`Options`]) and what it gives: the migrated document
//! with every [`Change`], or the places the author must decide.

use serde_json::Value;

use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::validate::SpecVersion;

/// What a migration aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The format version to produce (default: the newest supported, 0.9.0).
    pub target: SpecVersion,
    /// The MCP protocol version the document describes, when the author supplies it
    /// (`--protocol-version`). It replaces `info.protocolVersion` (with a warning when
    /// they differ) and is required when the input has none.
    pub protocol_version: Option<ProtocolVersion>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: SpecVersion::V0_9_0,
            protocol_version: None,
        }
    }
}

/// One change the migration made, with where it came from and where it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The pointer of the changed value in the input (`None` for values the migration
    /// created from options, such as `--protocol-version`).
    pub from: Option<Pointer>,
    /// The pointer of the result in the output (`None` when the value was removed).
    pub to: Option<Pointer>,
    /// 1-based line of `from` (or its nearest located ancestor) in the input; 0 if none.
    pub line: usize,
    /// 1-based column, like `line`.
    pub column: usize,
    /// What changed and why.
    pub message: String,
}

impl Change {
    /// One line for humans: `input.json:3:5: /info/protocolVersion → /protocolVersions: message`.
    pub fn render(&self, file: &str) -> String {
        let place = if self.line > 0 {
            format!("{file}:{}:{}", self.line, self.column)
        } else {
            file.to_owned()
        };
        let ptr = |p: &Option<Pointer>| match p {
            Some(p) if p.as_str().is_empty() => "(document root)".to_owned(),
            Some(p) => p.to_string(),
            None => "-".to_owned(),
        };
        format!(
            "{place}: {} -> {}: {}",
            ptr(&self.from),
            ptr(&self.to),
            self.message
        )
    }
}

/// A finished migration.
#[derive(Debug, Clone)]
pub struct Migration {
    /// The `mcpdesc` value of the input.
    pub from_version: String,
    /// The format version produced.
    pub target: SpecVersion,
    /// The migrated document; it passed validation (warnings allowed).
    pub value: Value,
    /// Every change made, in the order made.
    pub changes: Vec<Change>,
    /// What could not be carried over, and the migrated document's own validation
    /// warnings; located in the input.
    pub warnings: Vec<Diagnostic>,
}

/// Why a document was not migrated.
#[derive(Debug, Clone, thiserror::Error)]
pub enum MigrateError {
    /// The input is not a document this command migrates (not 0.7.x, or already at or
    /// past the target version).
    #[error("{0}")]
    NotApplicable(String),
    /// The author must decide at each of these places; nothing was written.
    #[error("the migration needs the author at {} place{}", .items.len(), if .items.len() == 1 { "" } else { "s" })]
    NeedsAuthor {
        /// One error per place, located in the input.
        items: Vec<Diagnostic>,
        /// The changes made before stopping (for context).
        changes: Vec<Change>,
        /// Warnings found before stopping.
        warnings: Vec<Diagnostic>,
    },
}

/// The URI of the structural schema of a format version, written to `$schema` when the
/// input declares one (guide: "when emitting `$schema`").
pub fn schema_uri(target: SpecVersion) -> &'static str {
    match target {
        SpecVersion::V0_8_0 => "https://mcpdesc.org/schema/mcp-description/0.8.0.json",
        SpecVersion::V0_9_0 => "https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json",
    }
}
