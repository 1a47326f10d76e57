//! Restricted YAML loading (placeholder until the restricted loader lands).

use super::{serialization_error, Limits, SourceMap};
use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;

pub(super) fn parse(
    _text: &str,
    _limits: &Limits,
) -> Result<(serde_json::Value, SourceMap), Diagnostic> {
    Err(serialization_error(
        "yaml-unsupported",
        &Pointer::root(),
        None,
        "YAML input is not supported yet",
    ))
}
