//! Semantic checks: resources (to be completed).

use super::cx::Cx;

/// Runs the resources checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
