//! `WWW-Authenticate` challenges (RFC 9110 §11.6.1) for the schemes of a requirement.

use crate::auth::declaration::{SchemeKind, SecurityDeclaration};
use crate::auth::requirement::Requirement;

/// What went wrong, as an OAuth 2.0 bearer-token error (RFC 6750 §3.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChallengeError {
    /// No credential: no `error` parameter.
    Missing,
    /// `invalid_request`: a malformed or misplaced credential.
    InvalidRequest(String),
    /// `invalid_token`: a credential no scheme accepts.
    InvalidToken(String),
    /// `insufficient_scope`: these scopes are needed.
    InsufficientScope(Vec<String>),
}

impl ChallengeError {
    fn code(&self) -> Option<&'static str> {
        match self {
            ChallengeError::Missing => None,
            ChallengeError::InvalidRequest(_) => Some("invalid_request"),
            ChallengeError::InvalidToken(_) => Some("invalid_token"),
            ChallengeError::InsufficientScope(_) => Some("insufficient_scope"),
        }
    }

    fn description(&self) -> Option<&str> {
        match self {
            ChallengeError::InvalidRequest(d) | ChallengeError::InvalidToken(d) => Some(d),
            _ => None,
        }
    }
}

/// The challenges for `requirement`, one per scheme it names (one `Bearer`
/// challenge for every bearer-type scheme, always first: clients such as the
/// official TypeScript SDK read `resource_metadata` only when the (joined)
/// `WWW-Authenticate` value starts with `Bearer`): see the `auth` module docs for
/// their form. `realm` is the server's name; `metadata_url` its Protected Resource
/// Metadata.
pub(crate) fn challenges(
    declaration: &SecurityDeclaration,
    requirement: &Requirement,
    realm: &str,
    metadata_url: &str,
    error: &ChallengeError,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |challenge: String| {
        if !out.contains(&challenge) {
            out.push(challenge);
        }
    };
    let is_bearer = |name: &str| declaration.scheme(name).is_some_and(|s| s.takes_bearer());
    let code = error.code();
    let mut bearer: Option<String> = None;
    for name in requirement.schemes() {
        let Some(scheme) = declaration.scheme(name) else {
            continue;
        };
        if scheme.takes_bearer() {
            let scopes = match error {
                ChallengeError::InsufficientScope(scopes) => scopes.clone(),
                _ => requirement.scopes_for(is_bearer),
            };
            let mut params = Vec::new();
            if let Some(code) = code {
                params.push(("error", code.to_owned()));
            }
            if !scopes.is_empty() {
                params.push(("scope", scopes.join(" ")));
            }
            params.push(("resource_metadata", metadata_url.to_owned()));
            if let Some(description) = error.description() {
                params.push(("error_description", description.to_owned()));
            }
            bearer = Some(challenge("Bearer", &params));
            continue;
        }
        match scheme.kind() {
            SchemeKind::Http { scheme } if scheme == "basic" => push(challenge(
                "Basic",
                &[("realm", realm.to_owned()), ("charset", "UTF-8".to_owned())],
            )),
            SchemeKind::Http { scheme } => push(challenge(
                &title_case(scheme),
                &[("realm", realm.to_owned())],
            )),
            SchemeKind::ApiKey { name, location } => {
                let mut params = vec![
                    ("realm", realm.to_owned()),
                    ("in", location.as_str().to_owned()),
                    ("name", name.clone()),
                ];
                if let (Some(code), false) =
                    (code, matches!(error, ChallengeError::InsufficientScope(_)))
                {
                    params.push(("error", code.to_owned()));
                }
                push(challenge("ApiKey", &params));
            }
            SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => {}
        }
    }
    if let Some(bearer) = bearer {
        out.insert(0, bearer);
    }
    out
}

/// `Scheme a="x", b="y"`.
fn challenge(scheme: &str, params: &[(&str, String)]) -> String {
    let params: Vec<String> = params
        .iter()
        .map(|(name, value)| format!("{name}=\"{}\"", quoted(value)))
        .collect();
    format!("{scheme} {}", params.join(", "))
}

/// The inside of an RFC 9110 quoted-string: `\` and `"` escaped, control
/// characters and non-ASCII dropped (a header value must stay visible ASCII).
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {}
        }
    }
    out
}

/// `digest` → `Digest` (how HTTP scheme names are usually written).
fn title_case(scheme: &str) -> String {
    let mut chars = scheme.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn declaration() -> SecurityDeclaration {
        let value = json!({"securitySchemes": {
            "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://a.example/t", "scopes": {"games:read": "", "games:write": ""}}}},
            "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example/.well-known/openid-configuration"},
            "basic": {"type": "http", "scheme": "basic"},
            "digest": {"type": "http", "scheme": "Digest"},
            "key": {"type": "apiKey", "in": "cookie", "name": "session"}
        }});
        SecurityDeclaration::parse(&value.to_string(), &[]).unwrap()
    }

    #[test]
    fn one_challenge_per_scheme_family() {
        let r = Requirement::parse(&json!([
            {"oauth": ["games:read"]}, {"oidc": []}, {"basic": []}, {"digest": []}, {"key": []}
        ]))
        .unwrap();
        let got = challenges(
            &declaration(),
            &r,
            "games \"x\"",
            "http://h/.well-known/oauth-protected-resource/mcp",
            &ChallengeError::Missing,
        );
        assert_eq!(
            got,
            [
                r#"Bearer scope="games:read", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp""#,
                r#"Basic realm="games \"x\"", charset="UTF-8""#,
                r#"Digest realm="games \"x\"""#,
                r#"ApiKey realm="games \"x\"", in="cookie", name="session""#,
            ]
        );
    }

    #[test]
    fn errors_and_scopes() {
        let r = Requirement::parse(&json!([{"oauth": ["games:write"]}])).unwrap();
        let d = declaration();
        let insufficient = ChallengeError::InsufficientScope(vec!["games:write".into()]);
        assert_eq!(
            challenges(&d, &r, "g", "M", &insufficient),
            [r#"Bearer error="insufficient_scope", scope="games:write", resource_metadata="M""#]
        );
        let invalid = ChallengeError::InvalidToken("expired\u{7}".into());
        assert_eq!(
            challenges(&d, &r, "g", "M", &invalid),
            [
                r#"Bearer error="invalid_token", scope="games:write", resource_metadata="M", error_description="expired""#
            ]
        );
    }
}
