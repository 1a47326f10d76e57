//! Who a session belongs to: the principals of the request that opened it.

use serde::{Deserialize, Serialize};

use crate::auth::principal::Authentication;

/// The owner of a session: the `(scheme, subject)` pairs of the principals the
/// request that opened (or first used) it authenticated as, sorted.
///
/// A later request is the owner's when it authenticated as at least one of those
/// pairs: the subject, not the scopes, so a client that re-authorizes with more
/// scopes (step-up) keeps its session; and per scheme, so that an API key named
/// `alice` is not the OAuth user `alice`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner {
    principals: Vec<(String, String)>,
}

impl Owner {
    /// The owner made of `(scheme, subject)` pairs; `None` when there are none.
    pub fn new<S: Into<String>, T: Into<String>>(
        principals: impl IntoIterator<Item = (S, T)>,
    ) -> Option<Owner> {
        let mut principals: Vec<(String, String)> = principals
            .into_iter()
            .map(|(scheme, subject)| (scheme.into(), subject.into()))
            .collect();
        principals.sort();
        principals.dedup();
        (!principals.is_empty()).then_some(Owner { principals })
    }

    /// The owner a request's verified credentials make; `None` for an anonymous
    /// request.
    pub fn of(authentication: &Authentication) -> Option<Owner> {
        Owner::new(
            authentication
                .entries()
                .iter()
                .map(|(scheme, principal)| (scheme.as_str(), principal.subject())),
        )
    }

    /// The `(scheme, subject)` pairs, sorted.
    pub fn principals(&self) -> &[(String, String)] {
        &self.principals
    }

    /// Whether a request authenticated as `other` is this owner's.
    pub fn admits(&self, other: &Owner) -> bool {
        other.principals.iter().any(|p| self.principals.contains(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_principal_admits_and_schemes_keep_names_apart() {
        let alice = Owner::new([("oauth", "alice")]).unwrap();
        let both = Owner::new([("key", "k1"), ("oauth", "alice")]).unwrap();
        assert!(alice.admits(&both));
        assert!(both.admits(&alice));
        assert!(!alice.admits(&Owner::new([("key", "alice")]).unwrap()));
        assert!(!alice.admits(&Owner::new([("oauth", "bob")]).unwrap()));
        assert_eq!(Owner::new(Vec::<(String, String)>::new()), None);
    }
}
