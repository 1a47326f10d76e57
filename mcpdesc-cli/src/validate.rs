//! `mcpdesc validate`: the diagnostics of descriptions, human or JSON.

use std::io::Write;
use std::path::PathBuf;

use mcpdesc_codegen::{Description, Limits};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::output::{plural, OutputFormat};

/// `mcpdesc validate`.
pub fn validate(
    files: &[PathBuf],
    format: OutputFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let limits = Limits::default();
    let mut code = EXIT_OK;
    let mut reports = Vec::new();
    for file in files {
        let desc = match Description::from_path(file, &limits) {
            Ok(desc) => desc,
            Err(e) => {
                let _ = writeln!(err, "error: cannot read {}: {e}", file.display());
                code = EXIT_USAGE;
                continue;
            }
        };
        if !desc.is_valid() && code == EXIT_OK {
            code = EXIT_INVALID;
        }
        match format {
            OutputFormat::Human => {
                let _ = out.write_all(desc.render_diagnostics().as_bytes());
                let errors = desc.errors().count();
                let warnings = desc.warnings().count();
                let verdict = if desc.is_valid() { "valid" } else { "invalid" };
                let _ = writeln!(
                    out,
                    "{}: {verdict} ({errors} error{}, {warnings} warning{})",
                    desc.name,
                    plural(errors),
                    plural(warnings)
                );
            }
            OutputFormat::Json => reports.push(serde_json::json!({
                "file": desc.name,
                "valid": desc.is_valid(),
                "mcpdesc": desc.mcpdesc_version(),
                "diagnostics": desc.diagnostics,
            })),
        }
    }
    if format == OutputFormat::Json {
        let text = serde_json::to_string_pretty(&reports).unwrap_or_else(|_| "[]".into());
        let _ = writeln!(out, "{text}");
    }
    code
}
