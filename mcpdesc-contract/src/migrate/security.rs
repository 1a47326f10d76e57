//! Inline 0.7 Security Scheme Objects → named `securitySchemes` and Security
//! Requirement Arrays (guide, "Security").
//!
//! In 0.7, root and transport `security` are arrays of scheme objects, any one of which
//! authenticates a client. Each distinct scheme (equal objects are one scheme) gets a
//! deterministic name, and each array becomes the Security Requirement Array that lists
//! one alternative per scheme, with no scopes: the guide forbids inferring minimum OAuth
//! scopes. `security: []` stays `[]` (explicitly no authentication), and omission stays
//! omission, because 0.8.0 gives the three forms different meanings.
//!
//! Names prefer what the author wrote: an apiKey's `name` (`X-Api-Key`), an http
//! scheme's `scheme` (`bearer`), else the type (`oauth2`, `openIdConnect`). Two
//! different schemes that would get the same name are told apart by a `-2`, `-3`, ...
//! suffix in document order, with a warning asking the author to review the names.
//!
//! Endpoint metadata the 0.8.0 schemes require (`flows` with the URLs and `scopes` each
//! flow needs, `scheme`, `name` and `in`, `openIdConnectUrl`) cannot be invented: a
//! scheme missing any of it is a place for the author.

use serde_json::{Map, Value};

use super::run::{brief, Run};
use mcpdesc_description::pointer::Pointer;

/// The distinct schemes of a document, named.
pub(super) struct Schemes {
    /// (name, scheme object, where it first occurs), in order of first occurrence.
    named: Vec<(String, Value, Pointer)>,
}

impl Schemes {
    /// Collects the inline schemes of root and transport `security`.
    pub(super) fn collect(run: &mut Run<'_>, root: &Map<String, Value>) -> Schemes {
        let mut sites: Vec<(Pointer, &Value)> = Vec::new();
        let here = Pointer::root();
        if let Some(list) = root.get("security") {
            sites.push((here.key("security"), list));
        }
        if let Some(transports) = root.get("transports").and_then(Value::as_array) {
            for (index, transport) in transports.iter().enumerate() {
                if let Some(list) = transport.get("security") {
                    sites.push((here.key("transports").index(index).key("security"), list));
                }
            }
        }
        let mut schemes = Schemes { named: Vec::new() };
        for (at, list) in sites {
            let Some(items) = list.as_array() else {
                run.author(
                    "invalid-security",
                    &at,
                    format!(
                        "security must be an array of security scheme objects in 0.7, not {}",
                        brief(list)
                    ),
                );
                continue;
            };
            for (index, scheme) in items.iter().enumerate() {
                let s_at = at.index(index);
                if schemes.named.iter().any(|(_, s, _)| s == scheme) {
                    continue;
                }
                if !check(run, scheme, &s_at) {
                    continue;
                }
                let base = base_name(scheme);
                let name = schemes.unused(&base);
                if name != base {
                    run.warn(
                        "security-scheme-name-collision",
                        &s_at,
                        format!(
                            "two different security schemes would both be named {base:?}; this one is named {name:?}. Review the generated names"
                        ),
                    );
                }
                run.moved(
                    Pointer::root().key("securitySchemes").key(&name),
                    s_at.clone(),
                );
                run.change(
                    Some(s_at.clone()),
                    Some(Pointer::root().key("securitySchemes").key(&name)),
                    format!("inline security scheme moved to securitySchemes.{name}"),
                );
                schemes.named.push((name, scheme.clone(), s_at));
            }
        }
        schemes
    }

    /// Whether no scheme was found.
    pub(super) fn is_empty(&self) -> bool {
        self.named.is_empty()
    }

    /// The root `securitySchemes` map.
    pub(super) fn to_value(&self) -> Value {
        Value::Object(
            self.named
                .iter()
                .map(|(name, scheme, _)| (name.clone(), scheme.clone()))
                .collect(),
        )
    }

    /// The Security Requirement Array replacing the 0.7 array at `at`: one alternative
    /// per scheme, each requiring no particular scope.
    pub(super) fn requirements(&self, run: &mut Run<'_>, list: &Value, at: &Pointer) -> Value {
        let Some(items) = list.as_array() else {
            return list.clone();
        };
        let mut out = Vec::new();
        for scheme in items {
            // A scheme that failed its checks has no name; the author was told.
            if let Some((name, _, _)) = self.named.iter().find(|(_, s, _)| s == scheme) {
                let mut requirement = Map::new();
                requirement.insert(name.clone(), Value::Array(Vec::new()));
                out.push(Value::Object(requirement));
            }
        }
        if items.is_empty() {
            run.change(
                Some(at.clone()),
                Some(at.clone()),
                "security: [] kept: it explicitly requires no authentication",
            );
        } else {
            let names: Vec<String> = out
                .iter()
                .filter_map(|r| r.as_object().and_then(|m| m.keys().next().cloned()))
                .collect();
            run.change(
                Some(at.clone()),
                Some(at.clone()),
                format!(
                    "inline schemes replaced by a requirement for any one of {} (no OAuth scopes are inferred)",
                    names.join(", ")
                ),
            );
        }
        Value::Array(out)
    }

    /// `base`, or `base-2`, `base-3`, ... when taken.
    fn unused(&self, base: &str) -> String {
        let taken = |n: &str| self.named.iter().any(|(name, _, _)| name == n);
        if !taken(base) {
            return base.to_owned();
        }
        (2..)
            .map(|i| format!("{base}-{i}"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| base.to_owned())
    }
}

/// The name a scheme would get without collisions.
fn base_name(scheme: &Value) -> String {
    let field = |k: &str| scheme.get(k).and_then(Value::as_str);
    let raw = match field("type") {
        Some("apiKey") => field("name").unwrap_or("apiKey"),
        Some("http") => field("scheme").unwrap_or("http"),
        Some(other) => other,
        None => "scheme",
    };
    let cleaned: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let cleaned = cleaned.trim_matches('-');
    if cleaned.is_empty() {
        "scheme".to_owned()
    } else if field("type") == Some("http") {
        cleaned.to_ascii_lowercase()
    } else {
        cleaned.to_owned()
    }
}

/// The endpoint metadata each scheme type needs in 0.8.0; `false` (after telling the
/// author) when some is missing.
fn check(run: &mut Run<'_>, scheme: &Value, at: &Pointer) -> bool {
    let Some(map) = scheme.as_object() else {
        run.author(
            "invalid-security-scheme",
            at,
            format!(
                "a 0.7 security entry must be a security scheme object, not {}",
                brief(scheme)
            ),
        );
        return false;
    };
    let has = |k: &str| {
        map.get(k)
            .is_some_and(|v| v.as_str().is_some_and(|s| !s.is_empty()))
    };
    let missing = |needed: &[&str]| -> Vec<String> {
        needed
            .iter()
            .filter(|k| !has(k))
            .map(|k| format!("`{k}`"))
            .collect()
    };
    let (kind, lacking) = match map.get("type").and_then(Value::as_str) {
        Some("http") => ("http", missing(&["scheme"])),
        Some("apiKey") => ("apiKey", missing(&["name", "in"])),
        Some("openIdConnect") => ("openIdConnect", missing(&["openIdConnectUrl"])),
        Some("oauth2") => return oauth_flows(run, map, at),
        other => {
            run.author(
                "invalid-security-scheme",
                at,
                format!(
                    "the security scheme's type is {}; it must be one of http, apiKey, oauth2, openIdConnect",
                    other.map_or("missing".to_owned(), |t| format!("{t:?}"))
                ),
            );
            return false;
        }
    };
    if lacking.is_empty() {
        return true;
    }
    run.author(
        "incomplete-security-scheme",
        at,
        format!(
            "the {kind} security scheme lacks {}, which 0.8.0 requires; only the author knows the value",
            lacking.join(" and ")
        ),
    );
    false
}

/// OAuth flows: at least one, each with the URLs its kind needs and a `scopes` map.
fn oauth_flows(run: &mut Run<'_>, map: &Map<String, Value>, at: &Pointer) -> bool {
    let Some(flows) = map
        .get("flows")
        .and_then(Value::as_object)
        .filter(|f| !f.is_empty())
    else {
        run.author(
            "incomplete-security-scheme",
            at,
            "the oauth2 security scheme declares no flows; 0.8.0 requires at least one (implicit, password, clientCredentials or authorizationCode) with its endpoint URLs and scopes, which only the author knows",
        );
        return false;
    };
    let mut complete = true;
    for (kind, flow) in flows {
        let needed: &[&str] = match kind.as_str() {
            "implicit" => &["authorizationUrl", "scopes"],
            "password" | "clientCredentials" => &["tokenUrl", "scopes"],
            "authorizationCode" => &["authorizationUrl", "tokenUrl", "scopes"],
            _ => continue,
        };
        let lacking: Vec<String> = needed
            .iter()
            .filter(|k| flow.get(**k).is_none())
            .map(|k| format!("`{k}`"))
            .collect();
        if !lacking.is_empty() {
            complete = false;
            run.author(
                "incomplete-oauth-flow",
                &at.key("flows").key(kind),
                format!(
                    "the oauth2 {kind} flow lacks {}, which 0.8.0 requires; missing endpoint metadata and scope catalogues need the author",
                    lacking.join(" and ")
                ),
            );
        }
    }
    complete
}
