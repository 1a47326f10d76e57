//! Schema comparisons shared across protocol versions' views.

use std::collections::HashMap;

use crate::diff::found::Found;
use mcpdesc_description::pointer::Pointer;

/// Schema comparisons already made in another protocol version's view: the same pair of
/// declarations compares the same way in every view, witnesses included.
#[derive(Default)]
pub(in crate::diff) struct Cache {
    schemas: HashMap<(Pointer, Pointer), Vec<Found>>,
}

impl Cache {
    pub(super) fn schemas(
        &mut self,
        old: &Pointer,
        new: &Pointer,
        compute: impl FnOnce() -> Vec<Found>,
    ) -> Vec<Found> {
        self.schemas
            .entry((old.clone(), new.clone()))
            .or_insert_with(compute)
            .clone()
    }
}
