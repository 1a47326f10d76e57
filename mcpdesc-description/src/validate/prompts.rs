//! Prompts (spec §11) and completion examples (on Prompts and Resource Templates).
//!
//! Prompts with one name have disjoint scopes. Their fields follow the declaration
//! field versions. A Prompt example pairs `prompts/get` arguments with the completed
//! result: arguments must be declared and required ones present; messages use content
//! forms every version of the scope supports.
//!
//! A completion example pairs a `completion/complete` argument (and, from 2025-06-18,
//! context arguments) with its completed result. The argument names must be Prompt
//! arguments or Resource Template variables. Completion examples do not exist for
//! 2024-11-05 (the `completions` capability arrived in 2025-03-26).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::content;
use super::cx::{display_path, Cx};
use super::resources::{check_declaration_fields, template_of};
use super::results::{self, ResultCodes};
use super::scopes::{check_disjoint, Scoped};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// The codes of Prompt example results.
const PROMPT_RESULT_CODES: ResultCodes = ResultCodes {
    envelope: "prompt-example-json-rpc-envelope",
    incomplete: "incomplete-prompt-example-result",
    version: "prompt-example-result-version-mismatch",
};

/// The codes of completion example results.
const COMPLETION_RESULT_CODES: ResultCodes = ResultCodes {
    envelope: "completion-example-json-rpc-envelope",
    incomplete: "incomplete-completion-example-result",
    version: "completion-example-result-version-mismatch",
};

/// Runs the Prompt and completion example checks.
pub fn check(cx: &mut Cx<'_>) {
    let prompts = cx.prompts.clone();
    check_disjoint(cx, "name", &prompts);
    let completions = CompletionsCapability::of(cx);
    for prompt in &prompts {
        check_declaration_fields(cx, prompt, false);
        check_argument_titles(cx, prompt);
        check_examples(cx, prompt);
        let names = Names::Prompt(
            declared_arguments(prompt.value)
                .into_keys()
                .map(str::to_owned)
                .collect(),
        );
        check_completion_examples(cx, prompt, &names, &completions);
    }
    for template in cx.resource_templates.clone() {
        // A malformed template is reported by the Resource Template pass; its variables
        // are then unknown, so names are not checked.
        let names = match template_of(template.value) {
            Some(parsed) => Names::Template(parsed.variables().map(str::to_owned).collect()),
            None => Names::Unknown,
        };
        check_completion_examples(cx, &template, &names, &completions);
    }
}

/// The declared arguments of a Prompt by name, with whether each is required.
fn declared_arguments(prompt: &Value) -> HashMap<&str, bool> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|argument| {
            let name = argument.get("name")?.as_str()?;
            let required = argument.get("required").and_then(Value::as_bool) == Some(true);
            Some((name, required))
        })
        .collect()
}

/// Prompt argument `title` exists from 2025-06-18.
fn check_argument_titles(cx: &mut Cx<'_>, prompt: &Scoped<'_>) {
    let Some(arguments) = prompt.value.get("arguments").and_then(Value::as_array) else {
        return;
    };
    for (index, argument) in arguments.iter().enumerate() {
        if argument.get("title").is_some() {
            let at = prompt.at.key("arguments").index(index).key("title");
            cx.field_versions(
                &at,
                "title",
                prompt.scope,
                VersionSet::since(ProtocolVersion::V2025_06_18),
            );
        }
    }
}

/// Checks the named examples of one Prompt.
fn check_examples(cx: &mut Cx<'_>, prompt: &Scoped<'_>) {
    let Some(examples) = prompt.value.get("examples").and_then(Value::as_object) else {
        return;
    };
    let declared = declared_arguments(prompt.value);
    for (name, example) in examples {
        let at = prompt.at.key("examples").key(name);
        check_example_arguments(cx, &at, example, &declared);
        let Some(result) = example.get("result") else {
            continue;
        };
        let result_at = at.key("result");
        if let Some(members) =
            results::check_completed(cx, &result_at, result, prompt.scope, PROMPT_RESULT_CODES)
        {
            check_messages(cx, &result_at, members, prompt.scope);
        }
    }
}

/// Example arguments must be declared, and every required argument given.
fn check_example_arguments(
    cx: &mut Cx<'_>,
    at: &Pointer,
    example: &Value,
    declared: &HashMap<&str, bool>,
) {
    let arguments_at = at.key("arguments");
    let given = example.get("arguments").and_then(Value::as_object);
    for name in given.into_iter().flat_map(Map::keys) {
        if !declared.contains_key(name.as_str()) {
            let name_at = arguments_at.key(name);
            cx.error(
                rules::PROMPTS,
                "prompt-example-unknown-argument",
                &name_at,
                format!(
                    "{} is not an argument the Prompt declares",
                    display_path(&name_at)
                ),
            );
        }
    }
    // Sorted, so diagnostics come out in a stable order.
    let mut required: Vec<&str> = declared
        .iter()
        .filter(|(_, r)| **r)
        .map(|(n, _)| *n)
        .collect();
    required.sort_unstable();
    for name in required {
        if !given.is_some_and(|g| g.contains_key(name)) {
            cx.error(
                rules::PROMPTS,
                "prompt-example-missing-required-argument",
                &arguments_at.key(name),
                format!(
                    "{} is required by the Prompt but missing from the example's arguments",
                    display_path(&arguments_at.key(name))
                ),
            );
        }
    }
}

/// Message content must use forms every version of the scope supports.
fn check_messages(cx: &mut Cx<'_>, at: &Pointer, members: &Map<String, Value>, scope: VersionSet) {
    let Some(messages) = members.get("messages").and_then(Value::as_array) else {
        return;
    };
    for (index, message) in messages.iter().enumerate() {
        if let Some(block) = message.get("content") {
            let block_at = at.key("messages").index(index).key("content");
            content::check_block(
                cx,
                &block_at,
                block,
                scope,
                "prompt-example-content-version-mismatch",
            );
        }
    }
}

/// The names a completion example may complete or use as context.
enum Names {
    /// A Prompt's declared argument names.
    Prompt(HashSet<String>),
    /// A Resource Template's RFC 6570 variable names.
    Template(HashSet<String>),
    /// Unknown (the template is malformed).
    Unknown,
}

impl Names {
    /// Whether `name` is allowed; always true when the names are unknown.
    fn allows(&self, name: &str) -> bool {
        match self {
            Names::Prompt(names) | Names::Template(names) => names.contains(name),
            Names::Unknown => true,
        }
    }

    /// The code and wording for an undeclared target or context name.
    fn unknown(&self, context: bool) -> (&'static str, &'static str) {
        match (self, context) {
            (Names::Template(_), false) => (
                "resource-template-completion-example-unknown-variable",
                "is not a variable of the Resource Template's uriTemplate",
            ),
            (Names::Template(_), true) => (
                "resource-template-completion-example-context-unknown-variable",
                "is not a variable of the Resource Template's uriTemplate",
            ),
            (_, false) => (
                "prompt-completion-example-unknown-argument",
                "is not an argument the Prompt declares",
            ),
            (_, true) => (
                "prompt-completion-example-context-unknown-argument",
                "is not an argument the Prompt declares",
            ),
        }
    }
}

/// Which versions the document's Capabilities Objects speak about, and in which of them
/// they declare `completions`.
struct CompletionsCapability {
    /// Versions some Capabilities Object applies to.
    described: VersionSet,
    /// Versions whose Capabilities Object declares `completions`.
    declared: VersionSet,
}

impl CompletionsCapability {
    /// Reads the capabilities without reporting (the capabilities pass reports their
    /// scopes).
    fn of(cx: &Cx<'_>) -> Self {
        let mut described = VersionSet::EMPTY;
        let mut declared = VersionSet::EMPTY;
        for capability in cx
            .doc
            .get("capabilities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let scope = match capability.get("protocolVersions").and_then(Value::as_array) {
                Some(list) => list
                    .iter()
                    .filter_map(Value::as_str)
                    .filter_map(ProtocolVersion::parse)
                    .collect::<VersionSet>()
                    .intersect(cx.root),
                None => cx.root,
            };
            described = described.union(scope);
            if capability.get("completions").is_some() {
                declared = declared.union(scope);
            }
        }
        CompletionsCapability {
            described,
            declared,
        }
    }
}

/// Checks the completion examples of a Prompt or Resource Template.
fn check_completion_examples(
    cx: &mut Cx<'_>,
    owner: &Scoped<'_>,
    names: &Names,
    completions: &CompletionsCapability,
) {
    let Some(examples) = owner
        .value
        .get("completionExamples")
        .and_then(Value::as_object)
    else {
        return;
    };
    let examples_at = owner.at.key("completionExamples");
    // Decision: when the document's capabilities describe a version of this scope but do
    // not declare `completions` there, the examples contradict the declared server
    // capabilities; that is worth a warning (not an error: an omitted capability makes
    // no statement, and the examples stay meaningful for other versions).
    let undeclared = owner
        .scope
        .intersect(completions.described)
        .minus(completions.declared);
    if !undeclared.is_empty() {
        cx.warning(
            rules::COMPLETION_EXAMPLES,
            "completion-example-capability-not-declared",
            &examples_at,
            format!(
                "{} illustrates completion/complete, but the capabilities for {undeclared} do not declare completions",
                display_path(&examples_at)
            ),
        );
    }
    for (name, example) in examples {
        check_completion_example(cx, &examples_at.key(name), example, owner.scope, names);
    }
}

/// Checks one completion example.
fn check_completion_example(
    cx: &mut Cx<'_>,
    at: &Pointer,
    example: &Value,
    scope: VersionSet,
    names: &Names,
) {
    let target = example
        .get("argument")
        .and_then(|a| a.get("name"))
        .and_then(Value::as_str);
    if let Some(target) = target.filter(|t| !names.allows(t)) {
        let (code, why) = names.unknown(false);
        let name_at = at.key("argument").key("name");
        cx.error(
            rules::COMPLETION_EXAMPLES,
            code,
            &name_at,
            format!("{} is {target:?}, which {why}", display_path(&name_at)),
        );
    }
    let context = example.get("context");
    let context_arguments = context
        .and_then(|c| c.get("arguments"))
        .and_then(Value::as_object);
    for name in context_arguments.into_iter().flat_map(Map::keys) {
        let name_at = at.key("context").key("arguments").key(name);
        if !names.allows(name) {
            let (code, why) = names.unknown(true);
            cx.error(
                rules::COMPLETION_EXAMPLES,
                code,
                &name_at,
                format!("{} names {name:?}, which {why}", display_path(&name_at)),
            );
        }
        if Some(name.as_str()) == target {
            cx.error(
                rules::COMPLETION_EXAMPLES,
                "completion-example-duplicate-target-context",
                &name_at,
                format!(
                    "{} repeats the argument being completed; context holds only the other, already resolved arguments",
                    display_path(&name_at)
                ),
            );
        }
    }
    let scope = check_completion_versions(cx, at, context.is_some(), scope);
    if let Some(result) = example.get("result") {
        results::check_completed(
            cx,
            &at.key("result"),
            result,
            scope,
            COMPLETION_RESULT_CODES,
        );
    }
}

/// Reports versions without completion examples (2024-11-05) and without completion
/// context (before 2025-06-18). Returns the versions the result is checked against.
///
/// Decision (as the reference validator): 2024-11-05 had a `completion/complete` request
/// but no `completions` capability; mcpdesc ties completion examples to the capability,
/// so they are an error there.
fn check_completion_versions(
    cx: &mut Cx<'_>,
    at: &Pointer,
    has_context: bool,
    scope: VersionSet,
) -> VersionSet {
    use ProtocolVersion::*;
    let unsupported = scope.minus(VersionSet::since(V2025_03_26));
    if !unsupported.is_empty() {
        cx.error(
            rules::COMPLETION_EXAMPLES,
            "completion-example-version-mismatch",
            at,
            format!(
                "{} is not defined for {unsupported}; completion examples require MCP 2025-03-26 or later",
                display_path(at)
            ),
        );
    }
    let scope = scope.minus(unsupported);
    let no_context = scope.minus(VersionSet::since(V2025_06_18));
    if has_context && !no_context.is_empty() {
        let context_at = at.key("context");
        cx.error(
            rules::COMPLETION_EXAMPLES,
            "completion-example-context-version-mismatch",
            &context_at,
            format!(
                "{} is not defined for {no_context}; completion context requires MCP 2025-06-18 or later",
                display_path(&context_at)
            ),
        );
    }
    scope
}

#[cfg(test)]
#[path = "tests/prompts.rs"]
mod tests;
