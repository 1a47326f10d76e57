//! The `mcpdesc!` macro.
