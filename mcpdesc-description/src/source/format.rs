//! The two serializations of a description, told apart by file name or content.

use std::path::Path;

/// The serialization of a description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// RFC 8259 JSON (`.mcpdesc.json`).
    Json,
    /// Restricted YAML 1.2 (`.mcpdesc.yaml`, `.mcpdesc.yml`).
    Yaml,
}

impl Format {
    /// Chooses the format from a file name, `None` when the extension says nothing.
    pub fn from_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        }
    }

    /// Guesses the format from content: a document whose first significant character
    /// opens a JSON object or array is JSON, anything else is YAML.
    pub fn sniff(text: &str) -> Format {
        match text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .chars()
            .next()
        {
            Some('{') | Some('[') => Format::Json,
            _ => Format::Yaml,
        }
    }
}
