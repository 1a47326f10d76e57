//! `mcpdesc generate`: the generated code to a file or stdout, or (`--check`) whether a
//! checked-in file still holds exactly what would be generated.

use std::io::Write;
use std::path::Path;

use mcpdesc_codegen::{GenerateError, Settings};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::load::load_reporting;
use crate::output::{plural, write_if_changed};

/// Where `mcpdesc generate` puts the code.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// Standard output.
    Stdout,
    /// This file (rewritten only when its content changes, so a build that includes it
    /// is not invalidated for nothing).
    File(&'a Path),
    /// Nowhere: compare with this file (`--check`).
    Check(&'a Path),
}

/// `mcpdesc generate`.
///
/// Exit codes: 0 generated (or, with `--check`, the file is up to date); 1 the
/// description is invalid, or (`--check`) the file differs or is missing; 2 usage or
/// I/O errors. With `--check` an invalid description is 2 too, so that 1 means only
/// "re-run the generator" to a CI script.
pub fn generate(
    file: &Path,
    target: Target<'_>,
    settings: &Settings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let invalid = match target {
        Target::Check(_) => EXIT_USAGE,
        Target::Stdout | Target::File(_) => EXIT_INVALID,
    };
    // The description's diagnostics first (errors refuse generation, warnings do not).
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let generated = match mcpdesc_codegen::generate(&desc, settings) {
        Ok(generated) => generated,
        Err(GenerateError::Invalid { errors }) => {
            let _ = writeln!(
                err,
                "error: {} is invalid ({} error{}); nothing generated",
                desc.name,
                errors.len(),
                plural(errors.len())
            );
            return invalid;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", desc.name);
            return invalid;
        }
    };
    for d in &generated.diagnostics {
        let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
    }
    if generated.has_errors() {
        // Code with errors is neither written as if it were good nor compared.
        if let Target::Check(_) = target {
            return invalid;
        }
    }
    let written = match target {
        Target::Stdout => out.write_all(generated.code.as_bytes()),
        Target::File(path) => write_if_changed(path, &generated.code),
        Target::Check(path) => return check(path, &desc.name, &generated.code, err),
    };
    if let Err(e) = written {
        let target = match target {
            Target::File(path) => path.display().to_string(),
            _ => "stdout".to_owned(),
        };
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    if generated.has_errors() {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

/// `--check`: 0 when `path` holds `code` byte for byte, 1 (with the first differing
/// line and what to run) when it differs or does not exist, 2 when it cannot be read.
fn check(path: &Path, source: &str, code: &str, err: &mut dyn Write) -> u8 {
    let shown = path.display();
    let old = match std::fs::read(path) {
        Ok(old) => old,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let _ = writeln!(
                err,
                "error: {shown} does not exist; generate it from {source}: \
                 re-run this command without `--check`"
            );
            return EXIT_INVALID;
        }
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {shown}: {e}");
            return EXIT_USAGE;
        }
    };
    if old == code.as_bytes() {
        return EXIT_OK;
    }
    let _ = writeln!(
        err,
        "error: {shown} is not what {source} generates (first difference on line {}); \
         regenerate it: re-run this command without `--check`",
        first_different_line(&old, code.as_bytes())
    );
    EXIT_INVALID
}

/// The 1-based line of the first byte where `a` and `b` differ (or where the shorter
/// one ends).
fn first_different_line(a: &[u8], b: &[u8]) -> usize {
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    1 + a[..same].iter().filter(|&&c| c == b'\n').count()
}
