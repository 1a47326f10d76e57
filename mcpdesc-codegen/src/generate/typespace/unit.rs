//! One self-contained unit of conversion.

use crate::generate::prepare::PreparedSchema;
use mcpdesc_description::pointer::Pointer;

/// One self-contained unit of conversion: a prepared schema and where it came from.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The schema's pointer (use site, or component), for diagnostics.
    pub pointer: Pointer,
    /// The prepared schema.
    pub prepared: PreparedSchema,
}
