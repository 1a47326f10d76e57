//! What `diff` reports: each change (rule, subject, places, versions, witness), the
//! report of them all, and which changes make it fail.

use serde::Serialize;
use serde_json::Value;

use super::bump::VersionBump;
use super::rules::{Level, Perspective, Rule};
use mcpdesc_description::protocol::VersionSet;

/// What a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Subject {
    /// The document as a whole (protocol versions, capabilities, instructions).
    Document,
    /// A transport.
    Transport,
    /// A security scheme.
    SecurityScheme,
    /// A tool.
    Tool,
    /// A prompt.
    Prompt,
    /// A resource.
    Resource,
    /// A resource template.
    ResourceTemplate,
}

impl Subject {
    /// How messages name the kind: `tool`, `resource template`.
    pub fn noun(self) -> &'static str {
        match self {
            Subject::Document => "document",
            Subject::Transport => "transport",
            Subject::SecurityScheme => "security scheme",
            Subject::Tool => "tool",
            Subject::Prompt => "prompt",
            Subject::Resource => "resource",
            Subject::ResourceTemplate => "resource template",
        }
    }
}

/// Where a changed value is written in one of the two files.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Location {
    /// JSON Pointer of the value (in the document with `$componentRef`s substituted).
    pub pointer: String,
    /// 1-based line in the file (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
}

/// One classified change.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The kind of change, with its levels.
    pub rule: &'static Rule,
    /// What kind of thing changed.
    pub subject: Subject,
    /// Its identity: tool or prompt name, resource URI, template, transport, scheme;
    /// empty for the document.
    pub name: String,
    /// Where inside it: an input or output path (`address.zip`, `tags[]`), an
    /// argument, a transport; `None` for the whole subject.
    pub path: Option<String>,
    /// The changed value in the old file.
    pub old: Option<Location>,
    /// The changed value in the new file.
    pub new: Option<Location>,
    /// The protocol versions (described by both files) where the change shows.
    pub versions: VersionSet,
    /// What changed.
    pub message: String,
    /// For breaking input changes: an input the old schema accepts and the new one
    /// rejects, verified with `jsonschema` against both.
    pub witness: Option<Value>,
}

impl Change {
    /// The level from `perspective`.
    pub fn level(&self, perspective: Perspective) -> Level {
        self.rule.level(perspective)
    }
}

/// The changes between two descriptions.
#[derive(Debug, Clone)]
pub struct Report {
    /// The old file's name.
    pub old_name: String,
    /// The new file's name.
    pub new_name: String,
    /// The protocol versions both describe (where primitives were compared).
    pub common_versions: VersionSet,
    /// Every change, breaking first.
    pub changes: Vec<Change>,
    /// The version bump the changes need and the one `info.version` made.
    pub version: VersionBump,
}

/// Which changes make `mcpdesc diff` fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailOn {
    /// Breaking changes (the default).
    #[default]
    Breaking,
    /// Breaking changes and warnings.
    Warning,
}

impl Report {
    /// The number of changes at `level` from `perspective`.
    pub fn count(&self, perspective: Perspective, level: Level) -> usize {
        self.changes
            .iter()
            .filter(|c| c.level(perspective) == level)
            .count()
    }

    /// Whether a change at or above the `fail_on` threshold exists; under
    /// [`FailOn::Warning`] an `info.version` that did not move as far as the changes
    /// need ([`VersionBump::too_small`]) fails too.
    pub fn fails(&self, perspective: Perspective, fail_on: FailOn) -> bool {
        let version = fail_on == FailOn::Warning && self.version.too_small();
        version
            || self.changes.iter().any(|c| {
                matches!(
                    (c.level(perspective), fail_on),
                    (Level::Breaking, _) | (Level::Warning, FailOn::Warning)
                )
            })
    }
}
