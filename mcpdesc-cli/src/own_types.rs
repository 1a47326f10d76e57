//! `mcpdesc generate`'s flags for the user's own types: `--replace KEY=PATH`,
//! `--format-type FORMAT=PATH` and `--crate NAME=VERSION`, each repeatable, the same
//! settings as `Builder::replace_type`, `Builder::format_type` and
//! `Builder::crate_version` (and `replace = {...}`, `formats = {...}`, `crates = {...}`
//! in `mcpdesc!`).

use clap::Args;
use mcpdesc_codegen::Settings;

/// The own-type flags of `generate`.
#[derive(Debug, Clone, Default, Args)]
pub struct OwnTypeFlags {
    /// Put a Rust type in place of a generated type or a component schema:
    /// `--replace Issue=crate::model::Issue`,
    /// `--replace '#/components/schemas/Issue=crate::model::Issue'` (repeatable).
    #[arg(long = "replace", value_name = "KEY=PATH", value_parser = key_value)]
    pub replacements: Vec<(String, String)>,
    /// Make every schema with this `format` a Rust type:
    /// `--format-type uuid=::uuid::Uuid` (repeatable).
    #[arg(long = "format-type", value_name = "FORMAT=PATH", value_parser = key_value)]
    pub formats: Vec<(String, String)>,
    /// Declare a crate for the `x-rust-type` schema extension, at the version the crate
    /// that includes the code depends on (`*` any, `!` never):
    /// `--crate geo-types=0.7.13` (repeatable).
    #[arg(long = "crate", value_name = "NAME=VERSION", value_parser = key_value)]
    pub crates: Vec<(String, String)>,
}

impl OwnTypeFlags {
    /// The settings with these flags applied (the generator checks the values).
    pub fn apply(&self, mut settings: Settings) -> Settings {
        for (key, path) in &self.replacements {
            settings = settings.replace_type(key, path);
        }
        for (format, path) in &self.formats {
            settings = settings.format_type(format, path);
        }
        for (name, version) in &self.crates {
            settings = settings.crate_version(name, version);
        }
        settings
    }
}

/// `KEY=VALUE`, split at the last `=` outside `<...>` (a key is never a Rust type, and a
/// type path holds no `=`): `#/components/schemas/A=crate::A`.
fn key_value(text: &str) -> Result<(String, String), String> {
    match text.rsplit_once('=') {
        Some((key, value)) if !key.is_empty() && !value.is_empty() => {
            Ok((key.to_owned(), value.to_owned()))
        }
        _ => Err(format!("expected KEY=VALUE, got {text:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_split_at_the_equals_sign() {
        assert_eq!(
            key_value("#/components/schemas/Issue=crate::model::Issue"),
            Ok((
                "#/components/schemas/Issue".to_owned(),
                "crate::model::Issue".to_owned()
            ))
        );
        assert!(key_value("uuid").is_err());
        assert!(key_value("=x").is_err());
    }
}
