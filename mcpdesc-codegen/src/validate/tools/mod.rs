//! Semantic checks of the `tools` array (spec §9).

use super::cx::Cx;

/// Runs every Tool check.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
