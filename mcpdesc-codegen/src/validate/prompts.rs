//! Semantic checks: prompts (to be completed).

use super::cx::Cx;

/// Runs the prompts checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
