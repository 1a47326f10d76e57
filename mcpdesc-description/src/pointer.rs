//! JSON Pointers (RFC 6901), the address of every value a diagnostic talks about.

use std::fmt;

/// A JSON Pointer into a loaded document, such as `/tools/0/inputSchema`.
///
/// The empty pointer addresses the whole document. Pointers are built by appending
/// segments; the escaping of `~` and `/` is handled here so callers pass raw keys.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pointer(String);

impl Pointer {
    /// The pointer to the document root (`""`).
    pub fn root() -> Self {
        Pointer(String::new())
    }

    /// Parses an already escaped pointer such as `/components/schemas/Input`.
    ///
    /// Returns `None` when the text is neither empty nor starts with `/`.
    pub fn parse(text: &str) -> Option<Self> {
        (text.is_empty() || text.starts_with('/')).then(|| Pointer(text.to_owned()))
    }

    /// A new pointer with an object key appended.
    pub fn key(&self, key: &str) -> Self {
        let mut out = String::with_capacity(self.0.len() + key.len() + 1);
        out.push_str(&self.0);
        out.push('/');
        for ch in key.chars() {
            match ch {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                _ => out.push(ch),
            }
        }
        Pointer(out)
    }

    /// A new pointer with an array index appended.
    pub fn index(&self, index: usize) -> Self {
        Pointer(format!("{}/{index}", self.0))
    }

    /// The escaped text of the pointer.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The pointer one level up, or `None` at the root.
    pub fn parent(&self) -> Option<Self> {
        let cut = self.0.rfind('/')?;
        Some(Pointer(self.0[..cut].to_owned()))
    }

    /// The unescaped segments of the pointer.
    pub fn segments(&self) -> impl Iterator<Item = String> + '_ {
        self.0
            .split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
    }

    /// Whether `self` equals `other` or lies below it.
    pub fn starts_with(&self, other: &Pointer) -> bool {
        self.0 == other.0
            || (self.0.starts_with(&other.0) && self.0.as_bytes().get(other.0.len()) == Some(&b'/'))
    }

    /// Re-roots a pointer: replaces the prefix `from` with `to`.
    pub fn rebase(&self, from: &Pointer, to: &Pointer) -> Option<Pointer> {
        self.starts_with(from)
            .then(|| Pointer(format!("{}{}", to.0, &self.0[from.0.len()..])))
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_tilde_and_slash() {
        let p = Pointer::root().key("a/b").key("m~n").index(3);
        assert_eq!(p.as_str(), "/a~1b/m~0n/3");
        assert_eq!(p.segments().collect::<Vec<_>>(), ["a/b", "m~n", "3"]);
    }

    #[test]
    fn parent_and_prefix() {
        let p = Pointer::root().key("tools").index(0);
        assert_eq!(p.parent().unwrap().as_str(), "/tools");
        assert!(p.starts_with(&Pointer::root().key("tools")));
        assert!(!Pointer::root()
            .key("toolsx")
            .starts_with(&Pointer::root().key("tools")));
        let moved = p.key("x").rebase(&p, &Pointer::root().key("y")).unwrap();
        assert_eq!(moved.as_str(), "/y/x");
    }
}
