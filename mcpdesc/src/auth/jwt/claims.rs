//! The principal of a verified token's claims: the subject is `sub`, the scopes come
//! from `scope` (a space-separated string, RFC 9068 and RFC 8693) or `scp` (an array
//! of strings, or a space-separated string as some providers send it); every claim is
//! kept for handlers (a token's claims are not a credential: the token is).

use serde_json::{Map, Value};

use crate::auth::principal::{AuthError, Principal};

/// The principal `claims` name, or why they name none.
pub(crate) fn principal(claims: Map<String, Value>) -> Result<Principal, AuthError> {
    let subject = match claims.get("sub") {
        Some(Value::String(sub)) if !sub.is_empty() => sub.clone(),
        Some(_) => return Err(AuthError::rejected("the token's `sub` is not a string")),
        None => return Err(AuthError::rejected("the token has no `sub`")),
    };
    let mut principal = Principal::new(subject).with_scopes(scopes(&claims)?);
    for (name, value) in claims {
        principal = principal.with_claim(name, value);
    }
    Ok(principal)
}

/// The scopes of `scope` and `scp` together.
fn scopes(claims: &Map<String, Value>) -> Result<Vec<String>, AuthError> {
    let mut scopes = Vec::new();
    for name in ["scope", "scp"] {
        match claims.get(name) {
            None | Some(Value::Null) => {}
            Some(Value::String(list)) => scopes.extend(list.split_whitespace().map(str::to_owned)),
            Some(Value::Array(items)) if name == "scp" => {
                for item in items {
                    match item {
                        Value::String(scope) => scopes.push(scope.clone()),
                        _ => {
                            return Err(AuthError::rejected(
                                "the token's `scp` holds a value that is not a string",
                            ))
                        }
                    }
                }
            }
            Some(_) => {
                return Err(AuthError::rejected(format!(
                    "the token's `{name}` has the wrong type"
                )))
            }
        }
    }
    Ok(scopes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn of(value: Value) -> Result<Principal, AuthError> {
        match value {
            Value::Object(map) => principal(map),
            _ => unreachable!(),
        }
    }

    #[test]
    fn scope_and_scp() {
        let p = of(json!({"sub": "u", "scope": "a b  c"})).unwrap();
        assert_eq!(p.scopes().collect::<Vec<_>>(), ["a", "b", "c"]);
        let p = of(json!({"sub": "u", "scp": ["x", "y"]})).unwrap();
        assert_eq!(p.scopes().collect::<Vec<_>>(), ["x", "y"]);
        let p = of(json!({"sub": "u", "scp": "x z"})).unwrap();
        assert_eq!(p.scopes().collect::<Vec<_>>(), ["x", "z"]);
        assert_eq!(p.claim("scp"), Some(&json!("x z")));
        assert_eq!(p.subject(), "u");
    }

    #[test]
    fn bad_claims_are_rejected() {
        assert!(of(json!({"scope": "a"})).is_err());
        assert!(of(json!({"sub": 7})).is_err());
        assert!(of(json!({"sub": ""})).is_err());
        assert!(of(json!({"sub": "u", "scope": ["a"]})).is_err());
        assert!(of(json!({"sub": "u", "scp": [1]})).is_err());
    }
}
