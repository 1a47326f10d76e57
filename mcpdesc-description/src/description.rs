//! The library's entry point: a description read from a file or a string, loaded,
//! validated, and (when valid) turned into the typed model.

use std::io::Read;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::model::Document;
use crate::source::{self, Format, Limits, Loaded};
use crate::validate::{self, Validation};

/// A loaded and validated MCP Description.
///
/// ```no_run
/// use mcpdesc_description::{Description, Limits};
///
/// let desc = Description::from_path("chess.mcpdesc.json".as_ref(), &Limits::default())?;
/// eprint!("{}", desc.render_diagnostics());
/// if let Some(doc) = desc.document() {
///     for tool in doc.tools.iter().flatten() {
///         println!("{}", tool.name);
///     }
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Description {
    /// The name diagnostics use for the source (the path as given, or a label).
    pub name: String,
    /// The source text.
    pub text: String,
    /// The parsed document, when the text could be parsed.
    pub loaded: Option<Loaded>,
    /// The validation outcome, when the text could be parsed.
    pub validation: Option<Validation>,
    /// Every diagnostic: serialization problems, or validation findings.
    pub diagnostics: Vec<Diagnostic>,
    document: Option<Document>,
}

impl Description {
    /// Reads, parses and validates a file. The format comes from the extension
    /// (`.json`, `.yaml`, `.yml`), else from the content.
    ///
    /// Only I/O failures are `Err`; everything about the content is a diagnostic.
    pub fn from_path(path: &Path, limits: &Limits) -> std::io::Result<Description> {
        let file = std::fs::File::open(path)?;
        let mut bytes = Vec::new();
        // Read at most one byte past the limit, so a huge file is refused cheaply.
        file.take(limits.max_bytes as u64 + 1)
            .read_to_end(&mut bytes)?;
        let name = path.display().to_string();
        if bytes.len() > limits.max_bytes {
            return Ok(Self::failed(
                name,
                String::new(),
                source::error::serialization_error(
                    "input-too-large",
                    &crate::pointer::Pointer::root(),
                    None,
                    format!(
                        "the file is larger than the limit of {} bytes",
                        limits.max_bytes
                    ),
                ),
            ));
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return Ok(Self::failed(
                    name,
                    String::new(),
                    source::error::serialization_error(
                        "invalid-utf8",
                        &crate::pointer::Pointer::root(),
                        None,
                        format!("the file is not UTF-8 text: {e}"),
                    ),
                ))
            }
        };
        Ok(Self::from_text(
            &name,
            text,
            Format::from_path(path),
            limits,
        ))
    }

    /// Parses and validates text. `format` `None` sniffs the content.
    pub fn from_text(
        name: &str,
        text: String,
        format: Option<Format>,
        limits: &Limits,
    ) -> Description {
        let format = format.unwrap_or_else(|| Format::sniff(&text));
        let loaded = match source::parse(&text, format, limits) {
            Ok(loaded) => loaded,
            Err(d) => return Self::failed(name.to_owned(), text, d),
        };
        let validation = validate::validate(&loaded.value, &loaded.positions);
        let diagnostics = validation.diagnostics.clone();
        let document = if validation.is_valid() {
            Document::from_resolved(&validation.resolution.value).ok()
        } else {
            None
        };
        Description {
            name: name.to_owned(),
            text,
            loaded: Some(loaded),
            validation: Some(validation),
            diagnostics,
            document,
        }
    }

    fn failed(name: String, text: String, diagnostic: Diagnostic) -> Description {
        Description {
            name,
            text,
            loaded: None,
            validation: None,
            diagnostics: vec![diagnostic],
            document: None,
        }
    }

    /// Whether the description parsed and has no errors (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.validation.is_some() && !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The typed model of a valid description (`None` when it has errors).
    pub fn document(&self) -> Option<&Document> {
        self.document.as_ref()
    }

    /// The `mcpdesc` member as written, when it is a string.
    pub fn mcpdesc_version(&self) -> Option<&str> {
        self.loaded.as_ref()?.value.get("mcpdesc")?.as_str()
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }

    /// Every diagnostic rendered in the human (rustc-like) format, each followed by a
    /// blank line.
    pub fn render_diagnostics(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| d.render(&self.name, Some(&self.text)) + "\n")
            .collect()
    }
}
