//! What `pull` gives: the pulled description with a warning for everything dropped or
//! fixed, or why no description was produced.

use std::fmt;

use serde_json::Value;

use super::kinds::Kind;
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;

/// Where a warning points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The handshake result (`/serverInfo/...`, `/capabilities/...`).
    Handshake,
    /// A listing; the pointer addresses its items over every page together, as
    /// `/tools/3/outputSchema` (the fourth tool listed).
    Listing(Kind),
    /// The pulled description itself (a warning of its validation).
    Description,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Handshake => f.write_str("the handshake result"),
            Source::Listing(kind) => write!(f, "{} (every page)", kind.method()),
            Source::Description => f.write_str("the pulled description"),
        }
    }
}

/// Something dropped or fixed to make the description valid, or a warning of the
/// pulled description's validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullWarning {
    /// What the pointer points into.
    pub source: Source,
    /// The place of the dropped or fixed value in `source`.
    pub pointer: Pointer,
    /// A stable code: `unknown-member`, `not-an-object`, `missing-identity`,
    /// `duplicate`, `too-deep`, `output-schema-not-object`, `input-schema-replaced`,
    /// `missing-server-info`, `invalid-member`, `invalid-item`, or the validator's code
    /// for a warning of the pulled description.
    pub code: &'static str,
    /// The rule id: [`rules::PULL`], or the validator's rule for a warning of the
    /// pulled description.
    pub rule: &'static str,
    /// What happened, naming the item (`tool "search": ...`).
    pub message: String,
}

impl PullWarning {
    pub(crate) fn new(
        source: Source,
        pointer: Pointer,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        PullWarning {
            source,
            pointer,
            code,
            rule: rules::PULL,
            message: message.into(),
        }
    }

    /// Two lines for humans:
    ///
    /// ```text
    /// warning[mcpdesc.pull]: tool "search": `outputSchema` is not of type object; dropped
    ///   --> tools/list (every page): /tools/3/outputSchema (code: output-schema-not-object)
    /// ```
    pub fn render(&self) -> String {
        let pointer = if self.pointer.as_str().is_empty() {
            "(root)"
        } else {
            self.pointer.as_str()
        };
        format!(
            "warning[{}]: {}\n  --> {}: {pointer} (code: {})",
            self.rule, self.message, self.source, self.code
        )
    }
}

/// A pulled description.
#[derive(Debug, Clone)]
pub struct Pulled {
    /// The MCP Description 0.9.0 document; it passed [`mcpdesc_description::validate`] (warnings
    /// allowed).
    pub value: Value,
    /// Everything dropped or fixed, in the order found, then the document's own
    /// validation warnings.
    pub warnings: Vec<PullWarning>,
}

/// Why no description was produced.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PullError {
    /// The validator still rejects the document and nothing more can be removed.
    #[error("the pulled description is not valid ({} error{})", .diagnostics.len(), if .diagnostics.len() == 1 { "" } else { "s" })]
    Invalid {
        /// The document as far as it was repaired.
        value: Value,
        /// Its errors.
        diagnostics: Vec<Diagnostic>,
        /// The warnings so far.
        warnings: Vec<PullWarning>,
    },
}
