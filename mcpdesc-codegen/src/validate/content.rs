//! Content blocks (tool results, prompt messages, sampling messages) per protocol
//! version (digest §5.3).

use serde_json::Value;

use super::cx::Cx;
use crate::pointer::Pointer;
use crate::protocol::VersionSet;

/// Checks that the content block at `at` uses only forms every version of `scope`
/// supports. `code` names the caller's check (for example
/// `tool-example-content-version-mismatch`); the rule is
/// `mcp.content-block.protocol-version`.
pub fn check_block(
    cx: &mut Cx<'_>,
    at: &Pointer,
    block: &Value,
    scope: VersionSet,
    code: &'static str,
) {
    let _ = (cx, at, block, scope, code);
}
