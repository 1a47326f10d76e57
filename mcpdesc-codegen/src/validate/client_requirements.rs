//! Semantic checks: client_requirements (to be completed).

use super::cx::Cx;

/// Runs the client_requirements checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let _ = cx;
}
