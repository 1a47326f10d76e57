//! Semantic checks: transports (to be completed).

use super::cx::Cx;

/// Runs the transports checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
