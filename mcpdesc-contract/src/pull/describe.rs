//! The description of what a server answered: built, then repaired until the
//! validator accepts it.

use super::observed::Observed;
use super::outcome::{PullError, Pulled};
use super::{build, repair};

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
