//! `mcpdesc generate`: the generated code to a file or stdout.

use std::io::Write;

use mcpdesc_codegen::{GenerateError, Settings};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::load::load_reporting;
use crate::output::{plural, write_if_changed};

/// `mcpdesc generate`.
pub fn generate(
    file: &std::path::Path,
    output: Option<&std::path::Path>,
    settings: &Settings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
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
            return EXIT_INVALID;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", desc.name);
            return EXIT_INVALID;
        }
    };
    for d in &generated.diagnostics {
        let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
    }
    let written = match output {
        None => out.write_all(generated.code.as_bytes()),
        Some(path) => write_if_changed(path, &generated.code),
    };
    if let Err(e) = written {
        let target = output.map_or("stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    if generated.has_errors() {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
