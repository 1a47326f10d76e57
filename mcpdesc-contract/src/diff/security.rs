//! Security compared as the *effective* requirement of each primitive over each
//! transport, not by where it is written (digest §1.6): the primitive's `security`,
//! else the transport's, else the root's, else none. Moving a requirement from the root
//! to every primitive is therefore no change, and adding one to a single transport
//! changes exactly the primitives served over it.
//!
//! A requirement is an OR of alternatives, each an AND of schemes with scopes. Omitted,
//! `[]` and `[{}]` all let a client in without credentials. A client that satisfied an
//! old alternative keeps access when some new alternative asks for a subset of what it
//! has (fewer schemes, fewer scopes of each). When no description declares transports
//! for a version, each primitive is compared once, without a transport.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::change::Subject;
use super::found::Found;
use super::rules::{self, Rule};
use super::view::{find, Decl, View};
use mcpdesc_description::pointer::Pointer;

/// One alternative: scheme name → required scopes.
type Alternative = BTreeMap<String, BTreeSet<String>>;

/// An effective requirement with where it is written.
struct Effective {
    alternatives: Vec<Alternative>,
    at: Pointer,
}

impl Effective {
    fn open(&self) -> bool {
        self.alternatives.iter().any(BTreeMap::is_empty)
    }

    fn describe(&self) -> String {
        if self.open() {
            return "no authentication".to_owned();
        }
        let alts: Vec<String> = self
            .alternatives
            .iter()
            .map(|a| {
                a.iter()
                    .map(|(scheme, scopes)| {
                        if scopes.is_empty() {
                            scheme.clone()
                        } else {
                            format!(
                                "{scheme} [{}]",
                                scopes.iter().cloned().collect::<Vec<_>>().join(", ")
                            )
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .collect();
        alts.join(" or ")
    }
}

/// Reads a Security Requirement Array (`None` when the member is absent).
fn requirement(value: Option<&Value>) -> Option<Vec<Alternative>> {
    let list = value?.as_array()?;
    Some(
        list.iter()
            .filter_map(Value::as_object)
            .map(|alt| {
                alt.iter()
                    .map(|(scheme, scopes)| {
                        let scopes = scopes
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect();
                        (scheme.clone(), scopes)
                    })
                    .collect()
            })
            .collect(),
    )
}

/// The effective requirement of `primitive` over `transport` (none: no transport).
fn effective(view: &View<'_>, primitive: &Decl<'_>, transport: Option<&Decl<'_>>) -> Effective {
    let layers = [
        (
            primitive.value.get("security"),
            primitive.at.key("security"),
        ),
        (
            transport.and_then(|t| t.value.get("security")),
            transport.map_or_else(Pointer::root, |t| t.at.key("security")),
        ),
        (view.doc.get("security"), Pointer::root().key("security")),
    ];
    for (value, at) in layers {
        if let Some(mut alternatives) = requirement(value) {
            // `[]` clears inherited requirements: no authentication.
            if alternatives.is_empty() {
                alternatives.push(Alternative::new());
            }
            return Effective { alternatives, at };
        }
    }
    Effective {
        alternatives: vec![Alternative::new()],
        at: primitive.at.clone(),
    }
}

/// Whether a client holding `held` satisfies `wanted`.
fn satisfies(held: &Alternative, wanted: &Alternative) -> bool {
    wanted
        .iter()
        .all(|(scheme, scopes)| held.get(scheme).is_some_and(|have| scopes.is_subset(have)))
}

/// The security changes of every primitive present in both views.
pub(super) fn compare(old: &View<'_>, new: &View<'_>) -> Vec<Found> {
    let transports: Vec<(Option<&Decl<'_>>, Option<&Decl<'_>>)> =
        if old.transports.is_empty() && new.transports.is_empty() {
            vec![(None, None)]
        } else {
            old.transports
                .iter()
                .filter_map(|t| find(&new.transports, &t.id).map(|u| (Some(t), Some(u))))
                .collect()
        };
    let kinds: [(Subject, &[Decl<'_>], &[Decl<'_>]); 4] = [
        (Subject::Tool, &old.tools, &new.tools),
        (Subject::Prompt, &old.prompts, &new.prompts),
        (Subject::Resource, &old.resources, &new.resources),
        (Subject::ResourceTemplate, &old.templates, &new.templates),
    ];
    let mut out = Vec::new();
    for (subject, a, b) in kinds {
        let by_id: std::collections::HashMap<&str, &Decl<'_>> =
            b.iter().map(|d| (d.id.as_str(), d)).collect();
        for o in a {
            let Some(n) = by_id.get(o.id.as_str()).copied() else {
                continue;
            };
            // Changes with the same rule and requirements, over several transports, are
            // one finding naming them all.
            let mut grouped: Vec<(Found, Vec<String>)> = Vec::new();
            for (ta, tb) in &transports {
                let before = effective(old, o, *ta);
                let after = effective(new, n, *tb);
                let Some(found) = classify(subject, &n.id, &before, &after) else {
                    continue;
                };
                let label = ta.map(|t| t.id.clone());
                match grouped.iter_mut().find(|(f, _)| *f == found) {
                    Some((_, labels)) => labels.extend(label),
                    None => grouped.push((found, label.into_iter().collect())),
                }
            }
            for (mut found, labels) in grouped {
                if !labels.is_empty() {
                    found.message = found.message.replacen(
                        ": required",
                        &format!(" over {}: required", labels.join(", ")),
                        1,
                    );
                    found.path = Some(format!("transports: {}", labels.join(", ")));
                }
                out.push(found);
            }
        }
    }
    out
}

fn classify(subject: Subject, id: &str, before: &Effective, after: &Effective) -> Option<Found> {
    let lost: Vec<&Alternative> = before
        .alternatives
        .iter()
        .filter(|held| !after.alternatives.iter().any(|w| satisfies(held, w)))
        .collect();
    let gained = after.alternatives.iter().any(|w| {
        !before
            .alternatives
            .iter()
            .any(|held| satisfies(held, w) && satisfies(w, held))
    });
    // Direction first: a lost alternative (some client is refused now) tightens; only
    // gained alternatives (every old client still gets in, and more may) loosen.
    let rule: &'static Rule = if !lost.is_empty() {
        // The same schemes with other scopes: more of them, or different ones.
        let same_schemes = |held: &Alternative, grow: bool| {
            !held.is_empty()
                && after.alternatives.iter().any(|w| {
                    w.keys().eq(held.keys())
                        && (!grow || held.iter().all(|(s, scopes)| scopes.is_subset(&w[s])))
                })
        };
        if lost.iter().all(|held| same_schemes(held, true)) {
            &rules::SECURITY_SCOPES_ADDED
        } else if lost.iter().all(|held| same_schemes(held, false)) {
            // Scope names carry no order: `notes:read` in place of `notes:write` may be
            // weaker in the authorization server, but a token granted only
            // `notes:write` is refused now.
            &rules::SECURITY_SCOPES_CHANGED
        } else {
            &rules::SECURITY_REQUIREMENT_ADDED
        }
    } else if gained && !before.open() {
        &rules::SECURITY_LOOSENED
    } else {
        return None;
    };
    Some(
        Found::new(
            rule,
            subject,
            id,
            format!(
                "{} {id:?}: required {}; now requires {}",
                subject.noun(),
                before.describe(),
                after.describe()
            ),
        )
        .at(Some(before.at.clone()), Some(after.at.clone())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alt(pairs: &[(&str, &[&str])]) -> Alternative {
        pairs
            .iter()
            .map(|(s, scopes)| {
                (
                    s.to_string(),
                    scopes.iter().map(|x| x.to_string()).collect(),
                )
            })
            .collect()
    }

    fn eff(alts: Vec<Alternative>) -> Effective {
        Effective {
            alternatives: alts,
            at: Pointer::root(),
        }
    }

    fn rule(before: Vec<Alternative>, after: Vec<Alternative>) -> Option<&'static str> {
        classify(Subject::Tool, "t", &eff(before), &eff(after)).map(|f| f.rule.id)
    }

    #[test]
    fn requirements_compare_as_or_of_and() {
        let open = || vec![Alternative::new()];
        let oauth = |scopes: &[&str]| alt(&[("oauth", scopes)]);
        assert_eq!(
            rule(open(), vec![oauth(&[])]),
            Some("security.requirement.added")
        );
        assert_eq!(
            rule(vec![oauth(&["r"])], vec![oauth(&["r", "w"])]),
            Some("security.scopes.added")
        );
        assert_eq!(
            rule(vec![oauth(&["r", "w"])], vec![oauth(&["r"])]),
            Some("security.loosened")
        );
        // Other scopes of the same scheme: a token of the old scope is refused.
        assert_eq!(
            rule(vec![oauth(&["w"])], vec![oauth(&["r"])]),
            Some("security.scopes.changed")
        );
        // Fewer schemes.
        assert_eq!(
            rule(vec![alt(&[("oauth", &[]), ("key", &[])])], vec![oauth(&[])]),
            Some("security.loosened")
        );
        assert_eq!(rule(vec![oauth(&["r"])], open()), Some("security.loosened"));
        // A new alternative alone does not lock anyone out.
        assert_eq!(
            rule(
                vec![oauth(&["r"])],
                vec![oauth(&["r"]), alt(&[("key", &[])])]
            ),
            Some("security.loosened")
        );
        // Dropping an alternative does.
        assert_eq!(
            rule(
                vec![oauth(&["r"]), alt(&[("key", &[])])],
                vec![oauth(&["r"])]
            ),
            Some("security.requirement.added")
        );
        // AND of two schemes where one was enough.
        assert_eq!(
            rule(vec![oauth(&[])], vec![alt(&[("oauth", &[]), ("key", &[])])]),
            Some("security.requirement.added")
        );
        assert_eq!(rule(vec![oauth(&["r"])], vec![oauth(&["r"])]), None);
        assert_eq!(rule(open(), open()), None);
    }
}
