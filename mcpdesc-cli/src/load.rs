//! A description read for a command, its diagnostics written as it is read.

use std::io::Write;

use mcpdesc_codegen::{Description, Limits};

/// Reads and validates `file`, writing its diagnostics to `err`; `None` (after saying
/// why on `err`) when it cannot be read.
pub(crate) fn load_reporting(file: &std::path::Path, err: &mut dyn Write) -> Option<Description> {
    match Description::from_path(file, &Limits::default()) {
        Ok(desc) => {
            let _ = err.write_all(desc.render_diagnostics().as_bytes());
            Some(desc)
        }
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {}: {e}", file.display());
            None
        }
    }
}
