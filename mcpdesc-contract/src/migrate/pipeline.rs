//! The steps a document goes through, chosen by its format version and the target:
//! 0.7 → 0.8 (`legacy`), the fields its protocol version lacks (`gating`), 0.8 → 0.9
//! (`to_0_9`), then validation.

use serde_json::Value;

use super::migration::{MigrateError, Migration, Options};
use super::run::Run;
use super::{gating, legacy, to_0_9};
use mcpdesc_description::source::Loaded;
use mcpdesc_description::validate::fallout::is_legacy_version;
use mcpdesc_description::validate::SpecVersion;

/// Migrates a loaded document.
pub fn migrate(loaded: &Loaded, options: &Options) -> Result<Migration, MigrateError> {
    let from_version = match loaded.value.get("mcpdesc") {
        Some(Value::String(v)) => v.clone(),
        Some(other) => {
            return Err(MigrateError::NotApplicable(format!(
                "`mcpdesc` is {other}, not a format version string; nothing to migrate"
            )))
        }
        None => {
            return Err(MigrateError::NotApplicable(
                "the document has no `mcpdesc` member, so its format version is unknown; nothing to migrate".to_owned(),
            ))
        }
    };
    let legacy = is_legacy_version(&from_version);
    let from_0_8 = from_version == "0.8.0";
    let applicable = legacy || (from_0_8 && options.target == SpecVersion::V0_9_0);
    if !applicable {
        let why = if from_0_8 || from_version == "0.9.0" {
            format!(
                "the document is already MCP Description {from_version}; migrate rewrites 0.7.x documents (and 0.8.0 ones to 0.9.0), never to an older version"
            )
        } else {
            format!(
                "`mcpdesc` is {from_version:?}; migrate rewrites MCP Description 0.7.x documents (and 0.8.0 ones to 0.9.0)"
            )
        };
        return Err(MigrateError::NotApplicable(why));
    }

    let mut run = Run::new(&loaded.positions);
    let mut value = loaded.value.clone();
    if legacy {
        value = legacy::to_0_8(&mut run, &loaded.value, options);
        if run.root_version.is_some() {
            gating::remove_unsupported_fields(&mut run, &mut value);
        }
    }
    if options.target == SpecVersion::V0_9_0 {
        to_0_9::apply(&mut run, &mut value, from_0_8);
    }
    run.final_validation(&value);
    run.finish(from_version, options.target, value)
}
