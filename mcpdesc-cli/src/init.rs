//! `mcpdesc init` and `mcpdesc stubs`: the command side of
//! [`mcpdesc_codegen::scaffold`] (which computes the files); this module reads the
//! description, refuses a directory that is not empty, and writes.

use std::io::Write;
use std::path::Path;

use mcpdesc_codegen::scaffold::{self, stubs, InitOptions, ScaffoldError};
use mcpdesc_codegen::source::Format;
use mcpdesc_codegen::{Description, GenerateError, Limits, ProtocolVersion, Settings};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::load::load_reporting;
use crate::output::plural;

/// `mcpdesc init DIR [--description FILE] [--http] [--mcpdesc-path PATH]`.
pub fn init(
    dir: &Path,
    description: Option<&Path>,
    http: bool,
    mcpdesc_path: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()) {
        Ok(true) => {
            let _ = writeln!(
                err,
                "error: {} is not empty; `mcpdesc init` writes a new crate into a new or empty directory",
                dir.display()
            );
            return EXIT_USAGE;
        }
        Ok(false) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {}: {e}", dir.display());
            return EXIT_USAGE;
        }
    }
    let given = match description {
        None => None,
        Some(path) => match read_description(path) {
            Ok(given) => Some(given),
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                return EXIT_USAGE;
            }
        },
    };
    let mcpdesc_path = match mcpdesc_path.map(std::fs::canonicalize).transpose() {
        Ok(path) => path,
        Err(e) => {
            let _ = writeln!(err, "error: --mcpdesc-path: {e}");
            return EXIT_USAGE;
        }
    };
    let options = InitOptions {
        name: scaffold::package_name(dir),
        description: given,
        http,
        mcpdesc_path,
    };
    let (file, text) = scaffold::description_of(&options);
    let desc = Description::from_text(
        &file,
        text,
        Format::from_path(Path::new(&file)),
        &Limits::default(),
    );
    let _ = err.write_all(desc.render_diagnostics().as_bytes());
    let files = match scaffold::files(&options, &desc) {
        Ok(files) => files,
        Err(ScaffoldError::Generate(e)) => return generate_failed(&desc, &e, err),
    };
    for f in &files {
        let path = dir.join(&f.path);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &f.text));
        if let Err(e) = written {
            let _ = writeln!(err, "error: cannot write {}: {e}", path.display());
            return EXIT_USAGE;
        }
    }
    let _ =
        writeln!(
        out,
        "created {} ({}) in {}: `cargo run` serves it{}, `cargo test` runs its examples against {}",
        options.name,
        file,
        dir.display(),
        if http { " (stdio; `-- --http ADDR` for HTTP)" } else { " on stdio" },
        scaffold::HANDLERS_FILE
    );
    EXIT_OK
}

/// The file name and text of `--description FILE`.
fn read_description(path: &Path) -> Result<(String, String), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{} is not a file", path.display()))?;
    Ok((name, text))
}

/// `mcpdesc stubs DESC [--protocol-version V]`: the impl blocks of every generated trait
/// on `out`, for `src/handlers.rs` of a crate made by `mcpdesc init`.
pub fn stubs(
    file: &Path,
    version: Option<ProtocolVersion>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let mut settings = Settings::new();
    if let Some(v) = version {
        settings = settings.protocol_version(v);
    }
    let stub = stubs::Stub {
        self_type: scaffold::SELF_TYPE,
        module: scaffold::MODULE,
        location: scaffold::HANDLERS_FILE,
    };
    match stubs::impl_blocks(&desc, &settings, &stub) {
        Ok(text) => {
            let _ = writeln!(
                out,
                "// Handler stubs of {} for {} (with `use crate::{}::{{self, types}};`).\n",
                desc.name,
                scaffold::HANDLERS_FILE,
                scaffold::MODULE
            );
            let _ = out.write_all(text.as_bytes());
            EXIT_OK
        }
        Err(e) => generate_failed(&desc, &e, err),
    }
}

/// The message of a description that generates nothing (its errors are on `err`
/// already): exit 1.
fn generate_failed(desc: &Description, e: &GenerateError, err: &mut dyn Write) -> u8 {
    match e {
        GenerateError::Invalid { errors } => {
            let _ = writeln!(
                err,
                "error: {} is invalid ({} error{}); nothing written",
                desc.name,
                errors.len(),
                plural(errors.len())
            );
        }
        e => {
            let _ = writeln!(err, "error: {}: {e}", desc.name);
        }
    }
    EXIT_INVALID
}
