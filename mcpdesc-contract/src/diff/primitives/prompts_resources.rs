//! The own members of prompts (arguments), resources and resource templates (MIME
//! type).

use serde_json::Value;

use super::cache::Cache;
use super::members::member_or_self;
use crate::diff::change::Subject;
use crate::diff::found::Found;
use crate::diff::rules::{self, Rule};
use crate::diff::values::json_equal;
use crate::diff::view::Decl;

/// A prompt's arguments, by name. A name listed twice counts once, as first declared
/// (as the generator reads it), so a description diffed with itself shows no change.
pub(super) fn prompt(o: &Decl<'_>, n: &Decl<'_>, _: &mut Cache, out: &mut Vec<Found>) {
    let args = |d: &Decl<'_>| -> Vec<(String, usize, Value)> {
        let mut seen = std::collections::HashSet::new();
        d.value
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .filter_map(|(i, a)| Some((a.get("name")?.as_str()?.to_owned(), i, a.clone())))
            .filter(|(name, ..)| seen.insert(name.clone()))
            .collect()
    };
    let required = |a: &Value| a.get("required") == Some(&Value::Bool(true));
    let (before, after) = (args(o), args(n));
    let arg_at = |d: &Decl<'_>, i: usize| d.at.key("arguments").index(i);
    for (name, i, a) in &before {
        match after.iter().find(|(m, ..)| m == name) {
            None => out.push(
                Found::new(
                    &rules::PROMPT_ARGUMENT_REMOVED,
                    Subject::Prompt,
                    n.id.clone(),
                    format!("argument {name:?} of prompt {:?} was removed", n.id),
                )
                .path(name.clone())
                .at(Some(arg_at(o, *i)), Some(member_or_self(n, "arguments"))),
            ),
            Some((_, j, b)) => {
                let rule = match (required(a), required(b)) {
                    (false, true) => {
                        Some((&rules::PROMPT_ARGUMENT_BECAME_REQUIRED, "became required"))
                    }
                    (true, false) => {
                        Some((&rules::PROMPT_ARGUMENT_BECAME_OPTIONAL, "became optional"))
                    }
                    _ => None,
                };
                if let Some((rule, what)) = rule {
                    out.push(
                        Found::new(
                            rule,
                            Subject::Prompt,
                            n.id.clone(),
                            format!("argument {name:?} of prompt {:?} {what}", n.id),
                        )
                        .path(name.clone())
                        .at(Some(arg_at(o, *i)), Some(arg_at(n, *j))),
                    );
                }
                // The description and title (their own rule: what a model is told),
                // then the other descriptive members.
                let texts = |v: &Value| [v.get("description").cloned(), v.get("title").cloned()];
                let rest = |v: &Value| {
                    let mut v = v.clone();
                    if let Some(m) = v.as_object_mut() {
                        for key in ["required", "description", "title"] {
                            m.shift_remove(key);
                        }
                    }
                    v
                };
                let changed = [
                    (
                        texts(a) != texts(b),
                        &rules::PROMPT_DESCRIPTION_CHANGED,
                        "the description or title",
                        "; a client that pinned this contract should review it",
                    ),
                    (
                        !json_equal(&rest(a), &rest(b)),
                        &rules::PROMPT_METADATA_CHANGED,
                        "the descriptive members",
                        "",
                    ),
                ];
                for (_, rule, what, review) in changed.into_iter().filter(|c| c.0) {
                    out.push(
                        Found::new(
                            rule,
                            Subject::Prompt,
                            n.id.clone(),
                            format!(
                                "{what} of argument {name:?} of prompt {:?} changed{review}",
                                n.id
                            ),
                        )
                        .path(name.clone())
                        .at(Some(arg_at(o, *i)), Some(arg_at(n, *j))),
                    );
                }
            }
        }
    }
    for (name, j, b) in &after {
        if before.iter().any(|(m, ..)| m == name) {
            continue;
        }
        let (rule, what) = if required(b) {
            (&rules::PROMPT_ARGUMENT_ADDED_REQUIRED, "required")
        } else {
            (&rules::PROMPT_ARGUMENT_ADDED_OPTIONAL, "optional")
        };
        out.push(
            Found::new(
                rule,
                Subject::Prompt,
                n.id.clone(),
                format!("{what} argument {name:?} was added to prompt {:?}", n.id),
            )
            .path(name.clone())
            .at(Some(member_or_self(o, "arguments")), Some(arg_at(n, *j))),
        );
    }
}

pub(super) fn resource(o: &Decl<'_>, n: &Decl<'_>, _: &mut Cache, out: &mut Vec<Found>) {
    mime_type(
        &rules::RESOURCE_MIME_TYPE_CHANGED,
        Subject::Resource,
        o,
        n,
        out,
    );
}

pub(super) fn template(o: &Decl<'_>, n: &Decl<'_>, _: &mut Cache, out: &mut Vec<Found>) {
    mime_type(
        &rules::TEMPLATE_MIME_TYPE_CHANGED,
        Subject::ResourceTemplate,
        o,
        n,
        out,
    );
}

fn mime_type(
    rule: &'static Rule,
    subject: Subject,
    o: &Decl<'_>,
    n: &Decl<'_>,
    out: &mut Vec<Found>,
) {
    let (a, b) = (o.value.get("mimeType"), n.value.get("mimeType"));
    if a == b {
        return;
    }
    let show = |v: Option<&Value>| v.map_or("none".to_owned(), Value::to_string);
    out.push(
        Found::new(
            rule,
            subject,
            n.id.clone(),
            format!(
                "the MIME type of {} {:?} changed from {} to {}",
                subject.noun(),
                n.id,
                show(a),
                show(b)
            ),
        )
        .path("mimeType")
        .at(
            Some(member_or_self(o, "mimeType")),
            Some(member_or_self(n, "mimeType")),
        ),
    );
}
