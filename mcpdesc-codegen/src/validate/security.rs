//! Semantic checks: security (to be completed).

use super::cx::Cx;

/// Runs the security checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
