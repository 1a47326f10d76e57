//! `mcpdesc diff`: the classified changes between two descriptions.

use std::io::Write;

use mcpdesc_codegen::{Description, Limits};
use mcpdesc_contract::diff::{self as changes, DiffError, FailOn, Perspective};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::output::OutputFormat;

/// `mcpdesc diff`: the classified changes on `out`; exit 0 when nothing reaches the
/// `--fail-on` level from the chosen perspective, 1 when something does, 2 when a file
/// cannot be read or is not a valid description (its diagnostics on `err`).
pub fn diff(
    old: &std::path::Path,
    new: &std::path::Path,
    format: OutputFormat,
    fail_on: FailOn,
    perspective: Perspective,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let limits = Limits::default();
    let mut loaded = Vec::new();
    for file in [old, new] {
        match Description::from_path(file, &limits) {
            Ok(desc) => loaded.push(desc),
            Err(e) => {
                let _ = writeln!(err, "error: cannot read {}: {e}", file.display());
                return EXIT_USAGE;
            }
        }
    }
    let report = match changes::diff(&loaded[0], &loaded[1]) {
        Ok(report) => report,
        Err(e @ DiffError::Invalid { .. }) => {
            for desc in loaded.iter().filter(|d| !d.is_valid()) {
                let _ = err.write_all(desc.render_diagnostics().as_bytes());
            }
            let _ = writeln!(err, "error: {e}; nothing compared");
            return EXIT_USAGE;
        }
    };
    let text = match format {
        OutputFormat::Human => report.render(perspective),
        OutputFormat::Json => {
            let value = report.to_json(perspective, fail_on);
            serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
        }
    };
    let _ = out.write_all(text.as_bytes());
    if report.fails(perspective, fail_on) {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
