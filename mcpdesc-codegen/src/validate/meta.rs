//! `_meta` objects: key grammar, reserved prefixes and reserved keys per protocol
//! version (digest §5.4).

use serde_json::Value;

use super::cx::Cx;
use crate::pointer::Pointer;
use crate::protocol::VersionSet;

/// Where a `_meta` object stands, which decides the reserved keys it may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaContext {
    /// On a Tool, Resource, Resource Template or Prompt declaration.
    Declaration,
    /// On a completed result (tool, read-resource, prompt, completion).
    Result,
    /// On a content block or embedded resource contents.
    Content,
    /// On a root entry in a roots step, or an elicitation response.
    Carried,
}

/// Checks one `_meta` object at `at`, used in a declaration whose scope is `scope`.
pub fn check(cx: &mut Cx<'_>, at: &Pointer, meta: &Value, scope: VersionSet, context: MetaContext) {
    let _ = (cx, at, meta, scope, context);
}
