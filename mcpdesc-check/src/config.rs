//! What a check does besides comparing listings, and its defaults.

use std::time::Duration;

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
