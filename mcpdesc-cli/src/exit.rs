//! The exit codes every command shares.

/// Exit code: everything valid.
pub const EXIT_OK: u8 = 0;
/// Exit code: at least one description has an error.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: usage or I/O error.
pub const EXIT_USAGE: u8 = 2;
