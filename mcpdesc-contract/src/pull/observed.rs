//! What `pull` reads from a server: the handshake and every listing, as raw JSON.

use serde_json::Value;

use super::kinds::Kind;
use mcpdesc_description::protocol::ProtocolVersion;

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
