//! The IR of the description's security: the schemes some Security Requirement names,
//! what credential each one's authenticator method receives, and the declaration the
//! runtime serves. The `security` emitter writes the `Authenticator` trait from it.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::tool::ToolIr;
use crate::generate::naming;
use crate::generate::primitives::PrimitivesIr;

/// What a scheme's authenticator method receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialKind {
    /// A bearer token (`oauth2`, `openIdConnect`, `http` `bearer`).
    Bearer,
    /// An API key.
    ApiKey,
    /// HTTP Basic credentials.
    Basic,
    /// The credentials of another HTTP scheme.
    Other,
}

/// One scheme the `Authenticator` trait has a method for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemeIr {
    /// The scheme's name in `securitySchemes`.
    pub name: String,
    /// The method's name (`authenticate_games_oauth`).
    pub method: String,
    /// What the method receives.
    pub credential: CredentialKind,
    /// The method's doc comment.
    pub doc: Vec<String>,
}

/// The module's security.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SecurityIr {
    /// `info::SECURITY`: the runtime's JSON of the description's security, when it
    /// declares `securitySchemes`.
    pub declaration: Option<String>,
    /// The schemes some requirement of the module names, in name order; empty: no
    /// `Authenticator`.
    pub schemes: Vec<SchemeIr>,
}

impl SecurityIr {
    /// Whether the generated server needs an authenticator.
    pub fn needs_authenticator(&self) -> bool {
        !self.schemes.is_empty()
    }
}

/// The description's security as the runtime reads it (`mcpdesc::Router::security`):
/// `securitySchemes`, root `security` and each transport's `type`, `url`,
/// `protocolVersions` and `security`, as compact JSON; `None` without
/// `securitySchemes`. `resolved` is the document with references substituted.
///
/// ```
/// use serde_json::json;
/// let doc = json!({"securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-Key"}},
///     "security": [{"k": []}],
///     "transports": [{"type": "stdio", "command": "srv", "env": {"TOKEN": "x"}}]});
/// assert_eq!(
///     mcpdesc_codegen::generate::security::declaration_json(&doc).unwrap(),
///     r#"{"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X-Key"}},"security":[{"k":[]}],"transports":[{"type":"stdio"}]}"#
/// );
/// ```
pub fn declaration_json(resolved: &Value) -> Option<String> {
    let schemes = resolved.get("securitySchemes")?;
    let mut out = Map::new();
    out.insert("securitySchemes".into(), schemes.clone());
    if let Some(security) = resolved.get("security") {
        out.insert("security".into(), security.clone());
    }
    if let Some(transports) = resolved.get("transports").and_then(Value::as_array) {
        let kept: Vec<Value> = transports
            .iter()
            .map(|t| {
                let mut entry = Map::new();
                for member in ["type", "url", "protocolVersions", "security"] {
                    if let Some(v) = t.get(member) {
                        entry.insert(member.into(), v.clone());
                    }
                }
                Value::Object(entry)
            })
            .collect();
        out.insert("transports".into(), Value::Array(kept));
    }
    Some(Value::Object(out).to_string())
}

/// The scheme names of a Security Requirement Array value.
fn named_schemes(requirement: Option<&Value>, into: &mut BTreeSet<String>) {
    for alternative in requirement.and_then(Value::as_array).into_iter().flatten() {
        if let Some(map) = alternative.as_object() {
            into.extend(map.keys().cloned());
        }
    }
}

/// The security of a module with these tools and primitives.
pub fn build(resolved: &Value, tools: &[ToolIr], primitives: &PrimitivesIr) -> SecurityIr {
    let declaration = declaration_json(resolved);
    let mut named = BTreeSet::new();
    named_schemes(resolved.get("security"), &mut named);
    for transport in resolved
        .get("transports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        named_schemes(transport.get("security"), &mut named);
    }
    for tool in tools {
        named_schemes(tool.declaration.get("security"), &mut named);
    }
    let commons = primitives
        .prompts
        .iter()
        .map(|p| &p.common)
        .chain(primitives.resources.iter().map(|r| &r.common))
        .chain(primitives.resource_templates.iter().map(|t| &t.common));
    for common in commons {
        named_schemes(common.declaration.get("security"), &mut named);
    }
    let mut methods = BTreeSet::new();
    let schemes = named
        .iter()
        .filter_map(|name| {
            let scheme = resolved.get("securitySchemes")?.get(name)?;
            let base = format!(
                "authenticate_{}",
                naming::snake_case(name).trim_end_matches('_')
            );
            let mut method = base.clone();
            let mut n = 2;
            while !methods.insert(method.clone()) {
                method = format!("{base}_{n}");
                n += 1;
            }
            let (credential, doc) = describe(name, scheme);
            Some(SchemeIr {
                name: name.clone(),
                method,
                credential,
                doc,
            })
        })
        .collect();
    SecurityIr {
        declaration,
        schemes,
    }
}

/// What a scheme's method receives, and its doc comment.
fn describe(name: &str, scheme: &Value) -> (CredentialKind, Vec<String>) {
    let text = |key: &str| scheme.get(key).and_then(Value::as_str).unwrap_or_default();
    let (kind, head) = match text("type") {
        "oauth2" => {
            let mut scopes: Vec<String> = Vec::new();
            let mut flows: Vec<String> = Vec::new();
            if let Some(map) = scheme.get("flows").and_then(Value::as_object) {
                for (flow, value) in map {
                    if flow.starts_with("x-") {
                        continue;
                    }
                    flows.push(flow.clone());
                    for scope in value.get("scopes").and_then(Value::as_object).into_iter().flatten() {
                        if !scopes.contains(scope.0) {
                            scopes.push(scope.0.clone());
                        }
                    }
                }
            }
            let catalogue = if scopes.is_empty() {
                String::new()
            } else {
                format!(" (the description's catalogue: {})", code_list(&scopes))
            };
            (
                CredentialKind::Bearer,
                vec![
                    format!("`{name}` (`oauth2`, flows {}): verifies an OAuth 2.0 access token sent as `Authorization: Bearer`.", code_list(&flows)),
                    String::new(),
                    format!("Accept only a token issued for this server (its audience is `request.resource()`), and return its subject with the scopes it grants{catalogue}; requirements are checked against those scopes."),
                ],
            )
        }
        "openIdConnect" => (
            CredentialKind::Bearer,
            vec![
                format!("`{name}` (`openIdConnect`, `{}`): verifies a token of that OpenID Connect provider sent as `Authorization: Bearer`.", text("openIdConnectUrl")),
                String::new(),
                "Accept only a token issued for this server (`request.resource()`), and return its subject with the scopes it grants.".to_owned(),
            ],
        ),
        "apiKey" => (
            CredentialKind::ApiKey,
            vec![format!(
                "`{name}` (`apiKey` in the {} `{}`): verifies an API key and returns who holds it.",
                text("in"),
                text("name")
            )],
        ),
        "http" if text("scheme").eq_ignore_ascii_case("bearer") => {
            let format = match text("bearerFormat") {
                "" => String::new(),
                f => format!(", format {f}"),
            };
            (
                CredentialKind::Bearer,
                vec![format!("`{name}` (`http` `bearer`{format}): verifies a bearer token sent as `Authorization: Bearer` and returns its subject.")],
            )
        }
        "http" if text("scheme").eq_ignore_ascii_case("basic") => (
            CredentialKind::Basic,
            vec![format!("`{name}` (`http` `basic`): verifies a user name and password sent as `Authorization: Basic`.")],
        ),
        _ => (
            CredentialKind::Other,
            vec![format!(
                "`{name}` (`http` `{}`): verifies the credentials of `Authorization: {} ...`, as sent.",
                text("scheme"),
                text("scheme")
            )],
        ),
    };
    let mut doc = head;
    if let Some(description) = scheme.get("description").and_then(Value::as_str) {
        doc.push(String::new());
        doc.extend(description.lines().map(str::to_owned));
    }
    doc.push(String::new());
    doc.push("Return `AuthError::rejected` for a credential that is not valid (the client gets `401`), `AuthError::unavailable` when it cannot be checked now (`503`).".to_owned());
    (kind, doc)
}

fn code_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
