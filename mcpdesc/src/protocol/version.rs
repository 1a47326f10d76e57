//! MCP protocol versions and small sets of them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the five MCP protocol versions an MCP Description can describe.
///
/// The order of the variants is chronological, so versions compare with `<`:
///
/// ```
/// use mcpdesc::ProtocolVersion;
///
/// let v: ProtocolVersion = "2025-06-18".parse().unwrap();
/// assert!(v > ProtocolVersion::V2025_03_26);
/// assert_eq!(v.to_string(), "2025-06-18");
/// assert_eq!(serde_json::to_value(v).unwrap(), "2025-06-18");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// MCP 2024-11-05.
    V2024_11_05,
    /// MCP 2025-03-26.
    V2025_03_26,
    /// MCP 2025-06-18.
    V2025_06_18,
    /// MCP 2025-11-25.
    V2025_11_25,
    /// MCP 2026-07-28.
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every version, oldest first.
    pub const ALL: &'static [ProtocolVersion] = &[
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest version.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The version string used on the wire, e.g. `"2025-11-25"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// The position in [`ProtocolVersion::ALL`].
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// Whether sessions start with `initialize` (before 2026-07-28; MCP 2026-07-28
    /// starts with `server/discover` and carries the version in each request).
    pub const fn has_initialize(self) -> bool {
        self.index() < ProtocolVersion::V2026_07_28.index()
    }

    /// Whether tool results carry `structuredContent` (2025-06-18 and later).
    pub const fn has_structured_content(self) -> bool {
        self.index() >= ProtocolVersion::V2025_06_18.index()
    }

    /// Whether a completed result carries `resultType: "complete"` (2026-07-28 only).
    pub const fn has_result_type(self) -> bool {
        self.index() >= ProtocolVersion::V2026_07_28.index()
    }

    /// Whether `structuredContent` may be any JSON value rather than an object (2026-07-28).
    pub const fn allows_any_structured_content(self) -> bool {
        self.index() >= ProtocolVersion::V2026_07_28.index()
    }

    /// Whether `audio` content blocks exist (2025-03-26 and later).
    pub const fn has_audio_content(self) -> bool {
        self.index() >= ProtocolVersion::V2025_03_26.index()
    }

    /// Whether `resource_link` content blocks exist (2025-06-18 and later).
    pub const fn has_resource_link_content(self) -> bool {
        self.index() >= ProtocolVersion::V2025_06_18.index()
    }

    /// Whether content blocks, embedded resources and annotations carry `_meta` and
    /// `lastModified` (2025-06-18 and later).
    pub const fn has_content_meta(self) -> bool {
        self.index() >= ProtocolVersion::V2025_06_18.index()
    }

    /// Whether `icons` exist on tools and resource links (2025-11-25 and later).
    pub const fn has_icons(self) -> bool {
        self.index() >= ProtocolVersion::V2025_11_25.index()
    }

    /// Whether the server may ask the client for elicitation (2025-06-18 and later).
    pub const fn has_elicitation(self) -> bool {
        self.index() >= ProtocolVersion::V2025_06_18.index()
    }

    /// Whether elicitation has the `url` mode (2025-11-25 and later).
    pub const fn has_url_elicitation(self) -> bool {
        self.index() >= ProtocolVersion::V2025_11_25.index()
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a string that names no known [`ProtocolVersion`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown MCP protocol version `{0}` (known: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)")]
pub struct UnknownProtocolVersion(pub String);

impl FromStr for ProtocolVersion {
    type Err = UnknownProtocolVersion;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProtocolVersion::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownProtocolVersion(s.to_owned()))
    }
}

impl Serialize for ProtocolVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of protocol versions, as a bit set (the runtime's internal form of a scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct VersionSet(u8);

impl VersionSet {
    pub(crate) fn of(versions: &[ProtocolVersion]) -> Self {
        VersionSet(versions.iter().fold(0, |bits, v| bits | (1 << v.index())))
    }

    pub(crate) fn contains(self, version: ProtocolVersion) -> bool {
        self.0 & (1 << version.index()) != 0
    }

    pub(crate) fn intersects(self, other: VersionSet) -> bool {
        self.0 & other.0 != 0
    }

    pub(crate) fn union(self, other: VersionSet) -> Self {
        VersionSet(self.0 | other.0)
    }

    pub(crate) fn is_subset_of(self, other: VersionSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = ProtocolVersion> {
        ProtocolVersion::ALL
            .iter()
            .copied()
            .filter(move |v| self.contains(*v))
    }
}

impl fmt::Display for VersionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(ProtocolVersion::as_str).collect();
        f.write_str(&names.join(", "))
    }
}

/// The version as rmcp's type.
#[cfg(feature = "rmcp")]
pub(crate) fn to_rmcp_version(version: ProtocolVersion) -> rmcp::model::ProtocolVersion {
    use rmcp::model as m;
    match version {
        ProtocolVersion::V2024_11_05 => m::ProtocolVersion::V_2024_11_05,
        ProtocolVersion::V2025_03_26 => m::ProtocolVersion::V_2025_03_26,
        ProtocolVersion::V2025_06_18 => m::ProtocolVersion::V_2025_06_18,
        ProtocolVersion::V2025_11_25 => m::ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V2026_07_28 => m::ProtocolVersion::V_2026_07_28,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_display_and_order() {
        for (i, v) in ProtocolVersion::ALL.iter().enumerate() {
            assert_eq!(v.as_str().parse::<ProtocolVersion>().unwrap(), *v);
            assert_eq!(v.index(), i);
        }
        assert!(ProtocolVersion::V2024_11_05 < ProtocolVersion::V2026_07_28);
        assert!("2025-01-01".parse::<ProtocolVersion>().is_err());
    }

    #[test]
    fn serde_as_string() {
        let v: ProtocolVersion = serde_json::from_str("\"2025-11-25\"").unwrap();
        assert_eq!(v, ProtocolVersion::V2025_11_25);
        assert!(serde_json::from_str::<ProtocolVersion>("\"2099-01-01\"").is_err());
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"2025-11-25\"");
    }

    #[test]
    fn sets() {
        let a = VersionSet::of(&[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25]);
        let b = VersionSet::of(&[ProtocolVersion::V2025_11_25]);
        assert!(b.is_subset_of(a));
        assert!(!a.is_subset_of(b));
        assert!(a.intersects(b));
        assert_eq!(a.to_string(), "2025-06-18, 2025-11-25");
        assert_eq!(VersionSet::of(&[]), VersionSet::default());
    }
}
