//! `mcpdesc migrate`: rewriting an MCP Description 0.7.x document (or a 0.8.0 one) as a
//! valid document of a newer format version.
//!
//! The 0.7 → 0.8 step follows the specification's published migration guide
//! (`spec/0.8.0/guides/migration-0.7-to-0.8.md`); the 0.8 → 0.9 step applies what
//! 0.9.0-rc.3 changed (digest §10). The guide's rule is that migration preserves the
//! author's intent and never infers a protocol revision, Tool parameters, OAuth scopes
//! or endpoints from insufficient evidence. So a migration either
//!
//! - succeeds: a document that passes [`mcpdesc_description::validate`], plus the list of every
//!   [`Change`] made and a warning for everything that could not be carried over, or
//! - stops ([`MigrateError::NeedsAuthor`]): every place where the author must decide,
//!   each an error diagnostic with the JSON pointer and line:column in the *input*.
//!
//! ```text
//! Loaded 0.7.x ──legacy::to_0_8──▶ 0.8.0 value ──gating──▶ fields the protocol version
//!   lacks removed ──to_0_9──▶ 0.9.0 value ──validate──▶ Migration | NeedsAuthor
//! ```
//!
//! Nothing is fetched and nothing is invented: an absent `info.protocolVersion` needs
//! `--protocol-version` ([`Options::protocol_version`]), a Tool without `inputSchema`
//! needs the author.

mod gating;
mod legacy;
mod security;
mod to_0_9;

use serde_json::Value;

pub use mcpdesc_description::validate::fallout::{is_fallout, is_legacy_version};

use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::rules;
use mcpdesc_description::source::{Loaded, SourceMap};
use mcpdesc_description::validate::{self, SpecVersion};

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

/// Migrates a loaded document.
pub fn migrate(loaded: &Loaded, options: &Options) -> Result<Migration, MigrateError> {
    let from_version = match loaded.value.get("mcpdesc") {
        Some(Value::String(v)) => v.clone(),
        Some(other) => {
            return Err(MigrateError::NotApplicable(format!(
                "`mcpdesc` is {other}, not a format version string; nothing to migrate"
            )))
        }
        None => {
            return Err(MigrateError::NotApplicable(
                "the document has no `mcpdesc` member, so its format version is unknown; nothing to migrate".to_owned(),
            ))
        }
    };
    let legacy = is_legacy_version(&from_version);
    let from_0_8 = from_version == "0.8.0";
    let applicable = legacy || (from_0_8 && options.target == SpecVersion::V0_9_0);
    if !applicable {
        let why = if from_0_8 || from_version == "0.9.0" {
            format!(
                "the document is already MCP Description {from_version}; migrate rewrites 0.7.x documents (and 0.8.0 ones to 0.9.0), never to an older version"
            )
        } else {
            format!(
                "`mcpdesc` is {from_version:?}; migrate rewrites MCP Description 0.7.x documents (and 0.8.0 ones to 0.9.0)"
            )
        };
        return Err(MigrateError::NotApplicable(why));
    }

    let mut run = Run::new(&loaded.positions);
    let mut value = loaded.value.clone();
    if legacy {
        value = legacy::to_0_8(&mut run, &loaded.value, options);
        if run.root_version.is_some() {
            gating::remove_unsupported_fields(&mut run, &mut value);
        }
    }
    if options.target == SpecVersion::V0_9_0 {
        to_0_9::apply(&mut run, &mut value, from_0_8);
    }
    run.final_validation(&value);
    run.finish(from_version, options.target, value)
}

/// The state of one migration: notes so far and how output pointers map to input ones.
pub(crate) struct Run<'a> {
    positions: &'a SourceMap,
    changes: Vec<Change>,
    warnings: Vec<Diagnostic>,
    author: Vec<Diagnostic>,
    /// Output prefix → input prefix, for values that moved.
    moves: Vec<(Pointer, Pointer)>,
    /// The protocol version the output declares, once known.
    pub(crate) root_version: Option<ProtocolVersion>,
}

impl<'a> Run<'a> {
    fn new(positions: &'a SourceMap) -> Self {
        Run {
            positions,
            changes: Vec::new(),
            warnings: Vec::new(),
            author: Vec::new(),
            moves: Vec::new(),
            root_version: None,
        }
    }

    /// Records a change.
    pub(crate) fn change(
        &mut self,
        from: Option<Pointer>,
        to: Option<Pointer>,
        message: impl Into<String>,
    ) {
        let pos = from.as_ref().and_then(|p| self.positions.nearest(p));
        self.changes.push(Change {
            from,
            to,
            line: pos.map_or(0, |p| p.line),
            column: pos.map_or(0, |p| p.column),
            message: message.into(),
        });
    }

    /// Records something that could not be carried over (at an input pointer).
    pub(crate) fn warn(&mut self, code: &'static str, at: &Pointer, message: impl Into<String>) {
        let mut d = Diagnostic::new(Severity::Warning, rules::MIGRATE, code, at, message);
        d.locate(self.positions);
        self.warnings.push(d);
    }

    /// Records a place where the author must decide (at an input pointer).
    pub(crate) fn author(&mut self, code: &'static str, at: &Pointer, message: impl Into<String>) {
        let mut d = Diagnostic::new(Severity::Error, rules::MIGRATE, code, at, message);
        d.locate(self.positions);
        self.author.push(d);
    }

    /// Declares that the output value at `to` comes from the input value at `from`.
    pub(crate) fn moved(&mut self, to: Pointer, from: Pointer) {
        self.moves.push((to, from));
    }

    /// The input pointer an output pointer comes from (the longest recorded move that
    /// contains it, else the same pointer).
    pub(crate) fn input_pointer(&self, out: &Pointer) -> Pointer {
        self.moves
            .iter()
            .filter(|(to, _)| out.starts_with(to))
            .max_by_key(|(to, _)| to.as_str().len())
            .and_then(|(to, from)| out.rebase(to, from))
            .unwrap_or_else(|| out.clone())
    }

    /// Validates the migrated document: its errors become places for the author, its
    /// warnings are passed on; both are re-pointed into the input.
    fn final_validation(&mut self, value: &Value) {
        let validation = validate::validate(value, &SourceMap::default());
        let version_missing = self.author.iter().any(|d| d.code == "no-protocol-version");
        for d in validation.diagnostics {
            // Without a protocol version the document lacks protocolVersions; that is
            // already one place for the author.
            if version_missing && d.pointer.is_empty() && d.message.contains("`protocolVersions`") {
                continue;
            }
            let out = Pointer::parse(&d.pointer).unwrap_or_default();
            let input = self.input_pointer(&out);
            let already = self.author.iter().any(|a| a.pointer == input.as_str());
            let mut moved = Diagnostic::new(
                d.severity,
                d.rule,
                d.code,
                &input,
                format!("in the migrated document: {}", d.message),
            );
            moved.locate(self.positions);
            if d.is_error() {
                if !already {
                    self.author.push(moved);
                }
            } else {
                self.warnings.push(moved);
            }
        }
    }

    fn finish(
        self,
        from_version: String,
        target: SpecVersion,
        value: Value,
    ) -> Result<Migration, MigrateError> {
        let mut warnings = self.warnings;
        mcpdesc_description::diagnostic::sort(&mut warnings);
        warnings.dedup();
        if !self.author.is_empty() {
            let mut items = self.author;
            mcpdesc_description::diagnostic::sort(&mut items);
            items.dedup();
            return Err(MigrateError::NeedsAuthor {
                items,
                changes: self.changes,
                warnings,
            });
        }
        Ok(Migration {
            from_version,
            target,
            value,
            changes: self.changes,
            warnings,
        })
    }
}

/// Removes the member at `at` from `value` (keeping the order of the other members),
/// returning it.
pub(crate) fn remove_at(value: &mut Value, at: &Pointer) -> Option<Value> {
    let parent = at.parent()?;
    let key = at.segments().last()?;
    match value.pointer_mut(parent.as_str())? {
        Value::Object(map) => map.shift_remove(&key),
        Value::Array(items) => {
            let index: usize = key.parse().ok()?;
            (index < items.len()).then(|| items.remove(index))
        }
        _ => None,
    }
}

/// How a value is shown in messages: short JSON.
pub(crate) fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        text
    } else {
        format!("{}...", text.chars().take(57).collect::<String>())
    }
}

#[cfg(test)]
mod tests;
