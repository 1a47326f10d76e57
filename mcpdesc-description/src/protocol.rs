//! MCP protocol versions and sets of them (effective protocol scopes).

use std::fmt;

/// One MCP protocol version of the closed set an mcpdesc document may name.
///
/// Variants are in chronological order, so `<` compares versions by age.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// `2024-11-05`
    V2024_11_05,
    /// `2025-03-26`
    V2025_03_26,
    /// `2025-06-18`
    V2025_06_18,
    /// `2025-11-25`
    V2025_11_25,
    /// `2026-07-28`
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every version, oldest first.
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The version's wire name, such as `2025-11-25`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a wire name; `None` for anything outside the closed set.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == text)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of protocol versions, such as the effective protocol scope of a declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VersionSet(u8);

impl VersionSet {
    /// The empty set.
    pub const EMPTY: VersionSet = VersionSet(0);

    /// Every version.
    pub fn all() -> Self {
        ProtocolVersion::ALL.into_iter().collect()
    }

    /// The set holding one version.
    pub fn only(v: ProtocolVersion) -> Self {
        VersionSet(v.bit())
    }

    /// Versions from `from` onwards.
    pub fn since(from: ProtocolVersion) -> Self {
        ProtocolVersion::ALL
            .into_iter()
            .filter(|v| *v >= from)
            .collect()
    }

    /// Versions strictly before `until`.
    pub fn before(until: ProtocolVersion) -> Self {
        ProtocolVersion::ALL
            .into_iter()
            .filter(|v| *v < until)
            .collect()
    }

    /// Whether `v` is in the set.
    pub fn contains(self, v: ProtocolVersion) -> bool {
        self.0 & v.bit() != 0
    }

    /// Adds a version.
    pub fn insert(&mut self, v: ProtocolVersion) {
        self.0 |= v.bit();
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Versions in both sets.
    pub fn intersect(self, other: VersionSet) -> VersionSet {
        VersionSet(self.0 & other.0)
    }

    /// Versions in either set.
    pub fn union(self, other: VersionSet) -> VersionSet {
        VersionSet(self.0 | other.0)
    }

    /// Versions of `self` not in `other`.
    pub fn minus(self, other: VersionSet) -> VersionSet {
        VersionSet(self.0 & !other.0)
    }

    /// Whether every version of `self` is in `other`.
    pub fn is_subset(self, other: VersionSet) -> bool {
        self.minus(other).is_empty()
    }

    /// The versions, oldest first.
    pub fn iter(self) -> impl Iterator<Item = ProtocolVersion> {
        ProtocolVersion::ALL
            .into_iter()
            .filter(move |v| self.contains(*v))
    }

    /// The oldest version in the set.
    pub fn first(self) -> Option<ProtocolVersion> {
        self.iter().next()
    }

    /// The newest version in the set.
    pub fn last(self) -> Option<ProtocolVersion> {
        self.iter().last()
    }
}

impl FromIterator<ProtocolVersion> for VersionSet {
    fn from_iter<I: IntoIterator<Item = ProtocolVersion>>(iter: I) -> Self {
        let mut set = VersionSet::EMPTY;
        for v in iter {
            set.insert(v);
        }
        set
    }
}

impl fmt::Display for VersionSet {
    /// Lists the versions as `MCP 2025-06-18, 2025-11-25`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(ProtocolVersion::as_str).collect();
        write!(f, "MCP {}", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProtocolVersion::*;

    #[test]
    fn set_operations() {
        let modern = VersionSet::since(V2025_11_25);
        assert_eq!(
            modern.iter().collect::<Vec<_>>(),
            [V2025_11_25, V2026_07_28]
        );
        assert!(VersionSet::only(V2026_07_28).is_subset(modern));
        assert_eq!(
            VersionSet::before(V2025_03_26),
            VersionSet::only(V2024_11_05)
        );
        assert_eq!(modern.to_string(), "MCP 2025-11-25, 2026-07-28");
        assert_eq!(ProtocolVersion::parse("2025-06-18"), Some(V2025_06_18));
        assert_eq!(ProtocolVersion::parse("2027-01-01"), None);
    }
}
