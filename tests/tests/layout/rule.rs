//! The size bound and its exceptions (ARCHITECTURE.md, "Import circles and file sizes").

/// No source file is longer than this many lines.
pub const MAX_LINES: usize = 800;

/// A source file allowed over [`MAX_LINES`], and why.
pub struct SizeException {
    /// Its path from the workspace root.
    pub path: &'static str,
    /// Why a split would not read better; ARCHITECTURE.md lists it too.
    pub reason: &'static str,
}

/// The files allowed over [`MAX_LINES`]. An entry whose file shrinks below the bound,
/// or is no longer a source file, fails the check until it is removed.
pub const SIZE_EXCEPTIONS: &[SizeException] = &[];
