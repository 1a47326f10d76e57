//! `mcpdesc migrate`: a description rewritten for a newer MCP Description version.

use std::io::Write;

use mcpdesc_codegen::source::{self, Format};
use mcpdesc_codegen::{Description, Limits};
use mcpdesc_contract::migrate::{self, MigrateError};

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::output::plural;

/// `mcpdesc migrate`: the migrated document to OUT or stdout; the report (every change,
/// every warning, or the places that need the author) to `err`.
pub fn migrate(
    input: &std::path::Path,
    output: Option<&std::path::Path>,
    options: &migrate::Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let limits = Limits::default();
    let desc = match Description::from_path(input, &limits) {
        Ok(desc) => desc,
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {}: {e}", input.display());
            return EXIT_USAGE;
        }
    };
    let Some(loaded) = &desc.loaded else {
        let _ = err.write_all(desc.render_diagnostics().as_bytes());
        let _ = writeln!(
            err,
            "error: {} cannot be parsed; nothing to migrate",
            desc.name
        );
        return EXIT_USAGE;
    };
    let format = output.and_then(Format::from_path).unwrap_or(loaded.format);
    let migration = match migrate::migrate(loaded, options) {
        Ok(m) => m,
        Err(MigrateError::NotApplicable(why)) => {
            let _ = writeln!(err, "error: {}: {why}", desc.name);
            return EXIT_USAGE;
        }
        Err(MigrateError::NeedsAuthor { items, .. }) => {
            for d in &items {
                let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
            }
            let _ = writeln!(
                err,
                "error: {} needs the author at {} place{} (listed above); nothing was written",
                desc.name,
                items.len(),
                plural(items.len())
            );
            return EXIT_INVALID;
        }
    };
    let text = source::emit(&migration.value, format);
    let written = match output {
        Some(path) => std::fs::write(path, &text),
        None => out.write_all(text.as_bytes()),
    };
    if let Err(e) = written {
        let target = output.map_or("stdout".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "error: cannot write {target}: {e}");
        return EXIT_USAGE;
    }
    // The data model has no place for comments; say so rather than drop them quietly.
    let comment = match loaded.format {
        Format::Yaml => source::yaml_comment(&desc.text, &limits),
        Format::Json => None,
    };
    let warnings = migration.warnings.len() + usize::from(comment.is_some());
    let _ = writeln!(
        err,
        "migrated {} from MCP Description {} to {}{}: {} change{}, {warnings} warning{}",
        desc.name,
        migration.from_version,
        migration.target.as_str(),
        output.map_or(String::new(), |p| format!(" ({})", p.display())),
        migration.changes.len(),
        plural(migration.changes.len()),
        plural(warnings),
    );
    for change in &migration.changes {
        let _ = writeln!(err, "  change: {}", change.render(&desc.name));
    }
    if let Some(pos) = comment {
        let _ = writeln!(
            err,
            "warning: {}:{}:{}: the input's YAML comments are not carried over (the data model has no place for them)",
            desc.name, pos.line, pos.column
        );
    }
    for d in &migration.warnings {
        let _ = writeln!(err, "{}", d.render(&desc.name, Some(&desc.text)));
    }
    EXIT_OK
}
