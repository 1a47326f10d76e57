//! Semantic checks: elicitations (to be completed).

use super::cx::Cx;

/// Runs the elicitations checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
