//! Semantic checks: tags (to be completed).

use super::cx::Cx;

/// Runs the tags checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
