//! The version bump the changes need, and whether `info.version` moved that far.
//!
//! **Decisions** (the specification is silent):
//! - The bump is judged from the client's side, whatever `--perspective` says: the
//!   version is what clients pin. A breaking change for clients needs a major bump; a
//!   change that only adds what a client may use (a rule whose id says `added`,
//!   `widened` or `loosened`, compatible for clients: a tool, an optional argument, an
//!   enum value) needs a minor one; any other change (descriptions, hints, metadata) a
//!   patch. No change needs none.
//! - Versions are read as Semantic Versioning 2.0 (`semver`). Below 1.0.0 the Cargo
//!   convention applies: the minor number is the major one (`0.3.0` -> `0.4.0` is a
//!   major bump) and the patch number the minor one.
//! - When a version is not SemVer, only an unchanged `info.version` is known to be too
//!   little; anything else cannot be judged and is not warned about.

use std::fmt;

use serde::Serialize;

use super::rules::{Level, Rule};

/// How far a version moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bump {
    /// Not at all (or backwards).
    None,
    /// The patch number.
    Patch,
    /// The minor number.
    Minor,
    /// The major number.
    Major,
}

impl Bump {
    /// `none`, `patch`, `minor` or `major`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The bump the changes need and the one `info.version` made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersionBump {
    /// The old `info.version`.
    pub old: String,
    /// The new `info.version`.
    pub new: String,
    /// What the changes need.
    pub needed: Bump,
    /// What the versions show; `None` when one is not SemVer and they differ.
    pub made: Option<Bump>,
}

impl VersionBump {
    /// Whether the version did not move as far as the changes need (an unknown move is
    /// not reported).
    pub fn too_small(&self) -> bool {
        self.made.is_some_and(|made| made < self.needed)
    }

    /// What the changes need, in words: `a major version bump (breaking changes)`.
    pub fn needed_text(&self) -> String {
        match self.needed {
            Bump::None => "no version bump".to_owned(),
            Bump::Major => "a major version bump (breaking changes)".to_owned(),
            Bump::Minor => "a minor version bump (additions)".to_owned(),
            Bump::Patch => "a patch version bump".to_owned(),
        }
    }
}

/// The bump changes of these rules need (see the module docs).
pub(super) fn needed<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> Bump {
    rules
        .into_iter()
        .map(|rule| match rule.client {
            Level::Breaking => Bump::Major,
            Level::Compatible
                if ["added", "widened", "loosened"]
                    .iter()
                    .any(|word| rule.id.contains(word)) =>
            {
                Bump::Minor
            }
            _ => Bump::Patch,
        })
        .max()
        .unwrap_or(Bump::None)
}

/// How far `old` -> `new` moves; `None` when one is not SemVer and they differ.
pub(super) fn made(old: &str, new: &str) -> Option<Bump> {
    if old == new {
        return Some(Bump::None);
    }
    let (Ok(o), Ok(n)) = (semver::Version::parse(old), semver::Version::parse(new)) else {
        return None;
    };
    if n <= o {
        return Some(Bump::None);
    }
    // Below 1.0.0 each number counts one level up (Cargo's convention).
    let zero = o.major == 0 && n.major == 0;
    Some(if n.major > o.major {
        Bump::Major
    } else if n.minor > o.minor {
        if zero {
            Bump::Major
        } else {
            Bump::Minor
        }
    } else if n.patch > o.patch && zero {
        Bump::Minor
    } else {
        // A greater patch, or only a pre-release or build that sorts later.
        Bump::Patch
    })
}

#[cfg(test)]
mod tests {
    use super::{made, Bump};

    #[test]
    fn moves_by_semver_with_cargo_below_one() {
        assert_eq!(made("1.0.0", "1.0.0"), Some(Bump::None));
        assert_eq!(made("1.2.3", "2.0.0"), Some(Bump::Major));
        assert_eq!(made("1.2.3", "1.3.0"), Some(Bump::Minor));
        assert_eq!(made("1.2.3", "1.2.4"), Some(Bump::Patch));
        assert_eq!(made("1.2.3", "1.2.2"), Some(Bump::None));
        assert_eq!(made("0.3.1", "0.4.0"), Some(Bump::Major));
        assert_eq!(made("0.3.1", "0.3.2"), Some(Bump::Minor));
        assert_eq!(made("1.0.0-rc.1", "1.0.0"), Some(Bump::Patch));
        assert_eq!(made("2024-01", "2024-02"), None);
        assert_eq!(made("v1", "v1"), Some(Bump::None));
    }
}
