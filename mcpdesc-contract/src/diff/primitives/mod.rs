//! Tools, prompts, resources and resource templates of one view, matched by identity
//! (name, name, URI, URI template) and compared member by member.
//!
//! **Renames** are detected heuristically among the declarations that disappeared and
//! appeared in the same view: a removed and an added tool are one renamed tool when
//! their `inputSchema` and `outputSchema` are equal (as JSON values, after
//! `$componentRef` substitution) and neither has another such partner; a prompt, when
//! their `arguments` are equal; a resource (template), when their `name` is equal (the
//! URI or URI template changed). When several candidates qualify, an equal
//! `description` decides; if it does not, no rename is assumed and the removal and the
//! addition are reported separately. Candidates are grouped by a canonical text of what
//! they must share, so matching stays linear in the number of declarations.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;

use super::change::Subject;
use super::found::Found;
use super::rules::{self, Rule};
use super::view::{Decl, View};

pub(super) mod cache;
mod members;
mod prompts_resources;
mod tool;

use cache::Cache;
use members::{member_or_self, same_member};

use prompts_resources::{prompt, resource, template};
use tool::tool;

/// Every primitive change of one view.
pub(super) fn compare(old: &View<'_>, new: &View<'_>, cache: &mut Cache) -> Vec<Found> {
    let mut out = Vec::new();
    for kind in &KINDS {
        let (a, b) = (kind.list)(old, new);
        let m = matching(a, b, kind);
        for d in &m.removed {
            out.push(
                Found::new(
                    kind.removed,
                    kind.subject,
                    d.id.clone(),
                    format!("{} {:?} was removed", kind.subject.noun(), d.id),
                )
                .at(Some(d.at.clone()), None),
            );
        }
        for d in &m.added {
            out.push(
                Found::new(
                    kind.added,
                    kind.subject,
                    d.id.clone(),
                    format!("{} {:?} was added", kind.subject.noun(), d.id),
                )
                .at(None, Some(d.at.clone())),
            );
        }
        for (o, n) in &m.renamed {
            out.push(
                Found::new(
                    kind.renamed,
                    kind.subject,
                    n.id.clone(),
                    format!(
                        "{} {:?} {} {:?} ({})",
                        kind.subject.noun(),
                        o.id,
                        kind.renamed_verb,
                        n.id,
                        kind.rename_evidence
                    ),
                )
                .at(Some(o.at.clone()), Some(n.at.clone())),
            );
        }
        for (o, n) in m.pairs.iter().chain(&m.renamed) {
            (kind.members)(o, n, cache, &mut out);
            common(kind, o, n, &mut out);
        }
    }
    out
}

/// The declarations of one kind in the old and the new view.
type Lists = for<'a, 'd> fn(&'a View<'d>, &'a View<'d>) -> (&'a [Decl<'d>], &'a [Decl<'d>]);

/// How one kind of primitive is matched and compared.
struct Kind {
    subject: Subject,
    list: Lists,
    /// What a removed and an added declaration must share to be one renamed
    /// declaration (`None`: never a rename candidate).
    rename_key: fn(&Value) -> Option<String>,
    rename_evidence: &'static str,
    /// How the message says it: "was renamed to", "moved to".
    renamed_verb: &'static str,
    added: &'static Rule,
    removed: &'static Rule,
    renamed: &'static Rule,
    deprecated: &'static Rule,
    metadata: &'static Rule,
    /// Members with their own rules (the rest are descriptive).
    handled: &'static [&'static str],
    /// A changed `description` or `title`.
    described: &'static Rule,
    /// The kind's own member comparisons.
    members: fn(&Decl<'_>, &Decl<'_>, &mut Cache, &mut Vec<Found>),
}

/// Members every primitive kind handles the same way.
const COMMON: [&str; 5] = [
    "protocolVersions",
    "deprecated",
    "security",
    "clientRequirements",
    "elicitations",
];

const KINDS: [Kind; 4] = [
    Kind {
        subject: Subject::Tool,
        list: |a, b| (&a.tools, &b.tools),
        rename_key: |t| {
            Some(canonical(&serde_json::json!([
                t.get("inputSchema"),
                t.get("outputSchema")
            ])))
        },
        rename_evidence: "equal inputSchema and outputSchema",
        renamed_verb: "was renamed to",
        added: &rules::TOOL_ADDED,
        removed: &rules::TOOL_REMOVED,
        renamed: &rules::TOOL_RENAMED,
        deprecated: &rules::TOOL_DEPRECATED,
        metadata: &rules::TOOL_METADATA_CHANGED,
        described: &rules::TOOL_DESCRIPTION_CHANGED,
        handled: &[
            "name",
            "inputSchema",
            "outputSchema",
            "annotations",
            "execution",
        ],
        members: tool,
    },
    Kind {
        subject: Subject::Prompt,
        list: |a, b| (&a.prompts, &b.prompts),
        rename_key: |p| Some(canonical(p.get("arguments").unwrap_or(&Value::Null))),
        rename_evidence: "equal arguments",
        renamed_verb: "was renamed to",
        added: &rules::PROMPT_ADDED,
        removed: &rules::PROMPT_REMOVED,
        renamed: &rules::PROMPT_RENAMED,
        deprecated: &rules::PROMPT_DEPRECATED,
        metadata: &rules::PROMPT_METADATA_CHANGED,
        described: &rules::PROMPT_DESCRIPTION_CHANGED,
        handled: &["name", "arguments"],
        members: prompt,
    },
    Kind {
        subject: Subject::Resource,
        list: |a, b| (&a.resources, &b.resources),
        rename_key: |r| r.get("name").map(canonical),
        rename_evidence: "same name, new URI",
        renamed_verb: "moved to",
        added: &rules::RESOURCE_ADDED,
        removed: &rules::RESOURCE_REMOVED,
        renamed: &rules::RESOURCE_URI_CHANGED,
        deprecated: &rules::RESOURCE_DEPRECATED,
        metadata: &rules::RESOURCE_METADATA_CHANGED,
        described: &rules::RESOURCE_DESCRIPTION_CHANGED,
        handled: &["uri", "mimeType"],
        members: resource,
    },
    Kind {
        subject: Subject::ResourceTemplate,
        list: |a, b| (&a.templates, &b.templates),
        rename_key: |r| r.get("name").map(canonical),
        rename_evidence: "same name, new URI template",
        renamed_verb: "moved to",
        added: &rules::TEMPLATE_ADDED,
        removed: &rules::TEMPLATE_REMOVED,
        renamed: &rules::TEMPLATE_URI_TEMPLATE_CHANGED,
        deprecated: &rules::TEMPLATE_DEPRECATED,
        metadata: &rules::TEMPLATE_METADATA_CHANGED,
        described: &rules::TEMPLATE_DESCRIPTION_CHANGED,
        handled: &["uriTemplate", "mimeType"],
        members: template,
    },
];

/// Declarations paired by identity, plus the rename heuristic's pairs.
struct Matching<'a, 'd> {
    pairs: Vec<(&'a Decl<'d>, &'a Decl<'d>)>,
    renamed: Vec<(&'a Decl<'d>, &'a Decl<'d>)>,
    removed: Vec<&'a Decl<'d>>,
    added: Vec<&'a Decl<'d>>,
}

fn matching<'a, 'd>(old: &'a [Decl<'d>], new: &'a [Decl<'d>], kind: &Kind) -> Matching<'a, 'd> {
    let new_ids: HashMap<&str, &'a Decl<'d>> = new.iter().map(|d| (d.id.as_str(), d)).collect();
    let old_ids: HashSet<&str> = old.iter().map(|d| d.id.as_str()).collect();
    let mut pairs = Vec::new();
    let mut removed = Vec::new();
    for o in old {
        match new_ids.get(o.id.as_str()) {
            Some(n) => pairs.push((o, *n)),
            None => removed.push(o),
        }
    }
    let added: Vec<&'a Decl<'d>> = new
        .iter()
        .filter(|n| !old_ids.contains(n.id.as_str()))
        .collect();

    // Rename candidates share the kind's key; among several, an equal description
    // decides; a pair must be unique on both sides.
    let key = |d: &Decl<'_>, with_description: bool| {
        let base = (kind.rename_key)(d.value)?;
        Some(if with_description {
            format!(
                "{base}\u{0}{}",
                canonical(d.value.get("description").unwrap_or(&Value::Null))
            )
        } else {
            base
        })
    };
    let mut renamed = Vec::new();
    let mut taken_old: HashSet<*const Decl<'d>> = HashSet::new();
    let mut taken_new: HashSet<*const Decl<'d>> = HashSet::new();
    for with_description in [false, true] {
        let mut groups: BTreeMap<String, (Vec<&'a Decl<'d>>, Vec<&'a Decl<'d>>)> = BTreeMap::new();
        for r in removed
            .iter()
            .filter(|r| !taken_old.contains(&(**r as *const _)))
        {
            if let Some(k) = key(r, with_description) {
                groups.entry(k).or_default().0.push(r);
            }
        }
        for a in added
            .iter()
            .filter(|a| !taken_new.contains(&(**a as *const _)))
        {
            if let Some(k) = key(a, with_description) {
                groups.entry(k).or_default().1.push(a);
            }
        }
        for (rs, adds) in groups.into_values() {
            if let ([r], [a]) = (rs.as_slice(), adds.as_slice()) {
                taken_old.insert(*r as *const _);
                taken_new.insert(*a as *const _);
                renamed.push((*r, *a));
            }
        }
    }
    renamed.sort_by_key(|(_, a)| a.at.clone());
    Matching {
        pairs,
        renamed,
        removed: removed
            .into_iter()
            .filter(|r| !taken_old.contains(&(*r as *const _)))
            .collect(),
        added: added
            .into_iter()
            .filter(|a| !taken_new.contains(&(*a as *const _)))
            .collect(),
    }
}

/// A canonical text of a JSON value: object members sorted, numbers that are integers
/// written as integers, so equal JSON values (as JSON Schema compares them) have equal
/// texts.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            let inner: Vec<String> = members
                .into_iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), canonical(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9e15 => (f as i64).to_string(),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// Deprecation, client requirements, elicitations and descriptive members.
fn common(kind: &Kind, o: &Decl<'_>, n: &Decl<'_>, out: &mut Vec<Found>) {
    let noun = kind.subject.noun();
    let flag = |d: &Decl<'_>| d.value.get("deprecated") == Some(&Value::Bool(true));
    if !flag(o) && flag(n) {
        out.push(
            Found::new(
                kind.deprecated,
                kind.subject,
                n.id.clone(),
                format!("{noun} {:?} is now deprecated", n.id),
            )
            .at(Some(o.at.clone()), Some(n.at.key("deprecated"))),
        );
    }
    client_requirements(kind.subject, o, n, out);
    if !same_member(o.value, n.value, "elicitations") {
        out.push(
            Found::new(
                &rules::ELICITATIONS_CHANGED,
                kind.subject,
                n.id.clone(),
                format!(
                    "the elicitations {noun} {:?} may ask the user for changed",
                    n.id
                ),
            )
            .at(
                Some(member_or_self(o, "elicitations")),
                Some(member_or_self(n, "elicitations")),
            ),
        );
    }
    let keys: BTreeSet<&String> = o
        .value
        .as_object()
        .into_iter()
        .chain(n.value.as_object())
        .flat_map(|m| m.keys())
        .collect();
    for key in keys {
        if COMMON.contains(&key.as_str()) || kind.handled.contains(&key.as_str()) {
            continue;
        }
        if same_member(o.value, n.value, key) {
            continue;
        }
        let (a, b) = (o.value.get(key), n.value.get(key));
        let what = match (a, b) {
            (None, Some(_)) => "was added",
            (Some(_), None) => "was removed",
            _ => "changed",
        };
        // A rewritten description or title changes what a model is told: its own
        // rule, a warning for clients that pinned the contract.
        let (rule, review) = if key == "description" || key == "title" {
            (
                kind.described,
                "; a client that pinned this contract should review it",
            )
        } else {
            (kind.metadata, "")
        };
        out.push(
            Found::new(
                rule,
                kind.subject,
                n.id.clone(),
                format!("{key} of {noun} {:?} {what}{review}", n.id),
            )
            .path(key.clone())
            .at(Some(member_or_self(o, key)), Some(member_or_self(n, key))),
        );
    }
}

/// `clientRequirements` as capability paths; new paths are new requirements.
fn client_requirements(subject: Subject, o: &Decl<'_>, n: &Decl<'_>, out: &mut Vec<Found>) {
    let paths = |d: &Decl<'_>| {
        let mut set = BTreeSet::new();
        if let Some(req) = d.value.get("clientRequirements") {
            requirement_paths(req, &mut Vec::new(), &mut set);
        }
        set
    };
    let (before, after) = (paths(o), paths(n));
    let noun = subject.noun();
    let outermost = |set: Vec<&Vec<String>>| -> Vec<Vec<String>> {
        set.iter()
            .filter(|p| !set.iter().any(|q| q.len() < p.len() && p.starts_with(q)))
            .map(|p| (*p).clone())
            .collect()
    };
    for path in outermost(after.difference(&before).collect()) {
        out.push(
            Found::new(
                &rules::CLIENT_REQUIREMENTS_ADDED,
                subject,
                n.id.clone(),
                format!(
                    "{noun} {:?} now requires the client capability {}",
                    n.id,
                    path.join(".")
                ),
            )
            .path(format!("clientRequirements.{}", path.join(".")))
            .at(
                Some(member_or_self(o, "clientRequirements")),
                Some(
                    path.iter()
                        .fold(n.at.key("clientRequirements"), |p, s| p.key(s)),
                ),
            ),
        );
    }
    for path in outermost(before.difference(&after).collect()) {
        out.push(
            Found::new(
                &rules::CLIENT_REQUIREMENTS_REMOVED,
                subject,
                n.id.clone(),
                format!(
                    "{noun} {:?} no longer requires the client capability {}",
                    n.id,
                    path.join(".")
                ),
            )
            .path(format!("clientRequirements.{}", path.join(".")))
            .at(
                Some(
                    path.iter()
                        .fold(o.at.key("clientRequirements"), |p, s| p.key(s)),
                ),
                Some(member_or_self(n, "clientRequirements")),
            ),
        );
    }
}

fn requirement_paths(value: &Value, prefix: &mut Vec<String>, out: &mut BTreeSet<Vec<String>>) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (key, inner) in map {
        if key.starts_with("x-") {
            continue;
        }
        prefix.push(key.clone());
        match inner {
            Value::Object(_) => {
                out.insert(prefix.clone());
                requirement_paths(inner, prefix, out);
            }
            Value::Bool(true) => {
                out.insert(prefix.clone());
            }
            _ => {}
        }
        prefix.pop();
    }
}
