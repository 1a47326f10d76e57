//! The description's security as the runtime reads it: the security schemes, the
//! root requirement and the transports (their protocol scopes, URLs and
//! requirements). Generated code passes it as JSON text (`info::SECURITY`);
//! `mcpdesc serve-mock` builds the same text from the description at run time.

use serde_json::{Map, Value};

use super::requirement::Requirement;
use crate::protocol::version::{ProtocolVersion, VersionSet};

/// One entry of the description's `securitySchemes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityScheme {
    name: String,
    kind: SchemeKind,
}

/// What a security scheme reads from a request, by its `type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeKind {
    /// `oauth2`: a bearer access token from the flows' authorization server.
    OAuth2 {
        /// The flows, in the order `implicit`, `password`, `clientCredentials`,
        /// `authorizationCode`.
        flows: Vec<OAuthFlow>,
    },
    /// `openIdConnect`: a bearer token from the provider `url` describes.
    OpenIdConnect {
        /// `openIdConnectUrl`.
        url: String,
    },
    /// `http`: the HTTP authentication scheme `scheme`, lowercase (`bearer`,
    /// `basic`, ...).
    Http {
        /// The scheme name, lowercase.
        scheme: String,
    },
    /// `apiKey`: a key in the header, query parameter or cookie `name`.
    ApiKey {
        /// The header, parameter or cookie name.
        name: String,
        /// Where the key is.
        location: ApiKeyLocation,
    },
}

/// Where an `apiKey` scheme's key travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiKeyLocation {
    /// A request header.
    Header,
    /// A query parameter of the URL.
    Query,
    /// A cookie.
    Cookie,
}

impl ApiKeyLocation {
    /// `header`, `query` or `cookie`.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiKeyLocation::Header => "header",
            ApiKeyLocation::Query => "query",
            ApiKeyLocation::Cookie => "cookie",
        }
    }
}

/// One OAuth 2.0 flow of an `oauth2` scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthFlow {
    /// `implicit`, `password`, `clientCredentials` or `authorizationCode`.
    pub kind: String,
    /// `authorizationUrl`.
    pub authorization_url: Option<String>,
    /// `tokenUrl`.
    pub token_url: Option<String>,
    /// `refreshUrl`.
    pub refresh_url: Option<String>,
    /// The scope catalogue's names, in the description's order.
    pub scopes: Vec<String>,
}

impl SecurityScheme {
    /// The scheme's name (its key in `securitySchemes`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its type and parameters.
    pub fn kind(&self) -> &SchemeKind {
        &self.kind
    }

    /// Whether it reads `Authorization: Bearer` (`oauth2`, `openIdConnect`, `http`
    /// `bearer`).
    pub fn takes_bearer(&self) -> bool {
        match &self.kind {
            SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => true,
            SchemeKind::Http { scheme } => scheme == "bearer",
            SchemeKind::ApiKey { .. } => false,
        }
    }

    fn parse(name: &str, value: &Value) -> Result<Self, String> {
        let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        let need = |key: &str| {
            text(key).ok_or_else(|| format!("the security scheme `{name}` has no string `{key}`"))
        };
        let kind = match need("type")?.as_str() {
            "oauth2" => {
                let flows = value.get("flows").and_then(Value::as_object).ok_or_else(|| {
                    format!("the oauth2 security scheme `{name}` has no `flows` object")
                })?;
                SchemeKind::OAuth2 {
                    flows: ["implicit", "password", "clientCredentials", "authorizationCode"]
                        .into_iter()
                        .filter_map(|kind| flows.get(kind).map(|flow| parse_flow(kind, flow)))
                        .collect(),
                }
            }
            "openIdConnect" => SchemeKind::OpenIdConnect {
                url: need("openIdConnectUrl")?,
            },
            "http" => SchemeKind::Http {
                scheme: need("scheme")?.to_ascii_lowercase(),
            },
            "apiKey" => SchemeKind::ApiKey {
                name: need("name")?,
                location: match need("in")?.as_str() {
                    "header" => ApiKeyLocation::Header,
                    "query" => ApiKeyLocation::Query,
                    "cookie" => ApiKeyLocation::Cookie,
                    other => {
                        return Err(format!(
                            "the apiKey security scheme `{name}` has `in: {other}`; it must be header, query or cookie"
                        ))
                    }
                },
            },
            other => {
                return Err(format!(
                    "the security scheme `{name}` has the unknown type `{other}`"
                ))
            }
        };
        Ok(SecurityScheme {
            name: name.to_owned(),
            kind,
        })
    }
}

fn parse_flow(kind: &str, flow: &Value) -> OAuthFlow {
    let text = |key: &str| flow.get(key).and_then(Value::as_str).map(str::to_owned);
    OAuthFlow {
        kind: kind.to_owned(),
        authorization_url: text("authorizationUrl"),
        token_url: text("tokenUrl"),
        refresh_url: text("refreshUrl"),
        scopes: flow
            .get("scopes")
            .and_then(Value::as_object)
            .map(|scopes| scopes.keys().cloned().collect())
            .unwrap_or_default(),
    }
}

/// One entry of the description's `transports`, as far as security goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportEntry {
    kind: String,
    url: Option<String>,
    scope: VersionSet,
    security: Option<Requirement>,
}

impl TransportEntry {
    /// `streamable-http`, `sse` or `stdio`.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// `url` (HTTP transports).
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// Its `security`, when it states one.
    pub fn security(&self) -> Option<&Requirement> {
        self.security.as_ref()
    }

    /// Whether its effective protocol scope has `version`.
    pub fn serves(&self, version: ProtocolVersion) -> bool {
        self.scope.contains(version)
    }

    fn is_http(&self) -> bool {
        self.kind == "streamable-http" || self.kind == "sse"
    }
}

/// The description's security: its `securitySchemes`, root `security` and the
/// transports' security.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SecurityDeclaration {
    schemes: Vec<SecurityScheme>,
    root: Option<Requirement>,
    transports: Vec<TransportEntry>,
}

/// Which of the description's HTTP transport entries a server is: its `security`
/// is what primitives without their own inherit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TransportChoice {
    /// For each protocol version, the first `streamable-http` entry whose scope has
    /// it (else the first `sse` one): the default.
    #[default]
    FirstHttp,
    /// The HTTP entry whose `url` is this (and whose scope has the version).
    Url(String),
}

impl SecurityDeclaration {
    /// Reads `{"securitySchemes": {...}, "security": [...], "transports": [...]}`
    /// (each member optional); `server_versions` is the scope of a transport that
    /// names none.
    pub fn parse(json: &str, server_versions: &[ProtocolVersion]) -> Result<Self, String> {
        let value: Value = serde_json::from_str(json)
            .map_err(|e| format!("the security declaration is not valid JSON: {e}"))?;
        let Value::Object(root) = value else {
            return Err("the security declaration is not a JSON object".into());
        };
        let server_scope = if server_versions.is_empty() {
            VersionSet::of(ProtocolVersion::ALL)
        } else {
            VersionSet::of(server_versions)
        };
        let mut schemes = Vec::new();
        if let Some(map) = root.get("securitySchemes") {
            let map = map
                .as_object()
                .ok_or("`securitySchemes` is not an object")?;
            for (name, scheme) in map {
                schemes.push(SecurityScheme::parse(name, scheme)?);
            }
            schemes.sort_by(|a, b| a.name.cmp(&b.name));
        }
        let root_requirement = root
            .get("security")
            .map(|r| Requirement::parse(r).map_err(|e| format!("root `security`: {e}")))
            .transpose()?;
        let mut transports = Vec::new();
        for (i, transport) in root
            .get("transports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            transports.push(parse_transport(i, transport, server_scope)?);
        }
        let declaration = SecurityDeclaration {
            schemes,
            root: root_requirement,
            transports,
        };
        if let Some(root) = &declaration.root {
            declaration
                .check(root)
                .map_err(|e| format!("root `security`: {e}"))?;
        }
        for (i, transport) in declaration.transports.iter().enumerate() {
            if let Some(security) = &transport.security {
                declaration
                    .check(security)
                    .map_err(|e| format!("`transports[{i}].security`: {e}"))?;
            }
        }
        Ok(declaration)
    }

    /// The security schemes, by name.
    pub fn schemes(&self) -> &[SecurityScheme] {
        &self.schemes
    }

    /// The scheme named `name`.
    pub fn scheme(&self, name: &str) -> Option<&SecurityScheme> {
        self.schemes.iter().find(|s| s.name == name)
    }

    /// The root `security`, when stated.
    pub fn root(&self) -> Option<&Requirement> {
        self.root.as_ref()
    }

    /// The transports.
    pub fn transports(&self) -> &[TransportEntry] {
        &self.transports
    }

    /// The HTTP transport entry `choice` picks for `version`.
    pub fn http_transport(
        &self,
        choice: &TransportChoice,
        version: ProtocolVersion,
    ) -> Option<&TransportEntry> {
        let serving = || {
            self.transports
                .iter()
                .filter(move |t| t.is_http() && t.serves(version))
        };
        match choice {
            TransportChoice::FirstHttp => serving()
                .find(|t| t.kind == "streamable-http")
                .or_else(|| serving().next()),
            TransportChoice::Url(url) => serving().find(|t| t.url.as_deref() == Some(url)),
        }
    }

    /// What a primitive without its own `security` needs in `version` over HTTP:
    /// the chosen transport's `security`, else the root's, else nothing (public).
    pub fn inherited(&self, choice: &TransportChoice, version: ProtocolVersion) -> Requirement {
        self.inherited_ref(choice, version)
            .cloned()
            .unwrap_or_default()
    }

    /// [`Self::inherited`] borrowed; `None` for the public requirement.
    pub(crate) fn inherited_ref(
        &self,
        choice: &TransportChoice,
        version: ProtocolVersion,
    ) -> Option<&Requirement> {
        self.http_transport(choice, version)
            .and_then(|t| t.security.as_ref())
            .or(self.root.as_ref())
    }

    /// Whether every scheme `requirement` names is declared.
    pub fn check(&self, requirement: &Requirement) -> Result<(), String> {
        for scheme in requirement.schemes() {
            if self.scheme(scheme).is_none() {
                return Err(format!(
                    "it names the security scheme `{scheme}`, which `securitySchemes` does not declare"
                ));
            }
        }
        Ok(())
    }
}

fn parse_transport(
    index: usize,
    transport: &Value,
    server_scope: VersionSet,
) -> Result<TransportEntry, String> {
    let empty = Map::new();
    let map = transport.as_object().unwrap_or(&empty);
    let kind = map
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let scope = match map.get("protocolVersions") {
        Some(list) => {
            let versions: Vec<ProtocolVersion> = serde_json::from_value(list.clone())
                .map_err(|e| format!("`transports[{index}].protocolVersions`: {e}"))?;
            VersionSet::of(&versions)
        }
        None => server_scope,
    };
    let security = map
        .get("security")
        .map(|r| Requirement::parse(r).map_err(|e| format!("`transports[{index}].security`: {e}")))
        .transpose()?;
    Ok(TransportEntry {
        kind,
        url: map.get("url").and_then(Value::as_str).map(str::to_owned),
        scope,
        security,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const ALL: &[ProtocolVersion] = ProtocolVersion::ALL;

    fn declaration(value: Value) -> SecurityDeclaration {
        SecurityDeclaration::parse(&value.to_string(), ALL).unwrap()
    }

    #[test]
    fn transport_security_replaces_the_roots() {
        let d = declaration(json!({
            "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                                "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://a.example/token", "scopes": {"r": ""}}}}},
            "security": [{"oauth": ["r"]}],
            "transports": [
                {"type": "stdio", "command": "x", "security": []},
                {"type": "streamable-http", "url": "https://one.example/mcp", "protocolVersions": ["2025-06-18"], "security": [{"key": []}]},
                {"type": "streamable-http", "url": "https://two.example/mcp"}
            ]
        }));
        let v = ProtocolVersion::V2025_06_18;
        let first = TransportChoice::FirstHttp;
        assert_eq!(d.inherited(&first, v).to_string(), "key");
        assert_eq!(
            d.inherited(&first, ProtocolVersion::V2025_11_25)
                .to_string(),
            "oauth(r)"
        );
        let two = TransportChoice::Url("https://two.example/mcp".into());
        assert_eq!(d.inherited(&two, v).to_string(), "oauth(r)");
        assert!(matches!(
            d.scheme("oauth").unwrap().kind(),
            SchemeKind::OAuth2 { flows } if flows[0].scopes == ["r"]
        ));
    }

    #[test]
    fn unknown_schemes_and_types_are_errors() {
        let unknown = json!({"securitySchemes": {}, "security": [{"nope": []}]});
        assert!(SecurityDeclaration::parse(&unknown.to_string(), ALL)
            .unwrap_err()
            .contains("`nope`"));
        let bad = json!({"securitySchemes": {"x": {"type": "mutualTLS"}}});
        assert!(SecurityDeclaration::parse(&bad.to_string(), ALL)
            .unwrap_err()
            .contains("mutualTLS"));
        assert!(SecurityDeclaration::parse("[", ALL).is_err());
    }
}
