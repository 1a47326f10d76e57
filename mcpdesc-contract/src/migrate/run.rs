//! The state of one migration (changes, warnings, places for the author, moved
//! values) and the edits every step shares.

use serde_json::Value;

use super::migration::{Change, MigrateError, Migration};
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::rules;
use mcpdesc_description::source::SourceMap;
use mcpdesc_description::validate::{self, SpecVersion};

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
    pub(super) fn new(positions: &'a SourceMap) -> Self {
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
    pub(super) fn final_validation(&mut self, value: &Value) {
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

    pub(super) fn finish(
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

/// How a value is shown in messages: short JSON.
pub(crate) fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        text
    } else {
        format!("{}...", text.chars().take(57).collect::<String>())
    }
}
