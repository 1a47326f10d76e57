//! Taking the credentials of a request out of its HTTP head: the `Authorization`
//! header, API keys in headers, query parameters and cookies. Once taken, they are
//! removed from the request, so that nothing downstream (rmcp, handlers, logs) sees
//! them.

use base64::Engine as _;
use http::header::{HeaderName, HeaderValue, AUTHORIZATION, COOKIE};
use http::request::Parts;
use http::uri::PathAndQuery;
use http::Uri;
use percent_encoding::percent_decode_str;

use crate::auth::credential::{BasicCredentials, Secret};
use crate::auth::declaration::{ApiKeyLocation, SchemeKind, SecurityScheme};

/// One credential a request carried, and the schemes it is for (a bearer token is
/// for every bearer-type scheme).
#[derive(Debug)]
pub(crate) struct Presented {
    pub(crate) secret: Secret,
    pub(crate) schemes: Vec<String>,
}

/// Takes the credentials of the active `schemes` out of `parts`; a malformed or
/// misplaced credential is an error saying what is wrong (never quoting it).
pub(crate) fn take_credentials(
    parts: &mut Parts,
    schemes: &[SecurityScheme],
) -> Result<Vec<Presented>, String> {
    let mut presented = Vec::new();
    misplaced(parts, schemes)?;
    authorization(parts, schemes, &mut presented)?;
    api_keys(parts, schemes, &mut presented)?;
    strip(parts, schemes)?;
    Ok(presented)
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// RFC 6750's `b64token`: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

fn api_key_in_authorization(schemes: &[SecurityScheme]) -> bool {
    schemes.iter().any(|s| {
        matches!(s.kind(), SchemeKind::ApiKey { name, location: ApiKeyLocation::Header }
            if name.eq_ignore_ascii_case("authorization"))
    })
}

/// The `Authorization` header: `Bearer`, `Basic` or another declared HTTP scheme.
fn authorization(
    parts: &Parts,
    schemes: &[SecurityScheme],
    presented: &mut Vec<Presented>,
) -> Result<(), String> {
    if api_key_in_authorization(schemes) {
        // An API key named `Authorization` takes the header as it is (api_keys).
        return Ok(());
    }
    let mut values = parts.headers.get_all(AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(());
    };
    if values.next().is_some() {
        return Err("the request has more than one Authorization header".into());
    }
    let value = value
        .to_str()
        .map_err(|_| "the Authorization header is not visible ASCII".to_owned())?;
    let value = value.trim();
    let (scheme, rest) = value.split_once(' ').unwrap_or((value, ""));
    let rest = rest.trim();
    if scheme.is_empty() || !scheme.bytes().all(is_token_char) {
        return Err("the Authorization header does not start with an authentication scheme".into());
    }
    if rest.is_empty() {
        return Err(format!(
            "the Authorization header names the scheme `{scheme}` but carries no credentials"
        ));
    }
    let lower = scheme.to_ascii_lowercase();
    let takers = |want: &dyn Fn(&SecurityScheme) -> bool| -> Vec<String> {
        schemes
            .iter()
            .filter(|s| want(s))
            .map(|s| s.name().to_owned())
            .collect()
    };
    let (secret, for_schemes) = match lower.as_str() {
        "bearer" => {
            if !is_b64token(rest) {
                return Err("the bearer token is not a valid b64token (RFC 6750)".into());
            }
            (
                Secret::Bearer(rest.to_owned()),
                takers(&|s| s.takes_bearer()),
            )
        }
        "basic" => {
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(rest)
                .map_err(|_| "the Basic credentials are not base64".to_owned())?;
            let decoded = String::from_utf8(decoded)
                .map_err(|_| "the Basic credentials are not UTF-8".to_owned())?;
            let (user, password) = decoded
                .split_once(':')
                .ok_or("the Basic credentials have no `:` between user and password")?;
            (
                Secret::Basic(BasicCredentials::new(user, password)),
                takers(&|s| matches!(s.kind(), SchemeKind::Http { scheme } if scheme == "basic")),
            )
        }
        _ => (
            Secret::Other {
                scheme: lower.clone(),
                credentials: rest.to_owned(),
            },
            takers(&|s| matches!(s.kind(), SchemeKind::Http { scheme } if *scheme == lower)),
        ),
    };
    if for_schemes.is_empty() {
        return Err(format!(
            "the `{scheme}` authentication scheme is not accepted here"
        ));
    }
    presented.push(Presented {
        secret,
        schemes: for_schemes,
    });
    Ok(())
}

/// `(name, decoded value)` of each query parameter, `+` read as a space.
fn query_pairs(uri: &Uri) -> Vec<(String, Option<String>)> {
    let decode = |text: &str| {
        percent_decode_str(&text.replace('+', " "))
            .decode_utf8()
            .ok()
            .map(|s| s.into_owned())
    };
    uri.query()
        .unwrap_or_default()
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name).unwrap_or_default(), decode(value))
        })
        .collect()
}

/// `(name, value)` of each cookie of every `Cookie` header.
fn cookies(parts: &Parts) -> Vec<(String, String)> {
    parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            Some((name.trim().to_owned(), value.to_owned()))
        })
        .collect()
}

/// The one value of the API key `name` at `location`, if any.
fn api_key(parts: &Parts, name: &str, location: ApiKeyLocation) -> Result<Option<String>, String> {
    let mut values: Vec<String> = match location {
        ApiKeyLocation::Header => {
            let mut out = Vec::new();
            for value in parts.headers.get_all(name).iter() {
                out.push(
                    value
                        .to_str()
                        .map_err(|_| format!("the `{name}` header is not visible ASCII"))?
                        .trim()
                        .to_owned(),
                );
            }
            out
        }
        ApiKeyLocation::Query => {
            let mut out = Vec::new();
            for (param, value) in query_pairs(&parts.uri) {
                if param == name {
                    out.push(value.ok_or_else(|| {
                        format!("the `{name}` query parameter is not percent-encoded UTF-8")
                    })?);
                }
            }
            out
        }
        ApiKeyLocation::Cookie => cookies(parts)
            .into_iter()
            .filter(|(cookie, _)| cookie == name)
            .map(|(_, value)| value)
            .collect(),
    };
    if values.len() > 1 {
        return Err(format!(
            "the API key `{name}` appears more than once in the {}",
            location.as_str()
        ));
    }
    match values.pop() {
        Some(value) if value.is_empty() => Err(format!(
            "the API key `{name}` in the {} is empty",
            location.as_str()
        )),
        other => Ok(other),
    }
}

fn api_keys(
    parts: &Parts,
    schemes: &[SecurityScheme],
    presented: &mut Vec<Presented>,
) -> Result<(), String> {
    for scheme in schemes {
        let SchemeKind::ApiKey { name, location } = scheme.kind() else {
            continue;
        };
        let Some(key) = api_key(parts, name, *location)? else {
            continue;
        };
        let secret = Secret::ApiKey(key);
        // Two schemes reading the same key share the credential.
        match presented.iter_mut().find(|p| p.secret == secret) {
            Some(p) => p.schemes.push(scheme.name().to_owned()),
            None => presented.push(Presented {
                secret,
                schemes: vec![scheme.name().to_owned()],
            }),
        }
    }
    Ok(())
}

/// Whether the request has `name` at `location` (present at all).
fn has(parts: &Parts, name: &str, location: ApiKeyLocation) -> bool {
    match location {
        ApiKeyLocation::Header => HeaderName::from_bytes(name.as_bytes())
            .is_ok_and(|header| parts.headers.contains_key(header)),
        ApiKeyLocation::Query => query_pairs(&parts.uri).iter().any(|(p, _)| p == name),
        ApiKeyLocation::Cookie => cookies(parts).iter().any(|(c, _)| c == name),
    }
}

/// Credentials sent where their scheme does not read them: an access token in the
/// URL query (RFC 6750's query form, which the MCP authorization specification
/// forbids), an API key in another place than its scheme names.
fn misplaced(parts: &Parts, schemes: &[SecurityScheme]) -> Result<(), String> {
    let read_at = |name: &str, location: ApiKeyLocation| {
        schemes.iter().any(|s| {
            matches!(s.kind(), SchemeKind::ApiKey { name: n, location: l }
                if *l == location && (n == name || (location == ApiKeyLocation::Header && n.eq_ignore_ascii_case(name))))
        })
    };
    if schemes.iter().any(|s| s.takes_bearer())
        && !read_at("access_token", ApiKeyLocation::Query)
        && has(parts, "access_token", ApiKeyLocation::Query)
    {
        return Err(
            "an access token goes in the Authorization header, never in the URL query".into(),
        );
    }
    for scheme in schemes {
        let SchemeKind::ApiKey { name, location } = scheme.kind() else {
            continue;
        };
        for other in [
            ApiKeyLocation::Header,
            ApiKeyLocation::Query,
            ApiKeyLocation::Cookie,
        ] {
            if other != *location && !read_at(name, other) && has(parts, name, other) {
                return Err(format!(
                    "the API key `{name}` goes in the {}, not in the {}",
                    location.as_str(),
                    other.as_str()
                ));
            }
        }
    }
    Ok(())
}

/// Removes every credential the active schemes read.
fn strip(parts: &mut Parts, schemes: &[SecurityScheme]) -> Result<(), String> {
    let reads_authorization = schemes
        .iter()
        .any(|s| !matches!(s.kind(), SchemeKind::ApiKey { .. }));
    if reads_authorization {
        parts.headers.remove(AUTHORIZATION);
    }
    let mut cookie_names = Vec::new();
    let mut query_names = Vec::new();
    for scheme in schemes {
        match scheme.kind() {
            SchemeKind::ApiKey {
                name,
                location: ApiKeyLocation::Header,
            } => {
                if let Ok(header) = HeaderName::from_bytes(name.as_bytes()) {
                    parts.headers.remove(header);
                }
            }
            SchemeKind::ApiKey {
                name,
                location: ApiKeyLocation::Cookie,
            } => cookie_names.push(name.as_str()),
            SchemeKind::ApiKey {
                name,
                location: ApiKeyLocation::Query,
            } => query_names.push(name.as_str()),
            _ => {}
        }
    }
    if !cookie_names.is_empty() && parts.headers.contains_key(COOKIE) {
        let kept: Vec<String> = cookies(parts)
            .into_iter()
            .filter(|(name, _)| !cookie_names.contains(&name.as_str()))
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        parts.headers.remove(COOKIE);
        if !kept.is_empty() {
            if let Ok(value) = HeaderValue::from_str(&kept.join("; ")) {
                parts.headers.insert(COOKIE, value);
            }
        }
    }
    if !query_names.is_empty() {
        if let Some(query) = parts.uri.query() {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|pair| {
                    let name = pair.split_once('=').map_or(*pair, |(n, _)| n);
                    let decoded = percent_decode_str(&name.replace('+', " "))
                        .decode_utf8_lossy()
                        .into_owned();
                    !query_names.contains(&decoded.as_str())
                })
                .collect();
            let path = parts.uri.path();
            let rebuilt = if kept.is_empty() {
                path.to_owned()
            } else {
                format!("{path}?{}", kept.join("&"))
            };
            let mut uri = parts.uri.clone().into_parts();
            uri.path_and_query = Some(
                PathAndQuery::try_from(rebuilt)
                    .map_err(|_| "the request URL cannot be rebuilt".to_owned())?,
            );
            parts.uri =
                Uri::from_parts(uri).map_err(|_| "the request URL cannot be rebuilt".to_owned())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::auth::declaration::SecurityDeclaration;

    fn declaration() -> SecurityDeclaration {
        let value = json!({"securitySchemes": {
            "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://a.example/t", "scopes": {}}}},
            "bearer": {"type": "http", "scheme": "bearer"},
            "basic": {"type": "http", "scheme": "basic"},
            "header": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            "query": {"type": "apiKey", "in": "query", "name": "api_key"},
            "cookie": {"type": "apiKey", "in": "cookie", "name": "session"}
        }});
        SecurityDeclaration::parse(&value.to_string(), &[]).unwrap()
    }

    fn parts(uri: &str, headers: &[(&str, &str)]) -> Parts {
        let mut request = http::Request::post(uri);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn take(uri: &str, headers: &[(&str, &str)]) -> (Result<Vec<Presented>, String>, Parts) {
        let d = declaration();
        let mut p = parts(uri, headers);
        (take_credentials(&mut p, d.schemes()), p)
    }

    #[test]
    fn bearer_goes_to_every_bearer_scheme_and_is_removed() {
        let (got, p) = take("/mcp", &[("authorization", "Bearer abc.DEF-1~+/==")]);
        let got = got.unwrap();
        assert_eq!(got[0].secret, Secret::Bearer("abc.DEF-1~+/==".into()));
        assert_eq!(got[0].schemes, ["bearer", "oauth"]);
        assert!(!p.headers.contains_key(AUTHORIZATION));
    }

    #[test]
    fn basic_is_decoded() {
        // "ana:pa:ss"
        let (got, _) = take("/mcp", &[("authorization", "basic YW5hOnBhOnNz")]);
        assert_eq!(
            got.unwrap()[0].secret,
            Secret::Basic(BasicCredentials::new("ana", "pa:ss"))
        );
    }

    #[test]
    fn api_keys_in_their_three_places_and_removed() {
        let (got, p) = take(
            "/mcp?api_key=q%2Bkey&other=1",
            &[("x-api-key", "hkey"), ("cookie", "a=1; session=\"ckey\"")],
        );
        let secrets: Vec<Secret> = got.unwrap().into_iter().map(|p| p.secret).collect();
        assert!(secrets.contains(&Secret::ApiKey("hkey".into())));
        assert!(secrets.contains(&Secret::ApiKey("q+key".into())));
        assert!(secrets.contains(&Secret::ApiKey("ckey".into())));
        assert_eq!(p.uri.to_string(), "/mcp?other=1");
        assert_eq!(p.headers.get(COOKIE).unwrap(), "a=1");
        assert!(!p.headers.contains_key("x-api-key"));
    }

    #[test]
    fn malformed_and_misplaced() {
        for (uri, headers) in [
            ("/mcp", vec![("authorization", "Bearer")]),
            ("/mcp", vec![("authorization", "Bearer a b")]),
            (
                "/mcp",
                vec![("authorization", "Bearer a"), ("authorization", "Bearer b")],
            ),
            ("/mcp", vec![("authorization", "Basic !!!")]),
            ("/mcp", vec![("authorization", "Basic YW5h")]),
            ("/mcp", vec![("authorization", "Negotiate abc")]),
            ("/mcp", vec![("authorization", "")]),
            ("/mcp?access_token=abc", vec![]),
            ("/mcp?X-API-Key=abc", vec![]),
            ("/mcp", vec![("cookie", "api_key=abc")]),
            ("/mcp", vec![("x-api-key", "")]),
            ("/mcp", vec![("x-api-key", "a"), ("x-api-key", "b")]),
        ] {
            let (got, _) = take(uri, &headers);
            assert!(got.is_err(), "{uri} {headers:?} was accepted");
        }
        let (got, _) = take("/mcp", &[("authorization", "Bearer s3cr3t one")]);
        assert!(!got.unwrap_err().contains("s3cr3t"));
    }
}
