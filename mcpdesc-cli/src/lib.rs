//! The `mcpdesc` command line: `validate` (and, as the generator lands, `generate`).
//!
//! The command's behaviour lives here, as functions over explicit writers, so tests can
//! run it without a process; `main.rs` only forwards `std::env::args`.
//!
//! # Contract
//! `mcpdesc validate [--format human|json] FILE...`
//! - exit 0 when every file is valid (warnings allowed), 1 when any file has an error,
//!   2 for usage or I/O errors;
//! - `human`: rustc-style diagnostics on stdout, one summary line per file;
//! - `json`: one JSON array on stdout, one object per file:
//!   `{"file", "valid", "mcpdesc", "diagnostics": [{"severity", "rule", "code", "pointer",
//!   "line", "column", "message"}]}`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use mcpdesc_codegen::{Description, Limits};

/// Exit code: everything valid.
pub const EXIT_OK: u8 = 0;
/// Exit code: at least one description has an error.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: usage or I/O error.
pub const EXIT_USAGE: u8 = 2;

/// Validate MCP Description documents and generate Rust code from them.
#[derive(Debug, Parser)]
#[command(name = "mcpdesc", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate descriptions and print their diagnostics.
    Validate {
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
        /// Description files (`.mcpdesc.json`, `.mcpdesc.yaml`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Diagnostic output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// rustc-style text.
    Human,
    /// One JSON array.
    Json,
}

/// Runs the command line `args` (including the program name), writing to `out` and
/// `err`; returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                err.write_all(text.as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            return code;
        }
    };
    match cli.command {
        Command::Validate { format, files } => validate(&files, format, out, err),
    }
}

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

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
