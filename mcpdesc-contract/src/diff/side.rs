//! One side of the comparison: a valid description, its substituted document and
//! where its values are written; why a description cannot be one.

use serde_json::Value;

use super::change::Location;
use mcpdesc_description::description::Description;
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::VersionSet;

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
    pub(super) fn new(desc: &'d Description) -> Result<Side<'d>, DiffError> {
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
    pub(super) fn locate(&self, at: &Pointer) -> Location {
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
