//! Security Requirements: alternatives (OR), each naming schemes (AND) with the
//! scopes each scheme's principal must hold, and their evaluation against what a
//! request authenticated.

use std::fmt;

use serde_json::Value;

use super::principal::Authentication;

/// One alternative of a [`Requirement`]: every scheme it names must have
/// authenticated the request, each principal holding the scopes listed for it. An
/// empty alternative (`{}`) is anonymous access.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Alternative {
    entries: Vec<(String, Vec<String>)>,
}

impl Alternative {
    /// An alternative from `(scheme, scopes)` pairs.
    pub fn new<S: Into<String>>(entries: impl IntoIterator<Item = (S, Vec<String>)>) -> Self {
        Alternative {
            entries: entries.into_iter().map(|(s, v)| (s.into(), v)).collect(),
        }
    }

    /// The `(scheme, scopes)` pairs, in the description's order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.entries.iter().map(|(s, v)| (s.as_str(), v.as_slice()))
    }

    /// Whether it is anonymous access (`{}`).
    pub fn is_anonymous(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every scope it names, in order, without repeats.
    pub fn scopes(&self) -> Vec<String> {
        let mut all: Vec<String> = Vec::new();
        for (_, scopes) in &self.entries {
            for scope in scopes {
                if !all.contains(scope) {
                    all.push(scope.clone());
                }
            }
        }
        all
    }
}

/// A Security Requirement Array in force: the request must satisfy one alternative.
///
/// The description's three meaningful forms all end up *public* here: security not
/// stated (`None` at every level), `security: []` (cleared) and any array holding
/// `{}` (anonymous access is an alternative). A public requirement admits a request
/// without credentials; credentials a request does carry are still verified.
///
/// ```
/// use mcpdesc::auth::{Authentication, Principal, Requirement, Verdict};
/// use serde_json::json;
///
/// let write = Requirement::parse(&json!([{"oauth": ["games:write"]}])).unwrap();
/// assert_eq!(write.evaluate(&Authentication::default()), Verdict::Unauthenticated);
///
/// let mut reader = Authentication::default();
/// reader.push("oauth", Principal::new("ana").with_scopes(["games:read"]));
/// assert_eq!(
///     write.evaluate(&reader),
///     Verdict::InsufficientScope { scopes: vec!["games:write".into()] }
/// );
///
/// let public = Requirement::parse(&json!([{}, {"oauth": ["games:write"]}])).unwrap();
/// assert!(public.is_public());
/// assert_eq!(public.evaluate(&reader), Verdict::Allowed { principal: Some(0) });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Requirement {
    alternatives: Vec<Alternative>,
}

/// The outcome of [`Requirement::evaluate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The request may go on. `principal` is the index (in the [`Authentication`])
    /// of the principal that satisfied the requirement: the first scheme of the
    /// first satisfied alternative, or, for a public requirement, the first
    /// principal the request authenticated, if any.
    Allowed {
        /// Index of the principal handlers see as `Context::principal`.
        principal: Option<usize>,
    },
    /// No alternative has every scheme it names authenticated: HTTP 401.
    Unauthenticated,
    /// An alternative has every scheme authenticated, but a principal lacks a scope:
    /// HTTP 403 `insufficient_scope`, naming `scopes` (every scope of the first such
    /// alternative).
    InsufficientScope {
        /// The scopes the request needs.
        scopes: Vec<String>,
    },
}

impl Requirement {
    /// The public requirement (no statement, or `security: []`).
    pub fn public() -> Self {
        Requirement::default()
    }

    /// A requirement from its alternatives.
    pub fn new(alternatives: impl IntoIterator<Item = Alternative>) -> Self {
        Requirement {
            alternatives: alternatives.into_iter().collect(),
        }
    }

    /// Reads a Security Requirement Array (`[{"scheme": ["scope", ...]}, ...]`).
    pub fn parse(value: &Value) -> Result<Self, String> {
        let Value::Array(items) = value else {
            return Err(format!(
                "a Security Requirement Array must be an array, not {value}"
            ));
        };
        let mut alternatives = Vec::with_capacity(items.len());
        for item in items {
            let Value::Object(map) = item else {
                return Err(format!(
                    "a Security Requirement must be an object, not {item}"
                ));
            };
            let mut entries = Vec::with_capacity(map.len());
            for (scheme, scopes) in map {
                let scopes = scopes
                    .as_array()
                    .and_then(|list| {
                        list.iter()
                            .map(|s| s.as_str().map(str::to_owned))
                            .collect::<Option<Vec<_>>>()
                    })
                    .ok_or_else(|| {
                        format!(
                            "the scopes of `{scheme}` must be an array of strings, not {scopes}"
                        )
                    })?;
                entries.push((scheme.clone(), scopes));
            }
            alternatives.push(Alternative { entries });
        }
        Ok(Requirement { alternatives })
    }

    /// The alternatives, in order.
    pub fn alternatives(&self) -> &[Alternative] {
        &self.alternatives
    }

    /// Whether a request without credentials satisfies it.
    pub fn is_public(&self) -> bool {
        self.alternatives.is_empty() || self.alternatives.iter().any(Alternative::is_anonymous)
    }

    /// Every scheme it names, in order, without repeats.
    pub fn schemes(&self) -> Vec<&str> {
        let mut all: Vec<&str> = Vec::new();
        for alternative in &self.alternatives {
            for (scheme, _) in alternative.entries() {
                if !all.contains(&scheme) {
                    all.push(scheme);
                }
            }
        }
        all
    }

    /// The scopes of the first alternative that names `scheme` (what a challenge for
    /// that scheme asks for).
    pub fn scopes_for(&self, mut accepts: impl FnMut(&str) -> bool) -> Vec<String> {
        self.alternatives
            .iter()
            .find(|a| a.entries().any(|(s, _)| accepts(s)))
            .map(Alternative::scopes)
            .unwrap_or_default()
    }

    /// This requirement or `other`: the alternatives of both (a public side makes
    /// the result public).
    pub fn or(mut self, other: &Requirement) -> Requirement {
        if self.is_public() || other.is_public() {
            return Requirement::new([Alternative::default()]);
        }
        for alternative in &other.alternatives {
            if !self.alternatives.contains(alternative) {
                self.alternatives.push(alternative.clone());
            }
        }
        self
    }

    /// Evaluates what a request authenticated (see [`Verdict`]).
    pub fn evaluate(&self, authentication: &Authentication) -> Verdict {
        if self.is_public() {
            let principal = (!authentication.is_empty()).then_some(0);
            return Verdict::Allowed { principal };
        }
        let mut insufficient: Option<&Alternative> = None;
        for alternative in &self.alternatives {
            let mut authenticated = true;
            let mut scoped = true;
            for (scheme, scopes) in alternative.entries() {
                match authentication.position(scheme) {
                    None => authenticated = false,
                    Some(at) => {
                        let principal = &authentication.entries()[at].1;
                        if !scopes.iter().all(|s| principal.has_scope(s)) {
                            scoped = false;
                        }
                    }
                }
            }
            if authenticated && scoped {
                let first = alternative
                    .entries()
                    .next()
                    .and_then(|(scheme, _)| authentication.position(scheme));
                return Verdict::Allowed { principal: first };
            }
            if authenticated && insufficient.is_none() {
                insufficient = Some(alternative);
            }
        }
        match insufficient {
            Some(alternative) => Verdict::InsufficientScope {
                scopes: alternative.scopes(),
            },
            None => Verdict::Unauthenticated,
        }
    }
}

impl fmt::Display for Requirement {
    /// `public`, or the alternatives as `oauth(games:read) and api-key | basic`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_public() {
            return f.write_str("public");
        }
        let alternatives: Vec<String> = self
            .alternatives
            .iter()
            .map(|a| {
                a.entries()
                    .map(|(scheme, scopes)| {
                        if scopes.is_empty() {
                            scheme.to_owned()
                        } else {
                            format!("{scheme}({})", scopes.join(" "))
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .collect();
        f.write_str(&alternatives.join(" | "))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::auth::principal::Principal;

    fn authn(entries: &[(&str, &[&str])]) -> Authentication {
        let mut a = Authentication::default();
        for (scheme, scopes) in entries {
            a.push(
                *scheme,
                Principal::new("p").with_scopes(scopes.iter().copied()),
            );
        }
        a
    }

    #[test]
    fn public_forms() {
        assert!(Requirement::parse(&json!([])).unwrap().is_public());
        assert!(Requirement::parse(&json!([{}])).unwrap().is_public());
        assert!(Requirement::parse(&json!([{"a": []}, {}]))
            .unwrap()
            .is_public());
        assert!(!Requirement::parse(&json!([{"a": []}])).unwrap().is_public());
    }

    #[test]
    fn and_needs_every_scheme() {
        let r = Requirement::parse(&json!([{"oauth": ["r"], "key": []}])).unwrap();
        assert_eq!(
            r.evaluate(&authn(&[("oauth", &["r"])])),
            Verdict::Unauthenticated
        );
        assert_eq!(
            r.evaluate(&authn(&[("key", &[]), ("oauth", &["r"])])),
            Verdict::Allowed { principal: Some(1) }
        );
        assert_eq!(
            r.evaluate(&authn(&[("key", &[]), ("oauth", &[])])),
            Verdict::InsufficientScope {
                scopes: vec!["r".into()]
            }
        );
    }

    #[test]
    fn or_takes_any_alternative() {
        let r = Requirement::parse(&json!([{"oauth": ["w"]}, {"key": []}])).unwrap();
        assert_eq!(
            r.evaluate(&authn(&[("key", &[])])),
            Verdict::Allowed { principal: Some(0) }
        );
        assert_eq!(
            r.evaluate(&authn(&[("oauth", &["r"])])),
            Verdict::InsufficientScope {
                scopes: vec!["w".into()]
            }
        );
        assert_eq!(r.to_string(), "oauth(w) | key");
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(Requirement::parse(&json!({})).is_err());
        assert!(Requirement::parse(&json!([1])).is_err());
        assert!(Requirement::parse(&json!([{"a": "x"}])).is_err());
    }
}
