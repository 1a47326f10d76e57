//! `mcpdesc diff`: every change between two valid descriptions, classified as breaking,
//! warning or compatible from a client's and from a server implementer's point of view,
//! each under a stable rule id ([`rules`], documented in `docs/diff.md`).
//!
//! ```text
//! old, new Description (valid; $componentRef already substituted by validation)
//!   ├─ document::versions            root protocolVersions removed / added
//!   └─ per protocol version V both describe (Effective Protocol View of each side):
//!        document::view              transports, capabilities
//!        primitives::compare         tools, prompts, resources, templates by identity
//!          ├─ schema::compare         inputSchema / outputSchema, recursively
//!          │    └─ witness::find      an input the old schema accepts, the new rejects
//!          └─ security::compare       effective requirement per primitive and transport
//!   → the same change found in several views is reported once, with its versions
//! ```
//!
//! Comparing view by view is what makes protocol-scoped variants work: a tool that
//! splits into two variants, or narrows its `protocolVersions`, is compared with what a
//! client of each version saw before.

mod document;
mod primitives;
mod report;
pub mod rules;
mod schema;
mod security;
mod types;
mod view;
mod witness;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

pub use rules::{Level, Perspective, Rule};

use mcpdesc_description::description::Description;
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};

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

    /// Whether a change at or above the `fail_on` threshold exists.
    pub fn fails(&self, perspective: Perspective, fail_on: FailOn) -> bool {
        self.changes.iter().any(|c| {
            matches!(
                (c.level(perspective), fail_on),
                (Level::Breaking, _) | (Level::Warning, FailOn::Warning)
            )
        })
    }

    /// The human rendering: rustc-like blocks, breaking changes first, then a summary
    /// line (`docs/diff.md` shows an example).
    pub fn render(&self, perspective: Perspective) -> String {
        report::human(self, perspective)
    }

    /// The JSON rendering for CI (shape documented in `docs/diff.md`).
    pub fn to_json(&self, perspective: Perspective, fail_on: FailOn) -> Value {
        report::json(self, perspective, fail_on)
    }
}

/// Why two descriptions could not be compared.
#[derive(Debug, Clone, thiserror::Error)]
pub enum DiffError {
    /// One of them is not a valid description (its diagnostics say why).
    #[error("{name} is not a valid MCP Description ({} error{})", .errors.len(), if .errors.len() == 1 { "" } else { "s" })]
    Invalid {
        /// The file's name.
        name: String,
        /// Its errors.
        errors: Vec<Diagnostic>,
    },
}

/// One side of the comparison: a valid description.
pub(crate) struct Side<'d> {
    pub(crate) desc: &'d Description,
    /// The document with `$componentRef`s substituted.
    pub(crate) doc: &'d Value,
    /// Its root protocol versions.
    pub(crate) root: VersionSet,
}

impl<'d> Side<'d> {
    fn new(desc: &'d Description) -> Result<Side<'d>, DiffError> {
        let invalid = || DiffError::Invalid {
            name: desc.name.clone(),
            errors: desc.errors().cloned().collect(),
        };
        if !desc.is_valid() {
            return Err(invalid());
        }
        let validation = desc.validation.as_ref().ok_or_else(invalid)?;
        Ok(Side {
            desc,
            doc: &validation.resolution.value,
            root: validation.root_versions,
        })
    }

    /// The location of a pointer of the substituted document in this side's file.
    fn locate(&self, at: &Pointer) -> Location {
        let source = self
            .desc
            .validation
            .as_ref()
            .map_or_else(|| at.clone(), |v| v.resolution.source_pointer(at));
        let pos = self
            .desc
            .loaded
            .as_ref()
            .and_then(|l| l.positions.nearest(&source));
        Location {
            pointer: at.to_string(),
            line: pos.map_or(0, |p| p.line),
            column: pos.map_or(0, |p| p.column),
        }
    }
}

/// A change as found, before it is located and merged across versions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    pub(crate) rule: &'static Rule,
    pub(crate) subject: Subject,
    pub(crate) name: String,
    pub(crate) path: Option<String>,
    pub(crate) old: Option<Pointer>,
    pub(crate) new: Option<Pointer>,
    pub(crate) message: String,
    pub(crate) witness: Option<Value>,
}

impl Found {
    /// A change of `subject` `name`.
    pub(crate) fn new(
        rule: &'static Rule,
        subject: Subject,
        name: impl Into<String>,
        message: impl Into<String>,
    ) -> Found {
        Found {
            rule,
            subject,
            name: name.into(),
            path: None,
            old: None,
            new: None,
            message: message.into(),
            witness: None,
        }
    }

    /// Sets the pointers into the old and new documents.
    pub(crate) fn at(mut self, old: Option<Pointer>, new: Option<Pointer>) -> Found {
        self.old = old;
        self.new = new;
        self
    }

    /// Sets the path inside the subject.
    pub(crate) fn path(mut self, path: impl Into<String>) -> Found {
        self.path = Some(path.into());
        self
    }
}

/// Compares two descriptions. Both must be valid.
pub fn diff(old: &Description, new: &Description) -> Result<Report, DiffError> {
    let old = Side::new(old)?;
    let new = Side::new(new)?;
    let common = old.root.intersect(new.root);

    // Changes per version, merged: the same finding in several views once.
    let mut merged: BTreeMap<String, (Found, VersionSet)> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut add = |found: Found, versions: VersionSet| {
        let key = serde_json::to_string(&(
            found.rule.id,
            found.subject,
            &found.name,
            &found.path,
            found.old.as_ref().map(Pointer::as_str),
            found.new.as_ref().map(Pointer::as_str),
            &found.message,
            &found.witness,
        ))
        .unwrap_or_default();
        match merged.get_mut(&key) {
            Some((_, set)) => *set = set.union(versions),
            None => {
                order.push(key.clone());
                merged.insert(key, (found, versions));
            }
        }
    };
    for found in document::versions(&old, &new) {
        add(found, old.root.union(new.root));
    }
    for found in document::unscoped(&old, &new) {
        add(found, common);
    }
    let mut cache = primitives::Cache::default();
    for version in common.iter() {
        let old_view = view::View::of(&old, version);
        let new_view = view::View::of(&new, version);
        let mut found = document::view(&old_view, &new_view);
        found.extend(primitives::compare(&old_view, &new_view, &mut cache));
        found.extend(security::compare(&old_view, &new_view));
        for f in found {
            add(f, VersionSet::only(version));
        }
    }

    let mut changes: Vec<Change> = order
        .into_iter()
        .filter_map(|key| merged.remove(&key))
        .map(|(f, versions)| Change {
            rule: f.rule,
            subject: f.subject,
            name: f.name,
            path: f.path,
            old: f.old.as_ref().map(|p| old.locate(p)),
            new: f.new.as_ref().map(|p| new.locate(p)),
            versions,
            message: f.message,
            witness: f.witness,
        })
        .collect();
    // Breaking first (from the client's side, the default), then by subject and place.
    changes.sort_by(|a, b| {
        (
            a.rule.client,
            a.subject,
            &a.name,
            a.rule.id,
            &a.path,
            &a.message,
        )
            .cmp(&(
                b.rule.client,
                b.subject,
                &b.name,
                b.rule.id,
                &b.path,
                &b.message,
            ))
    });
    Ok(Report {
        old_name: old.desc.name.clone(),
        new_name: new.desc.name.clone(),
        common_versions: common,
        changes,
    })
}

/// The version list of a set, for messages and JSON.
pub(crate) fn version_names(set: VersionSet) -> Vec<&'static str> {
    set.iter().map(ProtocolVersion::as_str).collect()
}

/// JSON values compared the way JSON Schema compares instances: numbers by value
/// (`1` equals `1.0`), objects without regard to member order.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y,
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A short rendering of a value for messages.
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
