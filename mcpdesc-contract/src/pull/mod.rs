//! `mcpdesc pull`: a description of a live server, from what it answered.
//!
//! The MCP client (`mcpdesc::client` in the runtime) gathers the raw JSON of the
//! handshake and of every listing the server's capabilities declare; this module turns
//! that [`Observed`] into a valid MCP Description 0.9.0 value, with a
//! [`PullWarning`] for everything it had to drop or fix:
//!
//! ```text
//! Observed ──build──▶ candidate value ──repair (validator, bounded rounds)──▶ Pulled
//!   handshake: serverInfo → info, capabilities → capabilities[0],     | PullError::Invalid
//!     instructions, negotiated version → protocolVersions
//!   listings: each item → a declaration of its kind (members the format has a
//!     place for; unknown members, duplicates and non-objects dropped)
//! ```
//!
//! Nothing is invented: no examples, no tags, no security; a declaration carries only
//! what the server sent. Two fixes stand in for required values the server did not
//! give: a missing `serverInfo.name`/`version` becomes `"unknown"`, and a Tool whose
//! `inputSchema` is missing or not a valid schema gets [`OPEN_INPUT_SCHEMA`] (arguments
//! unspecified, not "no arguments"); both are warnings.
//!
//! The validator ([`mcpdesc_description::validate`]) is the judge: whatever it still rejects is
//! removed at the smallest enclosing member (a Tool schema always as a whole), round
//! after round, and named in a warning. What cannot be removed that way is a
//! [`PullError::Invalid`] with the validator's diagnostics.

mod build;
mod kinds;
mod repair;
#[cfg(test)]
mod tests;

use std::fmt;

use serde_json::Value;

pub use kinds::Kind;

use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::rules;

/// The schema a Tool gets when the server's `inputSchema` is missing or not a valid
/// schema: an object with unspecified members. It states that the arguments are
/// unknown, never that there are none (spec §9.2).
pub const OPEN_INPUT_SCHEMA: &str = r#"{"type":"object"}"#;

/// Everything read from a server.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    /// The negotiated protocol version: the description's `protocolVersions`.
    pub protocol_version: ProtocolVersion,
    /// The handshake result as sent (`initialize`, or `server/discover` in MCP
    /// 2026-07-28): `serverInfo`, `capabilities`, `instructions`.
    pub handshake: Value,
    /// The items of every page of `tools/list`, `None` when it was not listed (the
    /// capability is not declared).
    pub tools: Option<Vec<Value>>,
    /// The items of `prompts/list`.
    pub prompts: Option<Vec<Value>>,
    /// The items of `resources/list`.
    pub resources: Option<Vec<Value>>,
    /// The items of `resources/templates/list`.
    pub resource_templates: Option<Vec<Value>>,
}

impl Observed {
    /// The items listed for `kind`.
    pub fn items(&self, kind: Kind) -> Option<&[Value]> {
        match kind {
            Kind::Tool => self.tools.as_deref(),
            Kind::Prompt => self.prompts.as_deref(),
            Kind::Resource => self.resources.as_deref(),
            Kind::ResourceTemplate => self.resource_templates.as_deref(),
        }
    }
}

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

/// Builds the description of what a server answered.
///
/// ```
/// use mcpdesc_contract::pull::{describe, Observed};
/// use mcpdesc_description::ProtocolVersion;
/// use serde_json::json;
///
/// let observed = Observed {
///     protocol_version: ProtocolVersion::V2025_11_25,
///     handshake: json!({"serverInfo": {"name": "notes", "version": "1.0.0"},
///                       "capabilities": {"tools": {}}}),
///     tools: Some(vec![json!({"name": "add", "inputSchema": {"type": "object"},
///                             "outputSchema": {"type": "string"}})]),
///     prompts: None, resources: None, resource_templates: None,
/// };
/// let pulled = describe(&observed).unwrap();
/// assert_eq!(pulled.value["tools"], json!([{"name": "add", "inputSchema": {"type": "object"}}]));
/// assert_eq!(pulled.warnings[0].code, "output-schema-not-object");
/// ```
pub fn describe(observed: &Observed) -> Result<Pulled, PullError> {
    let mut draft = build::build(observed);
    repair::repair(&mut draft)?;
    Ok(Pulled {
        value: draft.value,
        warnings: draft.warnings,
    })
}
