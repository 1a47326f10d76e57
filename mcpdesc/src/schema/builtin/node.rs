//! The compiled form of a schema: one [`Node`] per subschema, its keywords with
//! their subschemas by index.

use serde_json::{Number, Value};

#[derive(Debug, Clone)]
pub(super) enum Node {
    Bool(bool),
    Keywords(Box<Keywords>),
}

#[derive(Debug, Clone, Default)]
pub(super) struct Keywords {
    pub(super) reference: Option<usize>,
    /// The declared types, in their document order (the message lists them).
    pub(super) types: Option<Vec<&'static str>>,
    pub(super) single_type: bool,
    pub(super) enumeration: Option<Vec<Value>>,
    pub(super) constant: Option<Value>,
    pub(super) properties: Vec<(String, usize)>,
    pub(super) required: Vec<String>,
    pub(super) additional: Option<usize>,
    /// `additionalProperties: false`, reported once with every unexpected name.
    pub(super) no_additional: bool,
    pub(super) min_properties: Option<u64>,
    pub(super) max_properties: Option<u64>,
    pub(super) items: Option<usize>,
    pub(super) min_items: Option<u64>,
    pub(super) max_items: Option<u64>,
    pub(super) unique_items: bool,
    pub(super) minimum: Option<Number>,
    pub(super) maximum: Option<Number>,
    pub(super) exclusive_minimum: Option<Number>,
    pub(super) exclusive_maximum: Option<Number>,
    pub(super) min_length: Option<u64>,
    pub(super) max_length: Option<u64>,
    pub(super) all_of: Vec<usize>,
    pub(super) any_of: Vec<usize>,
    pub(super) one_of: Vec<usize>,
    pub(super) not: Option<(usize, Value)>,
}
