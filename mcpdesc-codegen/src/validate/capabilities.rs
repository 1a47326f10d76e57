//! Semantic checks: capabilities (to be completed).

use super::cx::Cx;

/// Runs the capabilities checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
