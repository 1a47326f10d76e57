//! What a check does besides comparing listings, and its defaults.

use std::time::Duration;

use mcpdesc_description::Description;

use crate::expected::{described_versions, Expected};
use crate::select::Selection;

/// The request timeout a [`Config`] gets by default.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// What a check does besides comparing listings.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The examples to replay (`--examples`); none by default.
    pub examples: Selection,
    /// The tools to call with generated inputs (`--generate`); none by default.
    pub generate: Selection,
    /// Generated inputs per tool (`--cases`, default 20).
    pub cases: usize,
    /// The seed of the generated inputs (`--seed`, default 0).
    pub seed: u64,
    /// Example differences are failures (`--strict`).
    pub strict: bool,
    /// How long each call may take (`--timeout`).
    pub call_timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            examples: Selection::none(),
            generate: Selection::none(),
            cases: 20,
            seed: 0,
            strict: false,
            call_timeout: DEFAULT_CALL_TIMEOUT,
        }
    }
}

impl Config {
    /// The selection items that name nothing in any version `desc` describes, each
    /// with its option (`--examples`, `--generate`): a typo that would call nothing
    /// and pass as green. `mcpdesc check` refuses to run with one (exit 2). An item
    /// that names something of another version than the negotiated one is reported
    /// by the check instead (`selection-unknown`, skipped).
    pub fn unknown_selections(&self, desc: &Description) -> Vec<(&'static str, String)> {
        let versions: Vec<Expected> = described_versions(desc)
            .into_iter()
            .map(|v| Expected::of(desc, v))
            .collect();
        let known =
            |name: &str, example: Option<&str>| versions.iter().any(|e| e.knows(name, example));
        let mut unknown = Vec::new();
        for (option, selection) in [
            ("--examples", &self.examples),
            ("--generate", &self.generate),
        ] {
            for item in selection.unknown(&known) {
                unknown.push((option, item.to_owned()));
            }
        }
        unknown
    }
}
