//! OAuth 2.0 Protected Resource Metadata (RFC 9728) built from the description:
//! what `/.well-known/oauth-protected-resource` answers (see the [`crate::auth`]
//! module docs for each member's derivation). Nothing here touches the network.

use std::collections::BTreeSet;

use http::Uri;
use serde_json::{json, Map, Value};

use crate::auth::declaration::{SchemeKind, SecurityDeclaration};
use crate::auth::requirement::Requirement;
use crate::server::router::Router;

/// The well-known path prefix of RFC 9728.
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// A Protected Resource Metadata document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedResourceMetadata {
    /// `resource`: the server's canonical URL.
    pub resource: String,
    /// `authorization_servers`: issuer identifiers.
    pub authorization_servers: Vec<String>,
    /// `scopes_supported`.
    pub scopes_supported: Vec<String>,
    /// `resource_name`.
    pub resource_name: Option<String>,
}

impl ProtectedResourceMetadata {
    /// The JSON document (empty lists left out; `bearer_methods_supported` is
    /// `["header"]`).
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("resource".into(), json!(self.resource));
        if !self.authorization_servers.is_empty() {
            map.insert(
                "authorization_servers".into(),
                json!(self.authorization_servers),
            );
        }
        if !self.scopes_supported.is_empty() {
            map.insert("scopes_supported".into(), json!(self.scopes_supported));
        }
        map.insert("bearer_methods_supported".into(), json!(["header"]));
        if let Some(name) = &self.resource_name {
            map.insert("resource_name".into(), json!(name));
        }
        Value::Object(map)
    }
}

/// `scheme://host[:port]` of an absolute URL (lowercase scheme and host, no user
/// information, path, query or fragment).
///
/// ```
/// use mcpdesc::auth::metadata::origin;
/// assert_eq!(origin("https://Auth.Example.com:8443/oauth/token?x=1").as_deref(), Some("https://auth.example.com:8443"));
/// assert_eq!(origin("/relative"), None);
/// ```
pub fn origin(url: &str) -> Option<String> {
    let uri: Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?;
    let host = authority.host().to_ascii_lowercase();
    Some(match authority.port_u16() {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// The issuer an `openIdConnectUrl` names: the URL without
/// `/.well-known/openid-configuration` (OpenID Connect Discovery), or origin plus the
/// path after `/.well-known/openid-configuration` or
/// `/.well-known/oauth-authorization-server` (RFC 8414's path insertion), else the
/// URL's origin.
///
/// ```
/// use mcpdesc::auth::metadata::issuer;
/// assert_eq!(issuer("https://id.example.com/realms/games/.well-known/openid-configuration").as_deref(), Some("https://id.example.com/realms/games"));
/// assert_eq!(issuer("https://id.example.com/.well-known/oauth-authorization-server/tenant1").as_deref(), Some("https://id.example.com/tenant1"));
/// assert_eq!(issuer("https://id.example.com/discovery").as_deref(), Some("https://id.example.com"));
/// ```
pub fn issuer(open_id_connect_url: &str) -> Option<String> {
    let origin = origin(open_id_connect_url)?;
    let uri: Uri = open_id_connect_url.parse().ok()?;
    let path = uri.path();
    for marker in [
        "/.well-known/openid-configuration",
        "/.well-known/oauth-authorization-server",
    ] {
        if let Some(prefix) = path.strip_suffix(marker) {
            return Some(format!("{origin}{prefix}"));
        }
        if let Some(rest) = path.strip_prefix(marker) {
            if rest.starts_with('/') {
                return Some(format!("{origin}{rest}"));
            }
        }
    }
    Some(origin)
}

/// The authorization servers the description implies: for each `oauth2` scheme
/// the origins of its flows' URLs, for each `openIdConnect` scheme its
/// [`issuer`]; schemes in name order, without repeats.
pub fn authorization_servers(declaration: &SecurityDeclaration) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |server: Option<String>| {
        if let Some(server) = server {
            if !out.contains(&server) {
                out.push(server);
            }
        }
    };
    for scheme in declaration.schemes() {
        match scheme.kind() {
            SchemeKind::OAuth2 { flows } => {
                for flow in flows {
                    for url in [&flow.authorization_url, &flow.token_url, &flow.refresh_url]
                        .into_iter()
                        .flatten()
                    {
                        add(origin(url));
                    }
                }
            }
            SchemeKind::OpenIdConnect { url } => add(issuer(url)),
            _ => {}
        }
    }
    out
}

/// The scopes of the `oauth2` catalogues and every scope a requirement (root,
/// transport, tool, prompt, resource, template) names for an `oauth2` or
/// `openIdConnect` scheme, sorted.
pub fn scopes_supported(router: &Router) -> Vec<String> {
    let Some(declaration) = router.security_declaration() else {
        return Vec::new();
    };
    let mut scopes = BTreeSet::new();
    for scheme in declaration.schemes() {
        if let SchemeKind::OAuth2 { flows } = scheme.kind() {
            for flow in flows {
                scopes.extend(flow.scopes.iter().cloned());
            }
        }
    }
    let scoped = |name: &str| {
        declaration.scheme(name).is_some_and(|s| {
            matches!(
                s.kind(),
                SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. }
            )
        })
    };
    let requirements: Vec<&Requirement> = declaration
        .root()
        .into_iter()
        .chain(declaration.transports().iter().filter_map(|t| t.security()))
        .chain(router.all_tool_securities().map(|(_, r)| r))
        .chain(router.primitives().all_securities().map(|(_, r)| r))
        .collect();
    for requirement in requirements {
        for alternative in requirement.alternatives() {
            for (scheme, names) in alternative.entries() {
                if scoped(scheme) {
                    scopes.extend(names.iter().cloned());
                }
            }
        }
    }
    scopes.into_iter().collect()
}

/// The metadata URL of `resource` (RFC 9728 §3.1): the well-known path inserted
/// between the origin and the resource's path.
///
/// ```
/// use mcpdesc::auth::metadata::metadata_url;
/// assert_eq!(metadata_url("http://127.0.0.1:8080/mcp").as_deref(), Some("http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"));
/// assert_eq!(metadata_url("https://mcp.example.com/").as_deref(), Some("https://mcp.example.com/.well-known/oauth-protected-resource"));
/// ```
pub fn metadata_url(resource: &str) -> Option<String> {
    let origin = origin(resource)?;
    let uri: Uri = resource.parse().ok()?;
    let path = uri.path().trim_end_matches('/');
    Some(format!("{origin}{WELL_KNOWN}{path}"))
}

/// The path of `resource` (for the path-suffixed metadata route).
pub(crate) fn resource_path(resource: &str) -> Option<String> {
    let uri: Uri = resource.parse().ok()?;
    Some(uri.path().trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn servers_from_flows_and_issuers() {
        let value = json!({"securitySchemes": {
            "b-oauth": {"type": "oauth2", "flows": {
                "authorizationCode": {"authorizationUrl": "https://auth.example.com/authorize", "tokenUrl": "https://auth.example.com/token", "scopes": {}},
                "clientCredentials": {"tokenUrl": "https://tokens.example.com:8443/t", "refreshUrl": "https://auth.example.com/r", "scopes": {}}}},
            "a-oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example.com/.well-known/openid-configuration"},
            "c-key": {"type": "apiKey", "in": "header", "name": "k"}
        }});
        let d = SecurityDeclaration::parse(&value.to_string(), &[]).unwrap();
        assert_eq!(
            authorization_servers(&d),
            [
                "https://id.example.com",
                "https://tokens.example.com:8443",
                "https://auth.example.com"
            ]
        );
    }
}
