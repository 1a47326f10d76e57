//! Between rmcp's types and the router's native JSON: the request's protocol
//! version, errors, tools and list items, results, and the client's capabilities.

use rmcp::service::RequestContext;
use rmcp::{model as m, ErrorData, RoleServer};
use serde_json::{json, Value};

use crate::protocol::error::ProtocolError;
use crate::protocol::version::ProtocolVersion;

/// Native list items as rmcp's types; an item rmcp cannot represent is an internal
/// error naming it (only a declaration the validator rejects gets there).
pub(super) fn from_values<T: serde::de::DeserializeOwned>(
    items: Vec<Value>,
    what: &str,
) -> Result<Vec<T>, ErrorData> {
    items
        .into_iter()
        .map(|item| {
            serde_json::from_value(item.clone()).map_err(|e| {
                ErrorData::internal_error(format!("the {what} {item} cannot be listed: {e}"), None)
            })
        })
        .collect()
}

/// A result's wire JSON as rmcp's type.
pub(super) fn from_wire<T: serde::de::DeserializeOwned>(
    wire: Value,
    what: &str,
) -> Result<T, ErrorData> {
    serde_json::from_value(wire)
        .map_err(|e| ErrorData::internal_error(format!("the {what} cannot be sent: {e}"), None))
}

/// The protocol version of the request: the one negotiated at `initialize`, or the one
/// a 2026-07-28 request names in its `_meta`.
pub(crate) fn negotiated(
    context: &RequestContext<RoleServer>,
) -> Result<ProtocolVersion, ErrorData> {
    let version = context.protocol_version().ok_or_else(|| {
        ErrorData::invalid_request("no MCP protocol version was negotiated", None)
    })?;
    version.as_str().parse().map_err(|_| {
        ErrorData::invalid_request(format!("unsupported MCP protocol version {version}"), None)
    })
}

pub(crate) fn to_error_data(error: ProtocolError) -> ErrorData {
    ErrorData::new(m::ErrorCode(error.code), error.message, error.data)
}

/// rmcp's `Tool` needs object schemas; a boolean `outputSchema` (possible in
/// 2026-07-28) is written as the equivalent object schema.
pub(super) fn to_rmcp_tool(mut tool: Value) -> Result<m::Tool, String> {
    if let Some(schema) = tool.get_mut("outputSchema") {
        if let Value::Bool(accepts) = *schema {
            *schema = if accepts {
                json!({})
            } else {
                json!({"not": {}})
            };
        }
    }
    serde_json::from_value(tool).map_err(|e| e.to_string())
}

/// rmcp's client capabilities as JSON.
pub(super) fn capabilities_json(capabilities: Option<&m::ClientCapabilities>) -> Option<Value> {
    capabilities.and_then(|c| serde_json::to_value(c).ok())
}
