//! The generator of one schema's inputs: valid and invalid cases, alternating, each
//! verified against the schema before it is returned.

use jsonschema::Validator;
use serde_json::Value;

use super::schema::{compile, scan, Unsupported};
use crate::rng::Rng;

/// A generated input.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The arguments to send.
    pub input: Value,
    /// Whether the schema accepts them.
    pub valid: bool,
    /// For an invalid case, the constraint broken (`/depth: above maximum 40`).
    pub broken: Option<String>,
    /// For an invalid case, the JSON Pointer of the argument changed (`/depth`), `/`
    /// for the argument object itself.
    pub argument: Option<String>,
    /// For an invalid case, the value put there (`None` when a member was removed).
    pub value: Option<Value>,
    /// Whether the invalid value is one a lax parser would coerce into a valid one
    /// (`"7"` for an integer, `"yes"` for a boolean, one item for an array).
    pub coercible: bool,
}

/// Generates inputs for one schema.
pub struct Generator<'a> {
    pub(super) root: &'a Value,
    pub(super) validator: Validator,
    pub(super) rng: Rng,
    /// The breaks already sent (`pointer: what`): each site is tried once before any
    /// is tried again, so that every kind of wrong value is sent, not one at random.
    pub(super) tried: Vec<String>,
}

impl std::fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator").finish_non_exhaustive()
    }
}

impl<'a> Generator<'a> {
    /// A generator for the input schema `root`, seeded by `rng`. Fails when the schema
    /// does not compile offline or uses a keyword the generator does not serve.
    pub fn new(root: &'a Value, rng: Rng) -> Result<Self, Unsupported> {
        let validator = compile(root).map_err(Unsupported)?;
        let mut trail = Vec::new();
        scan(root, root, &mut trail, "")?;
        Ok(Generator {
            root,
            validator,
            rng,
            tried: Vec::new(),
        })
    }

    /// Whether the schema accepts `instance`.
    pub fn accepts(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// `count` cases: valid and invalid ones alternating (valid first), all valid
    /// when the schema has no constraint to break. A generated value that does not
    /// verify is an [`Unsupported`] naming it.
    pub fn cases(&mut self, count: usize) -> Result<Vec<Case>, Unsupported> {
        let mut cases = Vec::with_capacity(count);
        let mut can_break = true;
        for i in 0..count {
            let valid = self.valid()?;
            if i % 2 == 1 && can_break {
                match self.invalid(&valid) {
                    Some(case) => {
                        cases.push(case);
                        continue;
                    }
                    None => can_break = false,
                }
            }
            cases.push(Case {
                input: valid,
                valid: true,
                broken: None,
                argument: None,
                value: None,
                coercible: false,
            });
        }
        Ok(cases)
    }
}
