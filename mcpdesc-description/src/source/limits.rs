//! Bounds applied to untrusted input.

/// Bounds applied to untrusted input before and while parsing it.
///
/// Exceeding one is a clear error, never a panic or a stack overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted source, in bytes. Default 16 MiB.
    pub max_bytes: usize,
    /// Deepest accepted nesting of objects and arrays. Default 100; values above
    /// [`Limits::DEPTH_CEILING`] are treated as the ceiling.
    pub max_depth: usize,
    /// Longest accepted string (keys included), in bytes. Default 1 MiB.
    pub max_string_len: usize,
}

impl Limits {
    /// The hard upper bound for `max_depth`, which keeps recursive consumers of the data
    /// model (serde, `jsonschema`, typify) far from the end of the stack.
    pub const DEPTH_CEILING: usize = 128;

    pub(crate) fn depth(&self) -> usize {
        self.max_depth.min(Self::DEPTH_CEILING)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 * 1024 * 1024,
            max_depth: 100,
            max_string_len: 1024 * 1024,
        }
    }
}
