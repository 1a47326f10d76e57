//! `mcpdesc docs`: the HTML page of a description to a file or stdout.

use std::io::Write;

use mcpdesc_codegen::ProtocolVersion;

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::load::load_reporting;
use crate::output::write_if_changed;

/// `mcpdesc docs`: the page to `output` or `out`; the description's diagnostics on `err`.
pub fn docs(
    file: &std::path::Path,
    output: Option<&std::path::Path>,
    protocol_version: Option<ProtocolVersion>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let options = mcpdesc_docs::Options { protocol_version };
    let page = match mcpdesc_docs::render(&desc, &options) {
        Ok(page) => page,
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", desc.name);
            return EXIT_INVALID;
        }
    };
    let written = match output {
        None => out.write_all(page.as_bytes()),
        Some(path) => write_if_changed(path, &page),
    };
    if let Err(e) = written {
        let target = output.map_or("stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    EXIT_OK
}
